/// A logical field of the gate document. Its raw value is the name used in `keys` of `.relctl.json` and,
/// unchanged, the plain `json` document's default key.
public enum GateField: String, Sendable, Hashable, CaseIterable, Codable {
    case minimumSupportedVersion
    case latestVersion
    case forceUpdateMessage
    case updateAvailableMessage
    case maintenanceMessage
    case iosStoreUrl
    case androidStoreUrl
    case androidNativeUpdateEnabled
    case maintenance
    case features
    case notice
    case maxAgeSeconds
    case configVersion
    /// `json` only: the object whose members, named after platform conditions, hold per-platform values.
    case platforms

    /// The field holding the store URL of `platform`: only iOS and Android have one.
    public static func storeURL(for platform: GatePlatform) -> GateField? {
        switch platform {
        case .ios: return .iosStoreUrl
        case .android: return .androidStoreUrl
        default: return nil
        }
    }
}
