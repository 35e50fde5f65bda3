import Foundation
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
}

/// The repository a command works on, opened once.
struct Workspace {
    let repository: Repository
    let root: String
    let config: Config
    /// The environment of the run (the release date of a calendar version comes from SOURCE_DATE_EPOCH).
    var environment: [String: String] = [:]
    /// The configured version files, read once per run (`readVersions`).
    let versionFiles = VersionFileCache()

    static func open(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Workspace {
        let start = arguments.value("--repo").map { $0.hasPrefix("/") ? $0 : context.currentDirectory + "/" + $0 }
            ?? context.currentDirectory
        guard FileManager.default.fileExists(atPath: start) else {
            throw CLIFailure(message: "'\(arguments.value("--repo") ?? start)' does not exist; pass --repo the path of a git repository")
        }
        let opened = Result { () throws(GitError) -> Repository in try Repository(discoveringFrom: start) }
        if case .failure(let error) = opened, error.kind == .notARepository {
            throw CLIFailure(message: "'\(arguments.value("--repo") ?? start)' is not inside a git repository; run relctl in the app's repository or pass --repo PATH")
        }
        let repository = try opened.get()
        guard let root = repository.workdir else {
            throw CLIFailure(message: "'\(start)' is a bare repository; relctl needs a work tree (clone it first)")
        }
        let config = try Config.load(explicitPath: arguments.value("--config"), repositoryRoot: root,
                                     currentDirectory: context.currentDirectory)
        var workspace = Workspace(repository: repository, root: root, config: config)
        workspace.environment = context.environment
        workspace.remindOfPendingMajor(context)
        return workspace
    }

    /// The decision a past major release left open, from `.major-release-pending` at the root.
    var pendingMajor: MajorReleaseNotice? {
        guard let data = FileManager.default.contents(atPath: root + "/" + ReleaseCommand.markerFile) else { return nil }
        return MajorReleaseNotice.parse(String(decoding: data, as: UTF8.self))
    }

    /// While the marker exists, every command says so in one line (and as a GitHub Actions annotation).
    func remindOfPendingMajor(_ context: CommandContext) {
        let path = root + "/" + ReleaseCommand.markerFile
        guard FileManager.default.fileExists(atPath: path) else { return }
        guard let notice = pendingMajor else {
            context.output.warning("\(ReleaseCommand.markerFile) is not readable; a major release decision may be pending (check the file)")
            return
        }
        context.output.warning("major release \(notice.version) is pending: min_supported_version is unchanged; raise it only once \(notice.version) is live in both stores (\(MajorReleaseNotice.raiseCommand(version: notice.version)))")
        if context.environment["GITHUB_ACTIONS"] == "true" { context.output.message(notice.githubAnnotation()) }
    }

    static let shallowFix = "fetch the full history with 'git fetch --unshallow --tags' (GitHub Actions: actions/checkout with 'fetch-depth: 0')"

    /// Reads the release tags and the commits since the highest one reachable from HEAD, and decides the version.
    func analyze() throws -> ReleaseAnalysis {
        let format = try TagFormat(config.tagFormat)
        guard let head = try repository.headCommit() else {
            throw CLIFailure(message: "the repository has no commits yet; commit something before asking for a release")
        }
        // Stable tags of our format and scheme, highest first; only names are read here, objects on demand.
        let scheme = config.versionScheme
        let literalPrefix = String(config.tagFormat.prefix { $0 != "{" })
        var candidates: [(version: ReleaseVersion, tag: String)] = []
        var unparsed: [(text: String, tag: String)] = []
        for name in try repository.tagNames(prefix: literalPrefix) {
            guard let text = format.versionText(fromTag: name) else { continue }
            if let version = scheme.parse(text) {
                if version.isStable { candidates.append((version, name)) }
            } else if VersionOrder.isNumeric(text), VersionParts(text).prerelease == nil {
                unparsed.append((text, name))
            }
        }
        candidates.sort { a, b in
            if b.version < a.version { return true }
            return !(a.version < b.version) && a.tag < b.tag
        }
        unparsed.sort { a, b in
            let order = VersionOrder.compare(a.text, b.text)
            return order != .orderedSame && order != nil ? order == .orderedDescending : a.tag < b.tag
        }

        let classifier = StreamingClassifier(rules: config.releaseRules)
        // The walker (and the raw messages it holds) is freed as soon as the walk is done.
        let walked = Result { () throws(GitError) in
            try HistoryWalker(repository: repository).rangeSinceFirstAncestor(
                of: head, among: candidates.map(\.tag),
                samePrecedence: { candidates[$0].version.hasSamePrecedence(as: candidates[$1].version) },
                onWalk: classifier.reset, onCommit: classifier.add)
        }
        if case .failure(let error) = walked, error.kind == .shallowHistory {
            let what = candidates.isEmpty ? "no release tag was fetched"
                : "relctl cannot tell which release tags are ancestors of HEAD (\(error.message))"
            throw CLIFailure(message: "this is a shallow clone and \(what), so the next version cannot be known; \(Workspace.shallowFix)")
        }
        let range = try walked.get()
        if repository.isShallow && range.base == nil {
            // The whole (cut) history was walked without meeting a tag: a release computed now would be wrong.
            throw CLIFailure(message: "this is a shallow clone and no release tag is reachable from HEAD, so the next version cannot be known; \(Workspace.shallowFix)")
        }
        let analysis = classifier.analysis(of: range.walk.commits)
        let base = range.base.map { candidates[$0.index] }
        let current = base?.version
        var result = ReleaseAnalysis(baseTag: base?.tag, current: current, commits: analysis, bump: analysis.bump,
                                     next: nil, reason: nil, headCommit: head.hex)
        result.unreachableTags = candidates.filter { candidate in base.map { candidate.version > $0.version } ?? true }
            .map { ($0.tag, $0.version) }
        result.unparsedTags = unparsed.filter { tag in
            current.map { VersionOrder.compare(tag.text, $0.description) == .orderedDescending } ?? true
        }.map(\.tag)
        if case .semver = scheme {
            result.bump = VersionPolicy.effectiveBump(current: current?.semantic, bump: analysis.bump, majorOnZero: config.majorOnZero)
        }
        if let base, range.walk.commits.isEmpty {
            result.reason = "HEAD is already released as \(base.tag)"
            result.bump = .none
        } else if analysis.bump == .none {
            let since = base.map { "since \($0.tag)" } ?? "in the history (no release tag yet)"
            result.reason = "no releasable commit \(since): \(Self.describe(analysis))"
            result.bump = .none
        } else {
            switch scheme {
            case .semver:
                result.next = VersionPolicy.next(current: current?.semantic, bump: analysis.bump,
                                                 initialVersion: config.initialVersion, majorOnZero: config.majorOnZero)
                    .map(ReleaseVersion.semantic)
                if result.next == nil { result.reason = "the version cannot be bumped further (a component would overflow)" }
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
        return "\(n) commit\(n == 1 ? "" : "s")" + (order.isEmpty ? "" : " (" + order.map { "\(counts[$0]!) \($0)" }.joined(separator: ", ") + ")")
    }
}
