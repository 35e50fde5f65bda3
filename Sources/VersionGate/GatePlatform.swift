/// The platform an app runs on, as sent in `X-App-Platform` and used to pick per-platform values.
///
/// Stored lowercased, so `iOS`, `ios` and `IOS` are the same platform. Any name is allowed (`web`,
/// `macos`); only ``ios`` and ``android`` have store URL fields and default condition names.
public struct GatePlatform: Sendable, Hashable, RawRepresentable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = GateText.asciiLowercased(GateText.trimmed(rawValue))
    }

    public init(_ name: String) {
        self.init(rawValue: name)
    }

    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    public static let ios = GatePlatform(rawValue: "ios")
    public static let android = GatePlatform(rawValue: "android")

    public var description: String { rawValue }
}
