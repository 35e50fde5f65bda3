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

/// Maps versions to tag names and back: `v{version}`, `app-v{version}`, `{version}`, `{version}-ios`; and, for teams
/// whose tags carry the build number too, `v{version}.{build}` (`v1.7.0.4`: version 1.7.0, build 4),
/// `release/{version}/{build}` or `{version}-{build}` (`7.157.0-5`).
public struct TagFormat: Hashable, Sendable, CustomStringConvertible {
    public static let placeholder = "{version}"
    public static let buildPlaceholder = "{build}"

    /// The pattern, e.g. `v{version}`.
    public let pattern: String
    /// The text before `{version}`.
    public let prefix: String
    /// The text after `{version}` (after `{build}` when the format has one).
    public let suffix: String
    /// The text between `{version}` and `{build}`; nil when the format has no `{build}`.
    public let buildSeparator: String?

    /// `v{version}`.
    public static let `default` = TagFormat(prefix: "v", suffix: "", buildSeparator: nil)

    /// The text every tag of the format starts with, before any placeholder: what the tag listing filters on.
    public var literalPrefix: String { prefix }

    /// Whether the tags carry the build number (`{build}`).
    public var carriesBuild: Bool { buildSeparator != nil }

    /// Validates `pattern`: exactly one `{version}`, at most one `{build}` after it and apart from it, and no
    /// character git forbids in a ref name
    /// (`git check-ref-format`: whitespace, control characters, `~^:?*[\`, `..`, `@{`, `//`, a leading `-` or `/`,
    /// a trailing `.` or `/`, a component starting with `.` or ending with `.lock`, `@` alone).
    public init(_ pattern: String) throws(Problem) {
        /// Why `pattern` was rejected: `invalid tag format "<pattern>": <reason>`.
        func invalid(_ reason: String) -> Problem { Problem("invalid tag format \"\(pattern)\": \(reason)") }
        let parts = TagFormat.placeholderParts(pattern)
        guard parts.count == 2 else {
            throw invalid(parts.count < 2
                ? "missing \(TagFormat.placeholder) placeholder"
                : "more than one \(TagFormat.placeholder) placeholder")
        }
        let prefix = parts[0]
        var suffix = parts[1]
        var separator: String?
        if TagFormat.placeholderParts(prefix, TagFormat.buildPlaceholder).count > 1 {
            throw invalid("\(TagFormat.buildPlaceholder) must come after \(TagFormat.placeholder), e.g. \"v{version}.{build}\"")
        }
        let around = TagFormat.placeholderParts(suffix, TagFormat.buildPlaceholder)
        if around.count > 1 {
            guard around.count == 2 else {
                throw invalid("more than one \(TagFormat.buildPlaceholder) placeholder")
            }
            guard !around[0].isEmpty, !around[0].contains(where: \.isNumber) else {
                throw invalid("\(TagFormat.buildPlaceholder) needs a separator after \(TagFormat.placeholder) that holds no digit, e.g. \"v{version}.{build}\", \"{version}-{build}\" or \"release/{version}/{build}\"")
            }
            separator = around[0]
            suffix = around[1]
        }
        if let problem = TagFormat.refNameProblem(prefix + "0.0.0" + (separator.map { $0 + "1" } ?? "") + suffix) {
            throw invalid(problem)
        }
        self.init(prefix: prefix, suffix: suffix, buildSeparator: separator)
    }

    /// `pattern` split at each `{version}`, as `split(separator: "{version}", omittingEmptySubsequences: false)`
    /// splits it. An ASCII pattern (every tag format in practice) is split byte-wise, where a `Character` is a byte:
    /// the string searcher of `_StringProcessing` costs the Swift runtime three protocol conformance scans of the
    /// binary (a million instructions) on every command.
    static func placeholderParts(_ pattern: String, _ placeholder: String = TagFormat.placeholder) -> [String] {
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

    private init(prefix: String, suffix: String, buildSeparator: String?) {
        self.pattern = prefix + TagFormat.placeholder + (buildSeparator.map { $0 + TagFormat.buildPlaceholder } ?? "") + suffix
        self.prefix = prefix
        self.suffix = suffix
        self.buildSeparator = buildSeparator
    }

    /// The tag name of `version`, e.g. `v1.2.3`; with `{build}`, `build` in its place (`v1.7.0.4`).
    public func tagName(for version: SemanticVersion, build: String? = nil) -> String {
        tagName(text: version.description, build: build)
    }

    private func tagName(text: String, build: String?) -> String {
        guard let buildSeparator else { return prefix + text + suffix }
        return prefix + text + buildSeparator + (build ?? TagFormat.buildPlaceholder) + suffix
    }

    /// The version in tag `name`; `nil` when the name does not match the pattern or the part
    /// in place of `{version}` is not a strict SemVer 2.0.0 version (so `vv1.2.3` does not match `v{version}`).
    public func version(fromTag name: String) -> SemanticVersion? {
        versionText(fromTag: name).flatMap(SemanticVersion.init)
    }

    /// The tag name of a version of any scheme, e.g. `v2026.8.0-bwpm` for `v{version}-bwpm`; with `{build}`,
    /// `build` in its place (without one, the placeholder stays: a name for messages, not a tag to create).
    public func tagName(for version: ReleaseVersion, build: String? = nil) -> String {
        tagName(text: version.description, build: build)
    }

    /// The text in place of `{version}` in tag `name`, unparsed; nil when the name does not match the pattern.
    /// The suffix is removed first, so with `v{version}-bwpm` the tag `v2026.8.0-bwpm` holds `2026.8.0` (a
    /// stable version), and `v2026.8.0-beta.1-bwpm` holds the prerelease `2026.8.0-beta.1`. With `{build}`, the
    /// build number is cut off at the last separator (`v1.7.0.4` holds `1.7.0`; see ``parts(fromTag:)``).
    public func versionText(fromTag name: String) -> String? {
        guard buildSeparator != nil else { return wholeText(fromTag: name) }
        return parts(fromTag: name)?.version
    }

    /// The version text and the build number in tag `name`: (`1.7.0`, `4`) in `v1.7.0.4` under `v{version}.{build}`,
    /// (`2026.7.0`, `2026.2208`) in `release/2026.7.0/2026.2208` under `release/{version}/{build}`. The build is the
    /// text after the last separator, digits (and dots, when the separator is not a dot); nil when the name does not
    /// match. Without `{build}` in the format, the whole text and no build.
    public func parts(fromTag name: String) -> (version: String, build: String?)? {
        guard let text = wholeText(fromTag: name) else { return nil }
        guard let separator = buildSeparator else { return (text, nil) }
        let bytes = Array(text.utf8), sep = Array(separator.utf8)
        guard bytes.count > sep.count else { return nil }
        var start = bytes.count - sep.count
        while start > 0 {
            if bytes[start..<(start + sep.count)].elementsEqual(sep) { break }
            start -= 1
        }
        guard start > 0 else { return nil }
        let build = bytes[(start + sep.count)...]
        let dotted = !sep.contains(UInt8(ascii: "."))
        guard !build.isEmpty, build.first!.isASCIIDigit, build.last!.isASCIIDigit,
              build.allSatisfy({ $0.isASCIIDigit || (dotted && $0 == UInt8(ascii: ".")) }),
              !build.indices.contains(where: { build[$0] == UInt8(ascii: ".") && build[$0 + 1] == UInt8(ascii: ".") }) else { return nil }
        return (String(decoding: bytes[..<start], as: UTF8.self), String(decoding: build, as: UTF8.self))
    }

    /// The text between the prefix and the suffix of tag `name`, build and all (`1.6.0` in `v1.6.0`, a tag made
    /// before the team put builds in its tags); nil when the name does not match.
    public func textIgnoringBuild(fromTag name: String) -> String? { wholeText(fromTag: name) }

    private func wholeText(fromTag name: String) -> String? {
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
