import RelctlCore
import RelctlFiles

extension BaseCheck {
    /// What the commands say about the release base besides a refusal: tags passed over because they are not
    /// ancestors of HEAD or not versions of the scheme, and a first release at the version the files hold.
    func baseNotes(_ analysis: ReleaseAnalysis, floor: VersionFloor?) -> [String] {
        var notes: [String] = []
        let next = analysis.next?.description
        if analysis.baseTag == nil, let highest = analysis.unreachableTags.first {
            notes.append("release tags \(Self.tagList(analysis.unreachableTags.map(\.tag))) exist but are not ancestors of HEAD (released from a branch never merged back?), so none is the base; merge it back (git merge \(highest.tag)) so releases continue from it, or run 'relctl adopt\(projectOption)'")
        } else if let base = analysis.baseTag, let next, let highest = analysis.unreachableTags.first,
                  VersionOrder.compare(next, highest.version.description) != .orderedDescending {
            notes.append("\(Self.tagList(analysis.unreachableTags.map(\.tag))) \(analysis.unreachableTags.count == 1 ? "is" : "are") above the next version \(next) but not an ancestor of HEAD, which continues from \(base); if \(next) should follow \(highest.tag), merge it back (git merge \(highest.tag))")
        }
        if analysis.baseTag == nil, analysis.unreachableTags.isEmpty, !analysis.unparsedTags.isEmpty {
            notes.append("tags \(Self.tagList(analysis.unparsedTags)) match tagFormat \"\(config.tagFormat)\" but are not versions of versionScheme \(config.versionScheme) (\(config.versionScheme.example)), so none is a release base")
        } else if analysis.baseTag == nil, analysis.unreachableTags.isEmpty, let fix = otherTagFormats(analysis.current).fix(configPath: configDisplayPath) {
            notes.append("no tag of tagFormat \"\(config.tagFormat)\" is reachable from HEAD, but \(fix), so releases continue from the last of them")
        } else if let base = analysis.baseTag, !analysis.unparsedTags.isEmpty {
            notes.append("tags \(Self.tagList(analysis.unparsedTags)) match tagFormat \"\(config.tagFormat)\" and are above \(base) but are not versions of versionScheme \(config.versionScheme) (\(config.versionScheme.example)), so the release continues from \(base)")
        }
        if let train = analysis.trainTag, let next {
            let core = VersionParts(next).core
            notes.append("\(train) is the last prerelease of \(core), which has no final tag yet: the release train is the base, so the next version is \(next)")
        }
        if analysis.baseTag == nil, let next, let held = floor?.held,
           VersionOrder.compare(next, held.value) == .orderedSame {
            notes.append("no release tag yet and the files already hold \(held.value): the first release tags it (if \(held.value) is already in the stores, run 'relctl adopt\(projectOption)' instead, so the next release follows it)")
        }
        return notes
    }
}
