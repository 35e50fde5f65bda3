/// The gate's verdict for one installed version, with everything the app needs to show it.
public struct GateDecision: Sendable, Hashable {
    public var status: GateStatus
    public var reason: GateReason
    public var installed: GateVersion
    /// The minimum supported version that applied (`nil` when none).
    public var minimum: GateVersion?
    /// The latest version that applied: the store's listed version when a store listing is used, else the
    /// document's (`nil` when none).
    public var latest: GateVersion?
    /// The text to show: the blocking, nudge or maintenance message; empty for ``GateStatus/ok`` and
    /// ``GateStatus/error``.
    public var message: String
    /// The store page to open from the Update button (`nil` when unknown, and always for an error).
    public var storeURL: String?
    /// Whether Android's in-app update flow may be used.
    public var androidNativeUpdateEnabled: Bool
    /// The document's notice, if any (shown whatever the status, except for an error).
    public var notice: GateNotice?
    /// The config the verdict was made from: `nil` for a `null` document or an error. Read feature
    /// switches from it with ``FeatureSwitches/isEnabled(_:in:buildDefault:isInternalUser:)``.
    public var config: GateConfig?

    public init(
        status: GateStatus, reason: GateReason, installed: GateVersion, minimum: GateVersion? = nil,
        latest: GateVersion? = nil, message: String = "", storeURL: String? = nil,
        androidNativeUpdateEnabled: Bool = false, notice: GateNotice? = nil, config: GateConfig? = nil
    ) {
        self.status = status
        self.reason = reason
        self.installed = installed
        self.minimum = minimum
        self.latest = latest
        self.message = message
        self.storeURL = storeURL
        self.androidNativeUpdateEnabled = androidNativeUpdateEnabled
        self.notice = notice
        self.config = config
    }

    /// Whether the user may choose Later: only for the nudge, never for a block or maintenance.
    public var canDismiss: Bool { status == .updateAvailable }

    /// The version to remember when the user chooses Later (the latest that was offered), or `nil` when the
    /// decision cannot be dismissed.
    public var versionToDismiss: GateVersion? { canDismiss ? latest : nil }
}
