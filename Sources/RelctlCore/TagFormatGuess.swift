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
            guard let (prefix, text, suffix) = split(name), let version = scheme.parse(text), version.isStable,
                  (try? TagFormat(prefix + TagFormat.placeholder + suffix)) != nil else { continue }
            byFormat[prefix + TagFormat.placeholder + suffix, default: []].append((name, version))
        }
        // One stray tag (`2024.9.4` among `release/…` tags) is no format.
        byFormat = byFormat.filter { $0.value.count > 1 }
        guard let most = byFormat.values.map(\.count).max() else { return [] }
        return byFormat.filter { $0.value.count == most }.sorted { $0.key < $1.key }.map { pattern, found in
            let tags = found.sorted { a, b in b.version < a.version || (!(a.version < b.version) && a.tag < b.tag) }
            return TagFormatGuess(pattern: pattern, tags: tags.map(\.tag))
        }
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
