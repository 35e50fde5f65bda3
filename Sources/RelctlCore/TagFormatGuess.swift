/// The `tagFormat` a repository's existing release tags follow, when it is not relctl's default: an app tagging
/// `2.1.3` (`{version}`), `stable-3.30.0` (`stable-{version}`) or `v2026.8.0-bwpm` (`v{version}-bwpm`).
///
/// Each tag is split around its first run of two or more dot-separated numbers; a tag whose other text holds a
/// digit (`release/2026.7.0/2026.2208`, `rc-3.30.0-03`, `dev-20260821`) has no format relctl can write. The format
/// with the most tags holding a stable version of the scheme wins (one stray tag is no format); a tie (two products
/// tagged `-a` and `-b` as often) is not guessed between.
public struct TagFormatGuess: Sendable, Equatable {
    /// The winning format, e.g. `{version}`.
    public var pattern: String
    /// Its tags, highest version first.
    public var tags: [String]

    /// The formats that tie for the most tags, with their tags; empty when there are no release-looking tags, one
    /// element when the guess is clear.
    public static func candidates(tagNames: [String], scheme: VersionScheme) -> [TagFormatGuess] {
        var byFormat: [String: [(tag: String, version: ReleaseVersion)]] = [:]
        for name in tagNames {
            guard let (pattern, text) = formatAndVersion(name), let version = scheme.parse(text), version.isStable,
                  (try? TagFormat(pattern)) != nil else { continue }
            byFormat[pattern, default: []].append((name, version))
        }
        // One stray tag (`2024.9.4` among `release/…` tags) is no format.
        byFormat = byFormat.filter { $0.value.count > 1 }
        // Tags of test builds (`testflight/2026.7.3/2546`, `internal-4.16.0`, `beta-…`) are not the releases when
        // tags of another format are there.
        let releases = byFormat.filter { !namesTestBuilds($0.key) }
        if !releases.isEmpty { byFormat = releases }
        guard let most = byFormat.values.map(\.count).max() else { return [] }
        return byFormat.filter { $0.value.count == most }.sorted { $0.key < $1.key }.map { pattern, found in
            let tags = found.sorted { a, b in b.version < a.version || (!(a.version < b.version) && a.tag < b.tag) }
            return TagFormatGuess(pattern: pattern, tags: tags.map(\.tag))
        }
    }

    /// Words that name a test build's tags rather than a release's.
    static let testBuildWords = ["testflight", "beta", "alpha", "internal", "nightly", "canary", "preview", "staging",
                                 "snapshot", "dev", "qa", "rc", "test"]

    /// Whether the text around `{version}` in `pattern` names test builds (`testflight/{version}/{build}`).
    public static func namesTestBuilds(_ pattern: String) -> Bool {
        let words = pattern.lowercased().split { !$0.isLetter }
        return words.contains { word in testBuildWords.contains(String(word)) }
    }

    /// The format of tag `name` and the version text in it: `{version}`-only formats as ``split(_:)`` finds them,
    /// and formats carrying a build number after the version, `release/{version}/{build}` for
    /// `release/2026.7.0/2026.2208` or `{version}-{build}` for `7.157.0-5` (a separator without digits, the build
    /// of digits and dots, nothing with a digit after it); nil for any other tag.
    public static func formatAndVersion(_ name: String) -> (pattern: String, version: String)? {
        if let (prefix, text, suffix) = split(name) { return (prefix + TagFormat.placeholder + suffix, text) }
        let chars = Array(name)
        guard let first = chars.firstIndex(where: \.isASCIIDigit), !chars[..<first].contains(where: \.isNumber) else { return nil }
        var end = first
        while end < chars.count, chars[end].isASCIIDigit || (chars[end] == "." && end + 1 < chars.count && chars[end + 1].isASCIIDigit) { end += 1 }
        guard chars[first..<end].contains(".") else { return nil }
        // The separator: text without digits, then the build: digits and dots, then text without digits.
        var buildStart = end
        while buildStart < chars.count, !chars[buildStart].isNumber { buildStart += 1 }
        guard buildStart > end, buildStart < chars.count, chars[buildStart].isASCIIDigit else { return nil }
        var buildEnd = buildStart
        while buildEnd < chars.count, chars[buildEnd].isASCIIDigit || (chars[buildEnd] == "." && buildEnd + 1 < chars.count && chars[buildEnd + 1].isASCIIDigit) { buildEnd += 1 }
        guard !chars[buildEnd...].contains(where: \.isNumber) else { return nil }
        let separator = String(chars[end..<buildStart])
        // A dot after the version would be part of it (`v1.7.0.4` is read as one version): only other separators.
        // `-rc.18`, `-beta.2` are prereleases of the version, not a build after it.
        guard !separator.contains(".") || separator.count > 1,
              !(separator.hasPrefix("-") && separator.contains(where: \.isLetter)) else { return nil }
        let pattern = String(chars[..<first]) + TagFormat.placeholder + separator + TagFormat.buildPlaceholder + String(chars[buildEnd...])
        return (pattern, String(chars[first..<end]))
    }

    /// `stable-3.30.0` → (`stable-`, `3.30.0`, ``); nil without a dotted number, or with a digit around it.
    public static func split(_ name: String) -> (prefix: String, version: String, suffix: String)? {
        let chars = Array(name)
        var i = 0
        while i < chars.count {
            guard chars[i].isASCIIDigit else { i += 1; continue }
            var j = i
            var dots = 0
            while j < chars.count, chars[j].isASCIIDigit || (chars[j] == "." && j + 1 < chars.count && chars[j + 1].isASCIIDigit) {
                if chars[j] == "." { dots += 1 }
                j += 1
            }
            guard dots > 0 else { return nil }
            let prefix = String(chars[..<i])
            let suffix = String(chars[j...])
            guard !prefix.contains(where: \.isNumber), !suffix.contains(where: \.isNumber) else { return nil }
            return (prefix, String(chars[i..<j]), suffix)
        }
        return nil
    }
}
