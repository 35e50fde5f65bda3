/// The gate's values for one platform, read from the gate document (``GateDocument/config(for:)``) or built
/// in code.
public struct GateConfig: Sendable, Hashable {
    /// Below this the app is blocked. `nil` (or `0`) means no minimum.
    public var minimumSupportedVersion: GateVersion?
    /// Below this the app is nudged. `nil` means no nudge (unless a store listing gives the latest).
    public var latestVersion: GateVersion?
    /// The text of the blocking screen; ``defaultForceUpdateMessage`` when `nil`.
    public var forceUpdateMessage: String?
    /// The text of the nudge; ``defaultUpdateAvailableMessage`` when `nil`.
    public var updateAvailableMessage: String?
    /// The store page to open for this platform.
    public var storeURL: String?
    /// Whether Android's in-app update flow may be used instead of opening the store page.
    public var androidNativeUpdateEnabled: Bool
    /// The server is down for maintenance: everyone gets the maintenance screen.
    public var maintenance: Bool
    /// The text of the maintenance screen; ``defaultMaintenanceMessage`` when `nil`.
    public var maintenanceMessage: String?
    /// Feature switches by name.
    public var features: [String: FeatureState]
    /// Something to say to every user.
    public var notice: GateNotice?
    /// How long a cached copy of the document may be used offline, in seconds; the cache policy's default
    /// (7 days) when `nil`.
    public var maxAgeSeconds: Int?
    /// The document's own version, for support ("which config did this device have?").
    public var configVersion: String?

    public init(
        minimumSupportedVersion: GateVersion? = nil, latestVersion: GateVersion? = nil,
        forceUpdateMessage: String? = nil, updateAvailableMessage: String? = nil, storeURL: String? = nil,
        androidNativeUpdateEnabled: Bool = false, maintenance: Bool = false, maintenanceMessage: String? = nil,
        features: [String: FeatureState] = [:], notice: GateNotice? = nil, maxAgeSeconds: Int? = nil,
        configVersion: String? = nil
    ) {
        self.minimumSupportedVersion = minimumSupportedVersion
        self.latestVersion = latestVersion
        self.forceUpdateMessage = forceUpdateMessage
        self.updateAvailableMessage = updateAvailableMessage
        self.storeURL = storeURL
        self.androidNativeUpdateEnabled = androidNativeUpdateEnabled
        self.maintenance = maintenance
        self.maintenanceMessage = maintenanceMessage
        self.features = features
        self.notice = notice
        self.maxAgeSeconds = maxAgeSeconds
        self.configVersion = configVersion
    }

    public static let defaultForceUpdateMessage = "This version of the app is no longer supported. Update to continue."
    public static let defaultUpdateAvailableMessage = "A new version of the app is available with bug fixes and improvements."
    public static let defaultMaintenanceMessage = "We are doing some maintenance. Try again in a few minutes."
}
