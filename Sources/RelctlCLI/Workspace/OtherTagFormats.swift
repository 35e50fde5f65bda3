import RelctlCore
import RelctlGit

/// Release tags of another format than `tagFormat` that stand above the release base (every one without a base):
/// an app tagging `2.1.3` under the default `v{version}` would otherwise be told to adopt a version it already tagged.
struct OtherTagFormats {
    /// The formats with the most such tags (one: a clear guess; several: a tie, `-bwa` and `-bwpm`).
    let guesses: [TagFormatGuess]

    /// The tags of every format but `tagFormat`, kept when their highest version is above `base`.
    static func find(tagNames: [String], tagFormat: String, scheme: VersionScheme, base: ReleaseVersion?) -> OtherTagFormats {
        let others = tagNames.filter { name in
            guard let (pattern, text) = TagFormatGuess.formatAndVersion(name) else { return false }
            return pattern != tagFormat && (base.map { b in scheme.parse(text).map { b < $0 } ?? false } ?? true)
        }
        return OtherTagFormats(guesses: TagFormatGuess.candidates(tagNames: others, scheme: scheme))
    }

    /// `set "tagFormat": "{version}" in .relctl.json`, or the tie named; nil when no tag of another format is there.
    func fix(configPath: String) -> String? {
        guard let first = guesses.first else { return nil }
        if guesses.count == 1 {
            return "\(BaseCheck.tagList(first.tags)) look like release tags of tagFormat \"\(first.pattern)\": set \"tagFormat\": \"\(first.pattern)\" in \(configPath)"
        }
        let formats = guesses.map { "\"\($0.pattern)\" (\(BaseCheck.tagList($0.tags)))" }.joined(separator: ", ")
        return "release tags follow \(guesses.count) formats, \(formats): set \"tagFormat\" in \(configPath) to the app's"
    }
}

extension OtherTagFormats {
    /// `OtherTagFormats` among the run's tag names (`names`; empty when they cannot be listed) above `base`: another
    /// project's tags (`projectFormats`, for a project) are its own releases, not tags of a format this one should use.
    static func find(names: [String], config: Config, projectFormats: [TagFormat]?, base: ReleaseVersion?) -> OtherTagFormats {
        var names = names
        if let projectFormats { names.removeAll { name in projectFormats.contains { $0.parts(fromTag: name) != nil } } }
        return find(tagNames: names, tagFormat: config.tagFormat, scheme: config.versionScheme, base: base)
    }
}
