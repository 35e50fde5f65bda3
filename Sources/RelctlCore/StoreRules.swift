/// The app stores whose version rules relctl checks.
public enum StorePlatform: String, Sendable, Hashable, CaseIterable {
    case ios, android
}
