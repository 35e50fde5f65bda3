/// The app's identity as sent on every API call: `X-App-Version: 1.9.96+283`, `X-App-Build`, `X-App-Platform`.
public struct GateAppHeaders: Sendable, Hashable {
    public static let versionHeader = "X-App-Version"
    public static let buildHeader = "X-App-Build"
    public static let platformHeader = "X-App-Platform"

    /// `X-App-Version` as sent (`nil` when missing).
    public var version: String?
    /// `X-App-Build`, or the `+build` part of `X-App-Version` when there is no such header.
    public var build: String?
    /// `X-App-Platform`, lowercased.
    public var platform: GatePlatform?

    public init(version: String?, build: String? = nil, platform: GatePlatform? = nil) {
        self.version = version
        self.build = build ?? version.flatMap { GateVersion($0).build }
        self.platform = platform
    }

    /// Reads the three headers through `value`, which the server answers for a header name (HTTP header names
    /// are case-insensitive: pass your framework's case-insensitive lookup). Empty values count as missing.
    public init(value: (String) -> String?) {
        func header(_ name: String) -> String? {
            guard let text = value(name) else { return nil }
            let trimmed = GateText.trimmed(text)
            return trimmed.isEmpty ? nil : trimmed
        }
        self.init(
            version: header(GateAppHeaders.versionHeader), build: header(GateAppHeaders.buildHeader),
            platform: header(GateAppHeaders.platformHeader).map { GatePlatform($0) })
    }

    /// Reads the three headers from name/value pairs, names compared without regard to case (the first of a
    /// repeated header wins).
    public init(headers: [(name: String, value: String)]) {
        self.init { wanted in
            let lowered = GateText.asciiLowercased(wanted)
            return headers.first { GateText.asciiLowercased($0.name) == lowered }?.value
        }
    }

    /// Reads the three headers from a dictionary, names compared without regard to case.
    public init(headers: [String: String]) {
        self.init(headers: headers.map { (name: $0.key, value: $0.value) }.sorted { $0.name < $1.name })
    }
}
