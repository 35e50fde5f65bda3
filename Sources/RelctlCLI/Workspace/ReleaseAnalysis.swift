#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore
import RelctlGit

/// What the history says about the next release: the base tag, the commits since, the bump and the version.
struct ReleaseAnalysis {
    var baseTag: String?
    var current: ReleaseVersion?
    var commits: CommitAnalysis
    var bump: Bump
    var next: ReleaseVersion?
    /// Why there is no release, when `next` is nil.
    var reason: String?
    var headCommit: String
    /// A release is due but the scheme cannot number it (a calendar scheme without a counter, twice in one
    /// period): `release` fails with `reason` instead of reporting nothing to release.
    var cannotNumber = false
    /// Release tags of tagFormat above the base (all of them without a base) that are not ancestors of HEAD,
    /// highest first: releases made on a branch that was never merged back.
    var unreachableTags: [(tag: String, version: ReleaseVersion)] = []
    /// Tags of tagFormat holding numbers that are not versions of the scheme (`v2.43`, `v1.2.3.4` under semver)
    /// and above the base (all of them without a base), highest first: an app that moved to two-part versions
    /// after `v1.8.0` has `v29.0` above it.
    var unparsedTags: [String] = []
    /// The commit of `baseTag`: the range is `baseCommit..HEAD` (`rangeRecords` walks it again for `relctl lint`).
    var baseCommit: ObjectID?
    /// The branch's track: the prerelease channel, and on a maintenance branch its range (see ReleaseTrack.swift).
    var track = ReleaseTrack()
    /// The counter of a prerelease: 2 in `1.3.0-beta.2`.
    var prereleaseNumber: UInt64?
    /// The tag of the channel's last prerelease of the same core (`v1.3.0-beta.1` before `-beta.2`), when one exists.
    var lastPrereleaseTag: String?
    /// `lastPrereleaseTag` when HEAD reaches it: the newest release made on this branch, which a rerun of
    /// `release --push` publishes when its push failed (see `lastReleaseTag`).
    var reachablePrereleaseTag: String?
    /// The version and counter of `reachablePrereleaseTag` (`1.3.0-beta.2`, 2).
    var reachablePrerelease: (version: String, number: UInt64)?

    /// The newest release tag HEAD reaches: the channel's last prerelease on this branch, else the base.
    var lastReleaseTag: String? { reachablePrereleaseTag ?? baseTag }
    /// On a maintenance branch: the counted commits whose bump would take the version out of its range, oldest first.
    var rangeViolations: [AnalyzedCommit] = []
    /// The prerelease tag of a release train above the base that HEAD reaches (`v3.38.0-rc.18` with no `v3.38.0`
    /// yet): the next version is at least its core.
    var trainTag: String?
}

extension Workspace {
    /// Reads the release tags and the commits since the highest one reachable from HEAD, and decides the version.
    func analyze() throws -> ReleaseAnalysis {
        guard let head = try repository.headCommit() else {
            throw Problem("the repository has no commits yet; commit something before asking for a release")
        }
        // Stable tags of our format and scheme, highest first; only names are read here, objects on demand.
        let scheme = config.versionScheme
        var track = ReleaseTrack.of(branch: (try? repository.currentBranch()) ?? nil, config: config, requested: requestedChannel)
        if track.channel != nil || track.maintenance, case .calendar = scheme {
            throw Problem("\(track.channel != nil ? "prereleases" : "maintenance branches") need versionScheme semver, and \(configDisplayPath) sets \(scheme); release from \(config.mainBranch(in: repository)) without --prerelease, or number the app with semver")
        }
        let tags = try releaseTags()
        var candidates = tags.stable
        var prereleases = tags.prereleases.compactMap(\.version.numbered)
        if let range = track.range {
            candidates = candidates.filter { $0.version.numbered.map(range.contains) ?? true }
            prereleases = prereleases.filter(range.contains)
        }
        let unparsed = tags.unparsed

        // Each message goes only to the classifier and is let go once classified: the range's records keep ids
        // and parents.
        let stream = config.releaseRules.commitStream(in: repository)
        let walked = Result { () throws(GitError) in
            try stream.rangeSinceFirstAncestor(of: head, among: candidates.map(\.tag),
                                               samePrecedence: { candidates[$0].version.hasSamePrecedence(as: candidates[$1].version) })
        }
        if case .failure(let error) = walked, error.kind == .shallowHistory {
            let what = candidates.isEmpty ? "no release tag was fetched"
                : "relctl cannot tell which release tags are ancestors of HEAD (\(error.message))"
            throw Problem("this is a shallow clone and \(what), so the next version cannot be known; \(Workspace.shallowFix)")
        }
        var range = try walked.get()
        if repository.isShallow && range.base == nil {
            // The whole (cut) history was walked without meeting a tag: a release computed now would be wrong.
            throw Problem("this is a shallow clone and no release tag is reachable from HEAD, so the next version cannot be known; \(Workspace.shallowFix)")
        }
        // A project counts only the commits that change its folders (or those it depends on), or name it by scope.
        var leftOut = 0
        if let project, !project.watchedPaths.contains("") {
            var commits: [CommitRecord] = [], classified: [AnalyzedCommit] = []
            for (record, commit) in zip(range.commits, range.classified) where try counts(record, commit) {
                commits.append(record)
                classified.append(commit)
            }
            leftOut = range.commits.count - commits.count
            range.commits = commits
            range.classified = classified
        }
        let analysis = range.analysis()
        let base = range.base.map { candidates[$0.index] }
        let current = base?.version
        if track.maintenance, track.range == nil, let semantic = current?.numbered {
            // A maintenance branch whose name and entry spell no range keeps to its last release's minor.
            track.range = MaintenanceRange(major: semantic.major, minor: semantic.minor)
        }
        var result = ReleaseAnalysis(baseTag: base?.tag, current: current, commits: analysis, bump: analysis.bump,
                                     next: nil, reason: nil, headCommit: head.hex)
        result.track = track
        result.baseCommit = range.base?.commit
        result.unreachableTags = candidates.filter { candidate in base.map { candidate.version > $0.version } ?? true }
            .map { ($0.tag, $0.version) }
        result.unparsedTags = unparsed.filter { tag in
            current.map { VersionOrder.compare(tag.text, $0.description) == .orderedDescending } ?? true
        }.map(\.tag)
        if scheme.bumpsByCommits {
            result.bump = scheme.effective(VersionPolicy.effectiveBump(current: current?.numbered, bump: analysis.bump, majorOnZero: config.majorOnZero))
        }
        if track.maintenance, base == nil {
            let branch = track.branch ?? "HEAD"
            let what = track.range.map { "no \($0) release tag" } ?? "no release tag"
            let fix = result.unreachableTags.first.map { "merge the last one into \(branch) (git merge \($0.tag)), or start the branch from it" }
                ?? "there is no release of \(track.range?.description ?? "it") to maintain yet: release from \(config.mainBranch(in: repository))"
            result.reason = "\(what) is reachable from \(branch), so a maintenance release has no base; \(fix)"
            result.cannotNumber = true
            result.bump = .none
            return result
        }
        if let base, range.commits.isEmpty, leftOut > 0 {
            result.reason = "no commit since \(base.tag) changes \(projectFoldersText) (\(leftOut) commit\(leftOut == 1 ? "" : "s") changed other folders)"
            result.bump = .none
        } else if let base, range.commits.isEmpty {
            result.reason = "HEAD is already released as \(base.tag)"
            result.bump = .none
        } else if analysis.bump == .none {
            let since = base.map { "since \($0.tag)" } ?? "in the history (no release tag yet)"
            result.reason = "no releasable commit \(since): \(Self.describe(analysis))"
            result.bump = .none
        } else {
            switch scheme {
            case .semver, .majorMinor:
                let spelling = tags.prereleaseSpelling
                result.next = VersionPolicy.next(current: current?.numbered, bump: scheme.effective(analysis.bump),
                                                 initialVersion: config.initialVersion, majorOnZero: config.majorOnZero)
                    .flatMap { scheme.version($0, spelling: spelling) }
                if result.next == nil { result.reason = "the version cannot be bumped further (a component would overflow)" }
                if let range = track.range {
                    result.rangeViolations = analysis.commits.filter { commit in
                        commit.counted && scheme.effective(VersionPolicy.effectiveBump(current: current?.numbered, bump: commit.bump,
                                                                                       majorOnZero: config.majorOnZero)) > range.largestBump
                    }.reversed()
                }
                // Only with no final release to count from, or when the train itself goes on (`--prerelease`): a
                // stable release above its base still counts from that base (a prerelease is never the base).
                if base == nil || track.channel != nil, let next = result.next?.numbered, let train = try reachableTrain(tags.prereleases.filter { tag in
                    track.range.map { range in tag.version.numbered.map(range.contains) ?? true } ?? true }, above: current, head: head, range: range.commits),
                   next < train.core, let version = scheme.version(train.core, spelling: spelling) {
                    // A train of prereleases with no final tag yet (`3.38.0-rc.1` … `rc.18`): its core is the base.
                    result.next = version
                    result.trainTag = train.tag
                }
                if let channel = track.channel, let core = result.next?.numbered {
                    try numberPrerelease(&result, channel: channel, core: core, tagged: prereleases, head: head, tags: tags)
                }
            case .calendar(let calendar):
                // The date decides the number; the commits decide whether there is a release, and `bump` still
                // says what they mean (a breaking change is a major release for the gate).
                let date = ReleaseClock.date(environment)
                result.next = calendar.next(after: current?.calendar, on: date).map(ReleaseVersion.calendar)
                if result.next == nil, let current {
                    let period = calendar.periodName
                    result.cannotNumber = true
                    result.reason = "\(current) is already released for this \(period) (\(date), UTC) and versionScheme \"\(calendar.pattern)\" has no counter; add .MICRO to versionScheme in \(configDisplayPath) to release more than once a \(period), or release next \(period)"
                }
            }
        }
        return result
    }

    /// The commits of the range `analysis` read (`baseCommit..HEAD`, the whole history without a base), newest
    /// first, with their messages: walked again, for `relctl lint`, where `analyze` let the messages go.
    func rangeRecords(of analysis: ReleaseAnalysis) throws -> [CommitRecord] {
        guard let head = ObjectID(hex: analysis.headCommit) else { return [] }
        return try HistoryWalker(repository: repository).walk(from: head, hiding: analysis.baseCommit).commits
    }

    /// Turns the core version `result.next` into the next prerelease of `channel` on it: one more than the highest
    /// `core-channel.N` tag anywhere (1 when none). HEAD already tagged with the last of them: no release.
    private func numberPrerelease(_ result: inout ReleaseAnalysis, channel: ReleaseChannel, core: SemanticVersion,
                                  tagged: [SemanticVersion], head: ObjectID, tags: ReleaseTags) throws {
        let scheme = tags.scheme, spelling = tags.prereleaseSpelling
        func release(_ version: SemanticVersion) -> ReleaseVersion { scheme.version(version, spelling: spelling) ?? .semantic(version) }
        let final = tags.tagName(of: release(core)) ?? tags.format.tagName(for: release(core))
        if try repository.tag(named: final) != nil {
            // The stable release is out (made on a branch HEAD does not contain): a prerelease of it would sort below it.
            result.reason = "\(final) is already released but not an ancestor of HEAD, so a \(channel) prerelease of \(release(core)) would come after the release it precedes; merge it into \(result.track.branch ?? "this branch") (git merge \(final)) so the next prerelease follows it"
            result.cannotNumber = true
            result.next = nil
            return
        }
        let number = channel.nextNumber(core: core, tagged: tagged)
        if number > 1 {
            let previous = release(channel.version(core: core, number: number - 1))
            let last = tags.tagName(of: previous) ?? tags.format.tagName(for: previous)
            result.lastPrereleaseTag = last
            if let reference = try repository.tag(named: last), let commit = try repository.commit(of: reference),
               try repository.isAncestor(commit, of: head) {
                result.reachablePrereleaseTag = last
                result.reachablePrerelease = (previous.description, number - 1)
                if commit == head {
                    result.reason = "HEAD is already released as \(last)"
                    result.next = nil
                    result.bump = .none
                    return
                }
            }
        }
        result.next = release(channel.version(core: core, number: number))
        result.prereleaseNumber = number
    }

    /// The highest prerelease core above `base` (every one without a base) whose highest prerelease tag HEAD
    /// reaches, with that tag; nil when there is none. One ancestor check, only when such tags exist.
    /// `range`: the commits since the base (the whole history without one), whose ids answer "does HEAD reach the
    /// tag?" without another walk (libgit2's `git_graph_descendant_of` walks the whole history again for a tag HEAD
    /// cannot reach: 203M instructions on a 3,500-commit app).
    private func reachableTrain(_ prereleases: [ReleaseTags.Tag], above base: ReleaseVersion?,
                                head: ObjectID, range: [CommitRecord]) throws -> (core: SemanticVersion, tag: String)? {
        let floor = base?.numbered
        var best: (version: SemanticVersion, tag: String)?
        for tag in prereleases {
            guard let version = tag.version.numbered else { continue }
            var core = version
            core.prerelease = []
            core.build = []
            if let floor, !(floor < core) { continue }
            if best.map({ $0.version < version }) ?? true { best = (version, tag.name) }
        }
        guard let best, let reference = try repository.tag(named: best.tag), let commit = try repository.commit(of: reference)
        else { return nil }
        // In the range: HEAD reaches it. (A prerelease above the base on a commit the base already contains is not a
        // train HEAD goes on from: the base is.)
        guard commit == head || range.contains(where: { $0.id == commit }) else { return nil }
        var core = best.version
        core.prerelease = []
        core.build = []
        return (core, best.tag)
    }

    /// "3 commits: 2 chore, 1 not conventional" style summary for the no-release reason.
    static func describe(_ analysis: CommitAnalysis) -> String {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for commit in analysis.commits {
            let key: String
            switch commit.status {
            case .notConventional: key = "not conventional"
            case .merge: key = "merge"
            case .fixup: key = "fixup"
            case .reverted, .revertCancelled: key = "reverted"
            default: key = commit.message?.type.lowercased() ?? "other"
            }
            if counts[key] == nil { order.append(key) }
            counts[key, default: 0] += 1
        }
        let n = analysis.commits.count
        return "\(n) commit\(n == 1 ? "" : "s")" + (order.isEmpty ? "" : " (" + order.map { "\(counts[$0, default: 0]) \($0)" }.joined(separator: ", ") + ")")
    }
}
