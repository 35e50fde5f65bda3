/// A prerelease channel (`alpha`, `beta`, `rc`, `internal` …): the first prerelease identifier of the versions it
/// ships, `1.3.0-beta.2`. Each channel counts on its own; channels order by SemVer (`alpha` < `beta` < `rc`).
public struct ReleaseChannel: Hashable, Sendable, CustomStringConvertible {
    public let name: String

    /// A channel name is one SemVer prerelease identifier that is not a number: ASCII letters, digits and `-`,
    /// at least one letter or `-` (a numeric identifier would sort below every named one).
    public init?(_ name: String) {
        guard !name.isEmpty, name.utf8.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "-") }),
              !name.isASCIIDigits else { return nil }
        self.name = name
    }

    public var description: String { name }

    /// `core-<channel>.<number>`: `1.3.0-beta.2`.
    public func version(core: SemanticVersion, number: UInt64) -> SemanticVersion {
        SemanticVersion(major: core.major, minor: core.minor, patch: core.patch,
                        prerelease: [.alphanumeric(name), .numeric(number)])
    }

    /// The counter of `version` when it is a prerelease of this channel on `core` (`1.3.0-beta.2` → 2); nil for
    /// another core, another channel, or another shape (`1.3.0-beta`, `1.3.0-beta.2.1`).
    public func number(of version: SemanticVersion, core: SemanticVersion) -> UInt64? {
        guard version.major == core.major, version.minor == core.minor, version.patch == core.patch,
              version.prerelease.count == 2, version.prerelease[0] == .alphanumeric(name),
              case .numeric(let number) = version.prerelease[1] else { return nil }
        return number
    }

    /// The next counter on `core` given the versions already tagged: one more than the highest of this channel, 1
    /// when there is none.
    public func nextNumber(core: SemanticVersion, tagged: [SemanticVersion]) -> UInt64 {
        (tagged.compactMap { number(of: $0, core: core) }.max() ?? 0) + 1
    }
}
