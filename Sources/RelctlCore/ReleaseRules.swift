/// How commits translate into a version bump.
public struct ReleaseRules: Hashable, Sendable {
    /// The bump for each commit type. Keys are lowercased by ``init(bumpForType:majorOnZero:ignoreMerges:ignoreFixups:)``;
    /// types without an entry bump nothing. Breaking changes always bump `.major` whatever this says.
    public var bumpForType: [String: Bump]
    /// On `0.x` versions, let a breaking change release `1.0.0` instead of the next minor.
    public var majorOnZero: Bool
    /// Skip commits with more than one parent.
    public var ignoreMerges: Bool
    /// Skip `fixup!`, `squash!` and `amend!` commits.
    public var ignoreFixups: Bool

    /// `feat` → minor, `fix` and `perf` → patch.
    public static let defaultBumpForType: [String: Bump] = ["feat": .minor, "fix": .patch, "perf": .patch]

    public static let `default` = ReleaseRules()

    /// Keys of `bumpForType` are lowercased; when two keys differ only by case the larger bump wins.
    public init(bumpForType: [String: Bump] = ReleaseRules.defaultBumpForType,
                majorOnZero: Bool = false, ignoreMerges: Bool = true, ignoreFixups: Bool = true) {
        self.bumpForType = Dictionary(bumpForType.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: max)
        self.majorOnZero = majorOnZero
        self.ignoreMerges = ignoreMerges
        self.ignoreFixups = ignoreFixups
    }

    /// The configured bump for a commit type, compared case-insensitively; `.none` when absent.
    public func bump(forType type: String) -> Bump {
        let key = type.lowercased()
        if let bump = bumpForType[key] { return bump }
        // `bumpForType` is a public var: tolerate keys that were not lowercased.
        return bumpForType.lazy.filter { $0.key.lowercased() == key }.map(\.value).max() ?? .none
    }

    /// The bump of a conventional message: `.major` when breaking, else the rule for its type.
    public func bump(for message: ConventionalMessage) -> Bump {
        message.isBreaking ? .major : bump(forType: message.type)
    }
}

/// Turns a bump into the next version.
public enum VersionPolicy {
    /// The next version, or `nil` when no release is due.
    ///
    /// - With a `current` version: `nil` when the effective bump (see ``effectiveBump(current:bump:majorOnZero:)``)
    ///   is `.none` or would overflow a component, else `current` bumped by it (pre-release and build metadata are dropped,
    ///   see ``SemanticVersion/bumped(_:)``).
    /// - Without a `current` version (nothing released yet): `initialVersion` as is, whatever
    ///   `bump` is, including `.none`. The first release happens as soon as there is at least one
    ///   commit in range; checking that the range is not empty is the caller's job, this
    ///   function does not see the commits.
    public static func next(current: SemanticVersion?, bump: Bump, initialVersion: SemanticVersion,
                            majorOnZero: Bool) -> SemanticVersion? {
        guard let current else { return initialVersion }
        let effective = effectiveBump(current: current, bump: bump, majorOnZero: majorOnZero)
        guard effective != .none else { return nil }
        return current.checkedBumped(effective)   // nil when a component is already at its maximum
    }

    /// The bump actually applied to `current`: on `0.x`, `.major` becomes `.minor` unless
    /// `majorOnZero` (then `0.x` bumps to `1.0.0`). Other bumps, `1.x+` versions and a missing
    /// current version are left unchanged.
    public static func effectiveBump(current: SemanticVersion?, bump: Bump, majorOnZero: Bool) -> Bump {
        if let current, current.major == 0, bump == .major, !majorOnZero { return .minor }
        return bump
    }
}

/// Why a tag pattern was rejected.
public struct TagFormatError: Diagnostic, Sendable, Equatable {
    public let pattern: String
    public let reason: String

    public init(pattern: String, reason: String) {
        self.pattern = pattern
        self.reason = reason
    }

    public var message: String { "invalid tag format \"\(pattern)\": \(reason)" }
    public var description: String { message }
}

/// Maps versions to tag names and back: `v{version}`, `app-v{version}`, `{version}`, `{version}-ios`.
public struct TagFormat: Hashable, Sendable, CustomStringConvertible {
    public static let placeholder = "{version}"

    /// The pattern, e.g. `v{version}`.
    public let pattern: String
    /// The text before `{version}`.
    public let prefix: String
    /// The text after `{version}`.
    public let suffix: String

    /// `v{version}`.
    public static let `default` = TagFormat(prefix: "v", suffix: "")

    /// Validates `pattern`: exactly one `{version}`, and no character git forbids in a ref name
    /// (`git check-ref-format`: whitespace, control characters, `~^:?*[\`, `..`, `@{`, `//`, a leading `-` or `/`,
    /// a trailing `.` or `/`, a component starting with `.` or ending with `.lock`, `@` alone).
    public init(_ pattern: String) throws(TagFormatError) {
        let parts = TagFormat.placeholderParts(pattern)
        guard parts.count == 2 else {
            throw TagFormatError(pattern: pattern, reason: parts.count < 2
                ? "missing \(TagFormat.placeholder) placeholder"
                : "more than one \(TagFormat.placeholder) placeholder")
        }
        let prefix = parts[0]
        let suffix = parts[1]
        if let problem = TagFormat.refNameProblem(prefix + "0.0.0" + suffix) {
            throw TagFormatError(pattern: pattern, reason: problem)
        }
        self.init(prefix: prefix, suffix: suffix)
    }

    /// `pattern` split at each `{version}`, as `split(separator: "{version}", omittingEmptySubsequences: false)`
    /// splits it. An ASCII pattern (every tag format in practice) is split byte-wise, where a `Character` is a byte:
    /// the string searcher of `_StringProcessing` costs the Swift runtime three protocol conformance scans of the
    /// binary (a million instructions) on every command.
    static func placeholderParts(_ pattern: String) -> [String] {
        guard pattern.utf8.allSatisfy({ $0 < 0x80 }) else {
            return pattern.split(separator: placeholder, omittingEmptySubsequences: false).map(String.init)
        }
        let bytes = Array(pattern.utf8), needle = Array(placeholder.utf8)
        var parts: [String] = []
        var start = 0, index = 0
        while index + needle.count <= bytes.count {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) {
                parts.append(String(decoding: bytes[start..<index], as: UTF8.self))
                index += needle.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(String(decoding: bytes[start...], as: UTF8.self))
        return parts
    }

    private init(prefix: String, suffix: String) {
        self.pattern = prefix + TagFormat.placeholder + suffix
        self.prefix = prefix
        self.suffix = suffix
    }

    /// The tag name of `version`, e.g. `v1.2.3`.
    public func tagName(for version: SemanticVersion) -> String {
        prefix + version.description + suffix
    }

    /// The version in tag `name`; `nil` when the name does not match the pattern or the part
    /// in place of `{version}` is not a strict SemVer 2.0.0 version (so `vv1.2.3` does not match `v{version}`).
    public func version(fromTag name: String) -> SemanticVersion? {
        versionText(fromTag: name).flatMap(SemanticVersion.init)
    }

    /// The tag name of a version of any scheme, e.g. `v2026.8.0-bwpm` for `v{version}-bwpm`.
    public func tagName(for version: ReleaseVersion) -> String {
        prefix + version.description + suffix
    }

    /// The text in place of `{version}` in tag `name`, unparsed; nil when the name does not match the pattern.
    /// The suffix is removed first, so with `v{version}-bwpm` the tag `v2026.8.0-bwpm` holds `2026.8.0` (a
    /// stable version), and `v2026.8.0-beta.1-bwpm` holds the prerelease `2026.8.0-beta.1`.
    public func versionText(fromTag name: String) -> String? {
        let bytes = name.utf8
        let prefixBytes = prefix.utf8
        let suffixBytes = suffix.utf8
        guard bytes.count > prefixBytes.count + suffixBytes.count,
              bytes.starts(with: prefixBytes),
              suffixBytes.isEmpty || bytes.suffix(suffixBytes.count).elementsEqual(suffixBytes) else { return nil }
        let start = bytes.index(bytes.startIndex, offsetBy: prefixBytes.count)
        let end = bytes.index(bytes.endIndex, offsetBy: -suffixBytes.count)
        // Both ends are on scalar boundaries (whole UTF-8 prefix and suffix): a copy, no re-validation.
        return String(Substring(bytes[start..<end]))
    }

    /// The version in tag `name` under `scheme`; nil when the name does not match or the text is not a version.
    public func version(fromTag name: String, scheme: VersionScheme) -> ReleaseVersion? {
        versionText(fromTag: name).flatMap(scheme.parse)
    }

    public var description: String { pattern }

    /// A reason `name` is not a valid git tag name (`git check-ref-format`), or `nil`.
    private static func refNameProblem(_ name: String) -> String? {
        for scalar in name.unicodeScalars {
            // git refuses C0 and DEL; relctl refuses the C1 controls too (U+009B starts a terminal sequence).
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return "control character in tag name" }
            if scalar == " " { return "space in tag name" }
            if "~^:?*[\\".unicodeScalars.contains(scalar) { return "character \"\(scalar)\" is not allowed in tag names" }
        }
        if name.contains("..") { return "\"..\" is not allowed in tag names" }
        if name.contains("@{") { return "\"@{\" is not allowed in tag names" }
        if name.contains("//") { return "\"//\" is not allowed in tag names" }
        if name.hasPrefix("-") || name.hasPrefix("/") { return "tag names cannot start with \"\(name.first!)\"" }
        if name.hasSuffix(".") || name.hasSuffix("/") { return "tag names cannot end with \"\(name.last!)\"" }
        if name.hasSuffix(".lock") { return "tag names cannot end with \".lock\"" }
        if name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { return "a tag name component cannot start with \".\"" }
        if name.split(separator: "/").contains(where: { $0.hasSuffix(".lock") }) { return "a tag name component cannot end with \".lock\"" }
        if name == "@" { return "\"@\" alone is not a tag name" }
        return nil
    }
}
