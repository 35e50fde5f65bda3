import RelctlCore
import RelctlFiles

/// The marketing versions the configured version files hold: relctl never writes a lower one (the stores refuse a
/// version below the last one they approved), and `release` never one equal to it.
///
/// iOS files (and everything feeding CFBundleShortVersionString) keep only the core of a prerelease (`1.3.0` for
/// `1.3.0-beta.2`), so they are compared by core: the final `1.3.0` after its betas is not "equal" to them. Files
/// keeping the whole version (package.json, Gradle, gradle.properties…) are compared whole.
struct VersionFloor {
    struct Site {
        var path: String
        var line: Int
        var value: String
        /// false: the file keeps only the core (iOS formats, a regex whose pattern admits no prerelease).
        var keepsWholeVersion: Bool
        /// The store the file's marketing version feeds (nil: both, or none in particular).
        var platform: StorePlatform?
    }

    /// Every literal, numeric marketing value, in file order.
    let sites: [Site]
    /// The files as read.
    let current: CurrentVersions

    init(_ current: CurrentVersions) {
        self.current = current
        let extensionOnly = Self.extensionOnlySites(current.files)
        var sites: [Site] = []
        for file in current.files {
            for location in file.usedLocations where location.field == .marketing && location.indirection == nil
                && VersionOrder.isNumeric(location.value) && !extensionOnly.contains("\(file.entry.path):\(location.line)") {
                sites.append(Site(path: file.entry.path, line: location.line, value: location.value,
                                  keepsWholeVersion: file.keepsPrerelease, platform: file.entry.format.marketingPlatform))
            }
        }
        self.sites = sites
    }

    /// `path:line` of the marketing values only extension, widget or watch targets are built with, when the project
    /// has an application target: the stores compare the app's version, so an extension left at Xcode's `1.0` beside
    /// an app at `0.27.2` is drift (`sync` repairs it), not a version the app must stay above.
    static func extensionOnlySites(_ files: [FileVersions]) -> Set<String> {
        var readByApp: [String: Bool] = [:]
        var hasApplication = false
        for file in files {
            for target in file.targets {
                hasApplication = hasApplication || target.isApplication
                let source = target.marketing
                guard [.pbxproj, .plist, .xcconfig].contains(source.kind), let path = source.path, let line = source.line else { continue }
                readByApp["\(path):\(line)", default: false] = readByApp["\(path):\(line)", default: false] || target.isApplication
            }
        }
        guard hasApplication else { return [] }
        return Set(readByApp.filter { !$0.value }.keys)
    }

    /// The version the files stand for: the highest whole version when a file keeps one, else the highest core.
    var held: Site? {
        let pool = sites.contains(where: \.keepsWholeVersion) ? sites.filter(\.keepsWholeVersion) : sites
        return pool.max { VersionOrder.compare($0.value, $1.value) == .orderedAscending }
    }

    /// Whether every file holds the same version (an iOS core agreeing with a whole prerelease of it).
    var agreed: Bool {
        guard let held else { return true }
        return sites.allSatisfy { site in
            let compared = site.keepsWholeVersion ? held.value : VersionParts(held.value).core
            return VersionOrder.compare(site.value, compared) == .orderedSame
        }
    }

    enum Standing { case lower, equal }

    /// Where writing `version` would go below the files (the highest such file), or, with `refuseEqual`, stay at
    /// the version they hold. `lastSyncedTo(version)` tells whether files keeping only the core stand for
    /// `version` itself (see `Workspace.filesWereLastSynced`): only then is an equal core "equal".
    func problem(writing version: String, refuseEqual: Bool,
                 lastSyncedTo: (String) -> Bool) -> (standing: Standing, site: Site)? {
        let core = VersionParts(version).core
        let lower = sites.filter { site in
            VersionOrder.compare(site.keepsWholeVersion ? version : core, site.value) == .orderedAscending
        }
        if let highest = lower.max(by: { VersionOrder.compare($0.value, $1.value) == .orderedAscending }) {
            return (.lower, highest)
        }
        guard refuseEqual else { return nil }
        let whole = sites.filter(\.keepsWholeVersion)
        if !whole.isEmpty {
            return whole.first { VersionOrder.compare(version, $0.value) == .orderedSame }.map { (.equal, $0) }
        }
        guard let same = sites.first(where: { VersionOrder.compare(core, $0.value) == .orderedSame }),
              lastSyncedTo(version) else { return nil }
        return (.equal, same)
    }
}

extension Workspace {
    /// The floor of the configured files; nil when none is configured or a file cannot be read (the command that
    /// writes reports that itself).
    func versionFloor() -> VersionFloor? {
        guard !config.files.isEmpty, let current = try? readVersions() else { return nil }
        return VersionFloor(current)
    }

    /// The one-line reason `next` warns about and `release` refuses `analysis.next`: a version below (or, for a
    /// release with a base tag, equal to) what the files hold, or a first release below release tags that are not
    /// ancestors of HEAD. Each names where, and the fix. nil when the version moves forward.
    func backwardsProblem(_ analysis: ReleaseAnalysis, floor: VersionFloor?) -> String? {
        guard let next = analysis.next?.description else { return nil }
        // The very first release may be the version the files hold (a new app's 1.0.0): writing it changes nothing.
        let refuseEqual = analysis.baseTag != nil
        if let floor, let (standing, site) = floor.problem(writing: next, refuseEqual: refuseEqual,
                                                           lastSyncedTo: { self.filesWereLastSynced(to: $0, current: floor.current) }) {
            let held = site.value
            switch standing {
            case .lower:
                return "\(site.path):\(site.line): the next version \(next) is lower than \(held), the version this file holds, and the stores refuse a version below the last one; \(adoptionFix(analysis, held: held))"
            case .equal:
                return "\(site.path):\(site.line): the next version \(next) is the version this file already holds, and \(site.platform == .android ? "Google Play users would get a new release under the last one's version" : "App Store Connect refuses a version it already has"); if \(held) is out, run 'relctl adopt' to tag it as released (then this release becomes the next one), and if it is not, put the files back to \(analysis.current?.description ?? "the last release") (relctl sync \(analysis.current?.description ?? "<version>") --allow-downgrade) and commit"
            }
        }
        if analysis.baseTag == nil, let highest = analysis.unreachableTags.first,
           VersionOrder.compare(next, highest.version.description) != .orderedDescending {
            return "no release tag is reachable from HEAD, so the next version is \(next), but \(Self.tagList(analysis.unreachableTags.map(\.tag))) exist on commits that are not ancestors of HEAD (released from a branch never merged back?); merge it back (git merge \(highest.tag)) so releases continue from it, or run 'relctl adopt' to tag the version the files hold"
        }
        if analysis.baseTag == nil, analysis.unreachableTags.isEmpty, let highest = analysis.unparsedTags.first,
           let text = (try? TagFormat(config.tagFormat))?.versionText(fromTag: highest),
           VersionOrder.compare(next, text) != .orderedDescending {
            return "no release tag is reachable from HEAD, so the next version is \(next), but \(Self.tagList(analysis.unparsedTags)) match tagFormat \"\(config.tagFormat)\" and are not versions of versionScheme \(config.versionScheme) (\(config.versionScheme.example)); \(unparsedFix(highest: highest, text: text))"
        }
        if analysis.baseTag == nil, analysis.unreachableTags.isEmpty, analysis.unparsedTags.isEmpty {
            // Tags of another format only: the first release would start again below them.
            let others = otherTagFormats(analysis)
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
            return "release tags \(list)\(above.isEmpty ? " exist but are" : above + " are") not ancestors of HEAD (released from a branch never merged back?): merge it back (git merge \(highest.tag)), or run 'relctl adopt' to tag \(held) on the commit that set it"
        }
        if let highest = analysis.unparsedTags.first,
           let text = (try? TagFormat(config.tagFormat))?.versionText(fromTag: highest) {
            let adopt = config.versionScheme.parse(held) == nil ? "" : ", or run 'relctl adopt' to tag \(held) on the commit that set it"
            return "tags \(Self.tagList(analysis.unparsedTags))\(above) are not versions of versionScheme \(config.versionScheme) (\(config.versionScheme.example)): \(unparsedFix(highest: highest, text: text))\(adopt)"
        }
        if let fix = otherTagFormats(analysis).fix(configPath: configDisplayPath) {
            return "\(analysis.baseTag.map { "the last release tag of tagFormat \"\(config.tagFormat)\" is \($0), but " } ?? "no tag of tagFormat \"\(config.tagFormat)\" is reachable from HEAD, but ")\(fix), so releases continue from the last of them (or run 'relctl adopt' to tag \(held) if no tag holds it)"
        }
        if let base = analysis.baseTag {
            return "the files were set to \(held) after \(base) without a release tag: run 'relctl adopt' to tag \(held) on the commit that set it (relctl adopt --dry-run shows which), so releases continue from there"
        }
        return "no release tag is reachable from HEAD: run 'relctl adopt' to tag \(held) on the commit that set it (relctl adopt --dry-run shows which), so releases continue from there"
    }

    /// Re-tag the highest unparsed tag in the scheme: a semver tag with fewer than three numbers gets its zeros
    /// (`v2.43` → `v2.43.0`, the version App Store Connect read it as).
    private func unparsedFix(highest: String, text: String) -> String {
        if case .semver = config.versionScheme, let numbers = VersionOrder.numbers(text), numbers.count < 3,
           let format = try? TagFormat(config.tagFormat) {
            let padded = numbers + Array(repeating: 0, count: 3 - numbers.count)
            let tag = format.tagName(for: SemanticVersion(major: padded[0], minor: padded[1], patch: padded[2]))
            return "tag that release in the scheme (git tag -a \(tag) \(highest)^{} -m \(tag))"
        }
        return "tag the last release in the scheme, or set versionScheme in \(configDisplayPath) to how the app numbers versions"
    }

    /// `v2.44.1, v2.44.0, v2.43.2 and 4 more`: the highest few.
    static func tagList(_ tags: [String]) -> String {
        let shown = tags.prefix(3).joined(separator: ", ")
        return tags.count > 3 ? "\(shown) and \(tags.count - 3) more" : shown
    }
}

extension Workspace {
    /// What the commands say about the release base besides a refusal: tags passed over because they are not
    /// ancestors of HEAD or not versions of the scheme, and a first release at the version the files hold.
    func baseNotes(_ analysis: ReleaseAnalysis, floor: VersionFloor?) -> [String] {
        var notes: [String] = []
        let next = analysis.next?.description
        if analysis.baseTag == nil, let highest = analysis.unreachableTags.first {
            notes.append("release tags \(Self.tagList(analysis.unreachableTags.map(\.tag))) exist but are not ancestors of HEAD (released from a branch never merged back?), so none is the base; merge it back (git merge \(highest.tag)) so releases continue from it, or run 'relctl adopt'")
        } else if let base = analysis.baseTag, let next, let highest = analysis.unreachableTags.first,
                  VersionOrder.compare(next, highest.version.description) != .orderedDescending {
            notes.append("\(Self.tagList(analysis.unreachableTags.map(\.tag))) \(analysis.unreachableTags.count == 1 ? "is" : "are") above the next version \(next) but not an ancestor of HEAD, which continues from \(base); if \(next) should follow \(highest.tag), merge it back (git merge \(highest.tag))")
        }
        if analysis.baseTag == nil, analysis.unreachableTags.isEmpty, !analysis.unparsedTags.isEmpty {
            notes.append("tags \(Self.tagList(analysis.unparsedTags)) match tagFormat \"\(config.tagFormat)\" but are not versions of versionScheme \(config.versionScheme) (\(config.versionScheme.example)), so none is a release base")
        } else if analysis.baseTag == nil, analysis.unreachableTags.isEmpty, let fix = otherTagFormats(analysis).fix(configPath: configDisplayPath) {
            notes.append("no tag of tagFormat \"\(config.tagFormat)\" is reachable from HEAD, but \(fix), so releases continue from the last of them")
        } else if let base = analysis.baseTag, !analysis.unparsedTags.isEmpty {
            notes.append("tags \(Self.tagList(analysis.unparsedTags)) match tagFormat \"\(config.tagFormat)\" and are above \(base) but are not versions of versionScheme \(config.versionScheme) (\(config.versionScheme.example)), so the release continues from \(base)")
        }
        if analysis.baseTag == nil, let next, let held = floor?.held,
           VersionOrder.compare(next, held.value) == .orderedSame {
            notes.append("no release tag yet and the files already hold \(held.value): the first release tags it (if \(held.value) is already in the stores, run 'relctl adopt' instead, so the next release follows it)")
        }
        return notes
    }
}
