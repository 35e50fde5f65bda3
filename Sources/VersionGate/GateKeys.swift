/// The document's key name for each logical field: the format's defaults, some of them renamed.
public struct GateKeys: Sendable, Hashable {
    private var names: [GateField: String]

    /// The default names of `format`, with `overrides` (logical field → key name) applied.
    public init(format: GateDocumentFormat, overrides: [GateField: String] = [:]) {
        names = format == .firebase ? GateKeys.firebaseDefaults : GateKeys.jsonDefaults
        names.merge(overrides) { $1 }
    }

    /// The key name of `field`, or `nil` when the format has no such key (`platforms` in a Firebase template).
    public func name(for field: GateField) -> String? {
        names[field]
    }

    /// The Firebase defaults: the seven `vendor_` keys, plus optional ones in the same style. The prefix
    /// keeps several apps' keys apart in one Firebase project.
    public static let firebaseDefaults: [GateField: String] = [
        .minimumSupportedVersion: "vendor_min_supported_version",
        .latestVersion: "vendor_latest_version",
        .forceUpdateMessage: "vendor_force_update_message",
        .updateAvailableMessage: "vendor_update_available_message",
        .iosStoreUrl: "vendor_ios_store_url",
        .androidStoreUrl: "vendor_android_store_url",
        .androidNativeUpdateEnabled: "vendor_android_native_update_enabled",
        .maintenance: "vendor_maintenance",
        .maintenanceMessage: "vendor_maintenance_message",
        .features: "vendor_features",
        .notice: "vendor_notice",
        .maxAgeSeconds: "vendor_max_age_seconds",
        .configVersion: "vendor_config_version",
    ]

    /// The plain JSON defaults: each field's own name.
    public static let jsonDefaults: [GateField: String] = Dictionary(
        uniqueKeysWithValues: GateField.allCases.map { ($0, $0.rawValue) })
}
