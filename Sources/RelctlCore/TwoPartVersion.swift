/// How a team writes a prerelease's channel and counter after the version: `8.19-rc.2` (`.`, SemVer's way),
/// `8.19-rc-2` (`-`) or `8.19-rc2` (nothing). Read back from the team's own prerelease tags.
public struct PrereleaseSpelling: Hashable, Sendable {
    /// The text between the channel and its counter: `.`, `-` or empty.
    public let separator: String

    /// `rc.2`: SemVer's way, and relctl's when no tag shows another.
    public static let dotted = PrereleaseSpelling(separator: ".")

    public init(separator: String) { self.separator = separator }

    /// `rc.2`, `rc-2` or `rc2`.
    public func write(channel: String, number: UInt64) -> String { channel + separator + String(number) }

    /// The spelling and meaning of a prerelease text: `rc-2` → (`-`, [rc, 2]), `rc2` → (``, [rc, 2]), `rc.2` →
    /// (`.`, [rc, 2]); nil when the text is not a channel followed by a counter (`beta`, `rc.1.2`, `2`).
    public static func read(_ prerelease: String) -> (spelling: PrereleaseSpelling, identifiers: [PrereleaseIdentifier])? {
        let bytes = Array(prerelease.utf8)
        var end = bytes.count
        while end > 0, bytes[end - 1].isASCIIDigit { end -= 1 }
        guard end < bytes.count, end > 0, bytes.count - end <= 19,
              let number = UInt64(String(decoding: bytes[end...], as: UTF8.self)) else { return nil }
        var separator = ""
        var nameEnd = end
        if bytes[end - 1] == UInt8(ascii: ".") || bytes[end - 1] == UInt8(ascii: "-") {
            separator = String(UnicodeScalar(bytes[end - 1]))
            nameEnd -= 1
        }
        let name = bytes[..<nameEnd]
        guard !name.isEmpty, name.allSatisfy({ $0.isASCIILetter }) else { return nil }
        return (PrereleaseSpelling(separator: separator), [.alphanumeric(String(decoding: name, as: UTF8.self)), .numeric(number)])
    }
}

/// A two-part version, `MAJOR.MINOR` (`8.19`, `29.0`, `24.0`), as apps that never ship a third number write it;
/// with an optional prerelease written the team's way (`8.19-rc.2`, `8.19-rc-2`) and build metadata.
///
/// It is ordered as the stores read it (`8.19` is `8.19.0`), and bumped by the commits as SemVer bumps the same
/// numbers without the patch: a breaking change makes `9.0`, a feat or a fix `8.20` (a two-part app has no patch
/// number to move, and `8.19.1` is the three-part version it never writes).
public struct TwoPartVersion: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The version as written (`8.19-rc-2`).
    public let text: String
    /// The same numbers as a semantic version with patch 0 and the prerelease as SemVer identifiers (`8.19.0-rc.2`):
    /// what the bump rules, the maintenance ranges and the prerelease channels work on.
    public let semantic: SemanticVersion
    /// How the prerelease is written (`.` when there is none).
    public let spelling: PrereleaseSpelling

    public var major: UInt64 { semantic.major }
    public var minor: UInt64 { semantic.minor }
    public var isStable: Bool { semantic.isStable }
    public var description: String { text }

    /// Parses `MAJOR.MINOR[-prerelease][+metadata]`: two numbers without leading zeros, then SemVer identifiers.
    /// A prerelease of one identifier ending in a counter (`rc-2`, `rc2`) reads as the channel and its counter.
    public init?(_ text: String) {
        let parts = VersionParts(text)
        let numbers = parts.core.split(separator: ".", omittingEmptySubsequences: false)
        guard numbers.count == 2, numbers.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 19 && $0.isASCIIDigits && ($0 == "0" || $0.first != "0") }),
              let major = UInt64(numbers[0]), let minor = UInt64(numbers[1]) else { return nil }
        // The rest is checked by SemVer's own parser, on the same text with a patch number.
        var tail = parts.prerelease.map { "-" + $0 } ?? ""
        if let metadata = parts.metadata { tail += "+" + metadata }
        guard var semantic = SemanticVersion("\(major).\(minor).0" + tail) else { return nil }
        var spelling = PrereleaseSpelling.dotted
        if let pre = parts.prerelease, let read = PrereleaseSpelling.read(pre) {
            spelling = read.spelling
            semantic.prerelease = read.identifiers
        }
        self.text = text
        self.semantic = semantic
        self.spelling = spelling
    }

    /// The two-part version of `semantic`'s major and minor (its patch is dropped), its prerelease written with
    /// `spelling` when it is a channel and a counter.
    public init(_ semantic: SemanticVersion, spelling: PrereleaseSpelling = .dotted) {
        var text = "\(semantic.major).\(semantic.minor)"
        var core = semantic
        core.patch = 0
        if !semantic.prerelease.isEmpty {
            if semantic.prerelease.count == 2, case .alphanumeric(let channel) = semantic.prerelease[0],
               case .numeric(let number) = semantic.prerelease[1] {
                text += "-" + spelling.write(channel: channel, number: number)
            } else {
                text += "-" + semantic.prerelease.map(\.description).joined(separator: ".")
            }
        }
        if !semantic.build.isEmpty { text += "+" + semantic.build.joined(separator: ".") }
        self.text = text
        self.semantic = core
        self.spelling = spelling
    }

    public static func < (a: TwoPartVersion, b: TwoPartVersion) -> Bool { a.semantic < b.semantic }

    /// The bump a two-part version takes: a patch moves the minor (`8.19` → `8.20`), there being no third number.
    public static func bump(_ bump: Bump) -> Bump { bump == .patch ? .minor : bump }
}
