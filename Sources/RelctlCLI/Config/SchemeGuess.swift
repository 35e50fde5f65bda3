import RelctlCore
import RelctlFiles
import RelctlGit

/// The `versionScheme` `relctl init` proposes, from the version the files hold and the release tags: semver for
/// `1.4.2`, `major.minor` for `8.19`, a calendar scheme for `2024.11` or `2024.11.3` (`YYYY.M`, `YYYY.0M.MICRO`…),
/// with the reason. So an app numbered by date is not configured as semver and then told "the next version 1.5.3
/// is lower than 2024.11".
struct SchemeGuess {
    /// The scheme; nil: semver, relctl's default (no key written).
    var scheme: VersionScheme?
    /// Why, for a note; nil for semver.
    var note: String?
    /// The tagFormat the tags follow in that scheme, with its note, when the scheme is not semver (init's own guess
    /// reads the tags as semver).
    var tagFormat: (pattern: String, note: String?)?

    /// The guess for the files `current` holds and the repository's tag names.
    static func guess(tagNames names: [String], current: CurrentVersions?) -> SchemeGuess {
        // The app's own version (not an extension left at Xcode's `1.0`): what the version floor holds.
        let held = current.flatMap { VersionFloor($0).held?.value }.map { [$0] } ?? []
        return guess(held: held, tagNames: names)
    }

    /// The guess from the marketing versions the files hold (`held`) and every tag name. The files decide (they hold
    /// what the next release writes); with no version in the files, the release tags do.
    static func guess(held: [String], tagNames: [String]) -> SchemeGuess {
        let tagged = tagNames.compactMap { name -> (tag: String, text: String)? in
            guard let (_, text, _) = TagFormatGuess.split(name), VersionOrder.isNumeric(text) else { return nil }
            return (name, text)
        }.sorted { VersionOrder.compare($0.text, $1.text) == .orderedDescending }
        // Xcode's template version with no release yet says nothing about how the team numbers versions.
        if tagged.isEmpty, held.allSatisfy({ $0 == "1.0" }) { return SchemeGuess() }
        let evidence = held.isEmpty ? tagged.prefix(20).map(\.text) : held
        guard let highest = evidence.max(by: { VersionOrder.compare($0, $1) == .orderedAscending }),
              let scheme = scheme(for: highest, others: evidence + tagged.prefix(20).map(\.text)), scheme != .semver else {
            return SchemeGuess(tagFormat: buildTagFormat(held: held, tagNames: tagNames))
        }
        let sameShape = tagged.filter { scheme.parse($0.text) != nil }.map(\.tag)
        var why = held.isEmpty ? "the release tags hold \(highest)" : "the files hold \(highest)"
        if !held.isEmpty, !sameShape.isEmpty { why += " and the tags \(BaseCheck.tagList(sameShape)) are written the same way" }
        else if held.isEmpty, sameShape.count > 1 { why = "the release tags \(BaseCheck.tagList(sameShape)) are written that way" }
        let kind: String
        switch scheme {
        case .majorMinor: kind = "two numbers, MAJOR.MINOR: a feat or a fix releases \(bumped(highest)), a breaking change the next major"
        case .calendar(let calendar): kind = "a date, \(calendar.pattern): the release date numbers the version"
        case .semver: kind = ""
        }
        var guess = SchemeGuess(scheme: scheme, note: "versionScheme \"\(scheme)\" (\(kind)), as \(why); change it in \(Config.fileName) if the app numbers versions otherwise")
        let standard = Config().tagFormat
        if let build = buildTagFormat(held: held, tagNames: tagNames) {
            guess.tagFormat = build
        } else if let format = try? TagFormat(standard) {
            let base = tagNames.compactMap { format.version(fromTag: $0, scheme: scheme) }.filter(\.isStable).max()
            let others = OtherTagFormats.find(tagNames: tagNames, tagFormat: standard, scheme: scheme, base: base)
            if let first = others.guesses.first {
                guess.tagFormat = others.guesses.count > 1
                    ? (standard, "kept tagFormat \"\(standard)\": " + (others.fix(configPath: Config.fileName) ?? ""))
                    : (first.pattern, "tagFormat \"\(first.pattern)\" follows the release tags \(BaseCheck.tagList(first.tags))")
            }
        }
        return guess
    }

    /// The scheme `text` is written in: a four-digit year first (2000…2200) is a calendar version (its month
    /// zero-padded when any version pads it, then a counter); otherwise two numbers are `major.minor`, three semver.
    /// nil for other shapes (four numbers: a build in the version, left to the user).
    static func scheme(for text: String, others: [String]) -> VersionScheme? {
        let core = VersionParts(text).core
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        guard let numbers = VersionOrder.numbers(core), (2...3).contains(numbers.count) else { return nil }
        if (2000...2200).contains(numbers[0]), parts[0].count == 4, (1...12).contains(numbers[1]) {
            let padded = ([text] + others).contains { other in
                let second = VersionParts(other).core.split(separator: ".").dropFirst().first
                return second.map { $0.count == 2 && $0.first == "0" } ?? false
            }
            let tokens = ["YYYY", padded ? "0M" : "M"] + (numbers.count == 3 ? ["MICRO"] : [])
            return try? VersionScheme(tokens.joined(separator: "."))
        }
        return numbers.count == 2 ? .majorMinor : .semver
    }

    /// A tagFormat with `{build}` when the release tags carry the build number after a three-number version, one
    /// of them the version the files hold: `v1.7.0.4` → `v{version}.{build}`, `7.157.0-5` → `{version}-{build}`,
    /// `release/2026.7.0/2026.2208` → `release/{version}/{build}`; with its note. Nil otherwise.
    static func buildTagFormat(held: [String], tagNames: [String]) -> (pattern: String, note: String?)? {
        let versions = Set(held.map { VersionParts($0).core })
        var byFormat: [String: [(tag: String, version: String, numbers: [UInt64])]] = [:]
        for name in tagNames {
            guard let (prefix, version, separator, build, suffix) = buildTagParts(name),
                  let numbers = VersionOrder.numbers(version), let builds = VersionOrder.numbers(build) else { continue }
            byFormat[prefix + TagFormat.placeholder + separator + TagFormat.buildPlaceholder + suffix, default: []]
                .append((name, version, numbers + builds))
        }
        var formats = byFormat.filter { $0.value.count > 1 }
        // Test builds' tags (`5.246.0.7-nightly`, `testflight/…`) give way to any other format.
        if formats.contains(where: { !TagFormatGuess.namesTestBuilds($0.key) }) { formats = formats.filter { !TagFormatGuess.namesTestBuilds($0.key) } }
        guard let (pattern, tags) = formats.max(by: { $0.value.count < $1.value.count }),
              tags.contains(where: { versions.contains($0.version) }),
              (try? TagFormat(pattern)) != nil else { return nil }
        let sorted = tags.sorted { $0.numbers.lexicographicallyPrecedes($1.numbers) }.reversed().map(\.tag)
        return (pattern, "tagFormat \"\(pattern)\": the release tags \(BaseCheck.tagList(Array(sorted))) carry the build number after the version the files hold")
    }

    /// `v1.7.0.4` → (`v`, `1.7.0`, `.`, `4`, ``); `release/2026.7.0/2026.2208` → (`release/`, `2026.7.0`, `/`,
    /// `2026.2208`, ``): text without digits, three dot-separated numbers, a separator without digits (a dot alone
    /// before a number) and without letters, the build (numbers, dotted unless the separator is a dot), text
    /// without digits.
    static func buildTagParts(_ name: String) -> (String, String, String, String, String)? {
        let chars = Array(name)
        var i = 0
        func run(_ accept: (Character) -> Bool) -> String {
            let start = i
            while i < chars.count, accept(chars[i]) { i += 1 }
            return String(chars[start..<i])
        }
        let prefix = run { !$0.isASCIIDigit }
        let version = run { $0.isASCIIDigit || $0 == "." }
        var numbers = version.split(separator: ".", omittingEmptySubsequences: false)
        var separator = ""
        var build = ""
        if numbers.count == 4, version.last != "." {
            // `1.7.0.4`: the fourth number is the build.
            build = String(numbers.removeLast())
            separator = "."
        } else {
            var version = version
            if version.hasSuffix(".") { version.removeLast(); i -= 1 }
            numbers = version.split(separator: ".", omittingEmptySubsequences: false)
            separator = run { !$0.isASCIIDigit }
            build = run { $0.isASCIIDigit || $0 == "." }
        }
        let suffix = run { !$0.isASCIIDigit }
        // A separator of punctuation only: `-rc.` before a number is a prerelease, not a build.
        guard i == chars.count, numbers.count == 3, numbers.allSatisfy({ !$0.isEmpty }), !separator.isEmpty,
              !separator.contains(where: \.isLetter), !build.isEmpty,
              !build.hasPrefix("."), !build.hasSuffix("."), separator != "." || !build.contains(".") else { return nil }
        return (prefix, numbers.joined(separator: "."), separator, build, suffix)
    }

    /// `8.20` after `8.19`.
    private static func bumped(_ text: String) -> String {
        guard let version = TwoPartVersion(VersionParts(text).core) else { return "the next minor" }
        return TwoPartVersion(version.semantic.bumped(.minor)).text
    }

    /// `text` (init's config, pretty JSON with `tagFormat` first) with `"versionScheme"` after `tagFormat`.
    func adding(to text: String) -> String {
        guard let scheme, let line = text.range(of: "\n  \"tagFormat\"") , let end = text[line.upperBound...].firstIndex(of: "\n") else { return text }
        return String(text[..<end]) + "\n  \"versionScheme\": \"\(scheme)\"," + String(text[end...])
    }
}
