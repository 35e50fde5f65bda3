import Foundation
import RelctlCore
import RelctlGit

/// What the history says about the next release: the base tag, the commits since, the bump and the version.
struct ReleaseAnalysis {
    var baseTag: String?
    var current: SemanticVersion?
    var commits: CommitAnalysis
    var bump: Bump
    var next: SemanticVersion?
    /// Why there is no release, when `next` is nil.
    var reason: String?
    var headCommit: String
}

/// The repository a command works on, opened once.
struct Workspace {
    let repository: Repository
    let root: String
    let config: Config

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
        let workspace = Workspace(repository: repository, root: root, config: config)
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
        // Stable semver tags of our format, highest first; only names are read here, objects on demand.
        let literalPrefix = String(config.tagFormat.prefix { $0 != "{" })
        var candidates: [(version: SemanticVersion, tag: String)] = []
        for name in try repository.tagNames(prefix: literalPrefix) {
            if let version = format.version(fromTag: name), version.isStable {
                candidates.append((version, name))
            }
        }
        // All candidates are stable, so precedence is the numeric triple (cheaper than full SemVer comparison).
        candidates.sort { a, b in
            let x = (a.version.major, a.version.minor, a.version.patch), y = (b.version.major, b.version.minor, b.version.patch)
            return x != y ? x > y : a.tag < b.tag
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
        let bump = VersionPolicy.effectiveBump(current: current, bump: analysis.bump, majorOnZero: config.majorOnZero)
        var result = ReleaseAnalysis(baseTag: base?.tag, current: current, commits: analysis, bump: bump,
                                     next: nil, reason: nil, headCommit: head.hex)
        if let base, range.walk.commits.isEmpty {
            result.reason = "HEAD is already released as \(base.tag)"
            result.bump = .none
        } else if analysis.bump == .none {
            let since = base.map { "since \($0.tag)" } ?? "in the history (no release tag yet)"
            result.reason = "no releasable commit \(since): \(Self.describe(analysis))"
            result.bump = .none
        } else {
            result.next = VersionPolicy.next(current: current, bump: analysis.bump,
                                             initialVersion: config.initialVersion, majorOnZero: config.majorOnZero)
            if result.next == nil { result.reason = "the version cannot be bumped further (a component would overflow)" }
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
