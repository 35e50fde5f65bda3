import RelctlCore
import RelctlFiles

/// What the commands say about the release base, over the facts of the run handed to it: never a version backwards
/// (what `next` warns about and `release` refuses, with the fix), and the notes on tags passed over (ReleaseBaseNotes.swift).
struct BaseCheck {
    let config: Config
    /// ` --project NAME` in advice, for a project; "".
    let projectOption: String
    /// Whether the files stand for a version itself (`LastSyncedVersion`, over the record of the last sync and the
    /// release tags).
    let lastSyncedTo: (String, CurrentVersions) -> Bool
    /// The tags of other formats above a base (`OtherTagFormats`), searched only when a message needs them.
    let otherTagFormats: (ReleaseVersion?) -> OtherTagFormats

    var configDisplayPath: String { config.displayPath }

    /// The check of `workspace`'s app or project, over its facts: its config, its release tags and the run's one
    /// tag listing, the record of the last sync in its clone.
    init(_ workspace: Workspace) {
        config = workspace.config
        projectOption = workspace.projectOption
        let gitDir = workspace.repository.gitDir
        lastSyncedTo = { version, current in
            LastSyncedVersion.filesWereLastSynced(to: version, current: current, gitDir: gitDir, tags: try? workspace.releaseTags())
        }
        let projectFormats = workspace.project == nil ? nil : workspace.allProjects.compactMap { try? TagFormat($0.tagFormat) }
        otherTagFormats = { base in
            OtherTagFormats.find(names: (try? workspace.tagListing.names(workspace.repository)) ?? [], config: workspace.config,
                                 projectFormats: projectFormats, base: base)
        }
    }

    /// The one-line reason `next` warns about and `release` refuses `analysis.next`: a version below (or, for a
    /// release with a base tag, equal to) what the files hold, or a first release below release tags that are not
    /// ancestors of HEAD. Each names where, and the fix. nil when the version moves forward.
    func backwardsProblem(_ analysis: ReleaseAnalysis, floor: VersionFloor?) -> String? {
        guard let next = analysis.next?.description else { return nil }
        // The very first release may be the version the files hold (a new app's 1.0.0): writing it changes nothing.
        let refuseEqual = analysis.baseTag != nil
        // So may its betas (1.0.0-beta.1 before 1.0.0): with no release yet, a first prerelease is judged by its core.
        let judged = analysis.baseTag == nil && analysis.prereleaseNumber != nil ? VersionParts(next).core : next
        if let floor, let (standing, site) = floor.problem(writing: judged, refuseEqual: refuseEqual,
                                                           lastSyncedTo: { lastSyncedTo($0, floor.current) }) {
            let held = site.value
            switch standing {
            case .lower:
                return "\(site.path):\(site.line): the next version \(next) is lower than \(held), the version this file holds, and the stores refuse a version below the last one; \(adoptionFix(analysis, held: held))"
            case .equal:
                return "\(site.path):\(site.line): the next version \(next) is the version this file already holds, and \(site.platform == .android ? "Google Play users would get a new release under the last one's version" : "App Store Connect refuses a version it already has"); if \(held) is out, run 'relctl adopt\(projectOption)' to tag it as released (then this release becomes the next one), and if it is not, put the files back to \(analysis.current?.description ?? "the last release") (relctl sync \(analysis.current?.description ?? "<version>") --allow-downgrade\(projectOption)) and commit"
            }
        }
        if analysis.baseTag == nil, let highest = analysis.unreachableTags.first,
           VersionOrder.compare(next, highest.version.description) != .orderedDescending {
            return "no release tag is reachable from HEAD, so the next version is \(next), but \(Self.tagList(analysis.unreachableTags.map(\.tag))) exist on commits that are not ancestors of HEAD (released from a branch never merged back?); merge it back (git merge \(highest.tag)) so releases continue from it, or run 'relctl adopt\(projectOption)' to tag the version the files hold"
        }
        if analysis.baseTag == nil, analysis.unreachableTags.isEmpty, let highest = analysis.unparsedTags.first,
           let text = (try? TagFormat(config.tagFormat))?.versionText(fromTag: highest),
           VersionOrder.compare(next, text) != .orderedDescending {
            return "no release tag is reachable from HEAD, so the next version is \(next), but \(Self.tagList(analysis.unparsedTags)) match tagFormat \"\(config.tagFormat)\" and are not versions of versionScheme \(config.versionScheme) (\(config.versionScheme.example)); \(unparsedFix(highest: highest, text: text))"
        }
        if analysis.baseTag == nil, analysis.unreachableTags.isEmpty, analysis.unparsedTags.isEmpty {
            // Tags of another format only: the first release would start again below them.
            let others = otherTagFormats(analysis.current)
            let highest = others.guesses.compactMap { guess in
                guess.tags.first.flatMap { tag in (try? TagFormat(guess.pattern))?.versionText(fromTag: tag) }
            }.max { VersionOrder.compare($0, $1) == .orderedAscending }
            if let highest, VersionOrder.compare(next, highest) != .orderedDescending, let fix = others.fix(configPath: configDisplayPath) {
                return "no tag of tagFormat \"\(config.tagFormat)\" is reachable from HEAD, so the next version is \(next), but \(fix), so releases continue from the last of them"
            }
        }
        return nil
    }

    /// How to give relctl the last release when it cannot see one.
    func adoptionFix(_ analysis: ReleaseAnalysis, held: String) -> String {
        // Tags above the base (every one without a base) that relctl passed over say more than "adopt".
        let above = analysis.baseTag.map { " are above \($0) but" } ?? ""
        if let highest = analysis.unreachableTags.first {
            let list = Self.tagList(analysis.unreachableTags.map(\.tag))
            return "release tags \(list)\(above.isEmpty ? " exist but are" : above + " are") not ancestors of HEAD (released from a branch never merged back?): merge it back (git merge \(highest.tag)), or run 'relctl adopt\(projectOption)' to tag \(held) on the commit that set it"
        }
        if let highest = analysis.unparsedTags.first,
           let text = (try? TagFormat(config.tagFormat))?.versionText(fromTag: highest) {
            let adopt = config.versionScheme.parse(held) == nil ? "" : ", or run 'relctl adopt\(projectOption)' to tag \(held) on the commit that set it"
            return "tags \(Self.tagList(analysis.unparsedTags))\(above) are not versions of versionScheme \(config.versionScheme) (\(config.versionScheme.example)): \(unparsedFix(highest: highest, text: text))\(adopt)"
        }
        if let fix = otherTagFormats(analysis.current).fix(configPath: configDisplayPath) {
            return "\(analysis.baseTag.map { "the last release tag of tagFormat \"\(config.tagFormat)\" is \($0), but " } ?? "no tag of tagFormat \"\(config.tagFormat)\" is reachable from HEAD, but ")\(fix), so releases continue from the last of them (or run 'relctl adopt\(projectOption)' to tag \(held) if no tag holds it)"
        }
        if VersionParts(held).prerelease != nil {
            return prereleaseHeldFix(analysis, held: held)
        }
        if let base = analysis.baseTag {
            return "the files were set to \(held) after \(base) without a release tag: run 'relctl adopt\(projectOption)' to tag \(held) on the commit that set it (relctl adopt\(projectOption) --dry-run shows which), so releases continue from there"
        }
        return "no release tag is reachable from HEAD: run 'relctl adopt\(projectOption)' to tag \(held) on the commit that set it (relctl adopt\(projectOption) --dry-run shows which), so releases continue from there"
    }

    /// The files hold a prerelease no tag holds (betas made by hand, `3.12.0-beta4` after `3.11.4`): `adopt` takes only
    /// a final version, so the fix is a commit that brings the release up to that core (the kind of commit it
    /// needs, from the last release's numbers), or the files put back to the last release.
    private func prereleaseHeldFix(_ analysis: ReleaseAnalysis, held: String) -> String {
        let core = VersionParts(held).core
        var needs = "a commit that calls for it"
        if let last = analysis.current?.description, let from = VersionOrder.numbers(last), let to = VersionOrder.numbers(core),
           from.count >= 3, to.count >= 3 {
            needs = to[0] != from[0] ? "a breaking change (feat!: …)" : to[1] != from[1] ? "a feat commit" : "a fix commit"
        }
        let back = analysis.current.map { "put the files back to \($0) (relctl sync \($0) --allow-downgrade\(projectOption)) and commit" }
            ?? "put the files back to the version the stores have (relctl sync <version> --allow-downgrade\(projectOption)) and commit"
        return "the files hold the prerelease \(held), which no release tag holds, and 'relctl adopt' takes only a final version; the next version comes from \(analysis.baseTag.map { "\($0)" } ?? "initialVersion") and the commits since, so it reaches \(core) with \(needs) (then 'relctl release' makes \(core)), or \(back)"
    }

    /// The fix for tags relctl cannot read: when they are written in another scheme relctl knows (`v8.19`: two
    /// parts; `v2024.11`: a date), that scheme, so the history stays as the team tagged it; else re-tag the highest
    /// in the scheme.
    private func unparsedFix(highest: String, text: String) -> String {
        if let scheme = SchemeGuess.scheme(for: text, others: []), scheme != .semver, scheme != config.versionScheme {
            return "if the app numbers its versions that way, set \"versionScheme\": \"\(scheme)\" in \(configDisplayPath) (\(scheme.example)) and commit it, so releases continue from \(highest)"
        }
        if let numbers = VersionOrder.numbers(text), numbers.count == 4, !config.files.isEmpty,
           let format = try? TagFormat(config.tagFormat), !format.carriesBuild,
           let pattern = Optional(format.prefix + TagFormat.placeholder + "." + TagFormat.buildPlaceholder + format.suffix),
           (try? TagFormat(pattern)) != nil {
            return "if the fourth number is the build, set \"tagFormat\": \"\(pattern)\" in \(configDisplayPath) and commit it, so \(highest) reads as version \(numbers.prefix(3).map(String.init).joined(separator: ".")), build \(numbers[3])"
        }
        return "tag the last release in the scheme, or set versionScheme in \(configDisplayPath) to how the app numbers versions"
    }

    /// `v2.44.1, v2.44.0, v2.43.2 and 4 more`: the highest few.
    static func tagList(_ tags: [String]) -> String {
        let shown = tags.prefix(3).joined(separator: ", ")
        return tags.count > 3 ? "\(shown) and \(tags.count - 3) more" : shown
    }
}
