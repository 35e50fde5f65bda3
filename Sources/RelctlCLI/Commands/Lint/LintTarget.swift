import RelctlCore
import RelctlGit

/// The commits `relctl lint` checks, and the release branch they are on (where a `fixup!` is an error).
struct LintTarget {
    /// Newest first, as `git log` lists them.
    var commits: [CommitRecord]
    /// What the range is, for the summary line and `--json` (`v1.2.0..HEAD`, `main..HEAD`).
    var range: String
    /// HEAD's branch when it is one of `branches`.
    var releaseBranch: String?
}

extension Config {
    /// HEAD's branch in `repository` when `branches` names it (a `fixup!` on it stays in the history for good); nil
    /// elsewhere.
    func currentReleaseBranch(in repository: Repository) throws -> String? {
        guard let branch = try repository.currentBranch(), isReleaseBranch(branch) else { return nil }
        return branch
    }
}

extension LintTarget {

    /// `--range A..B` (git's revisions; `A..` is `A..HEAD`), or by default: on a release branch the commits
    /// since the last release tag (the range `relctl next` reads), elsewhere the commits on HEAD that are not on
    /// the first of `branches` that exists (locally, else as `origin/<branch>`).
    /// With a project (`--project`, or the folder the command runs in), only the commits that count for it (a change
    /// under its folder or a folder it depends on, or its scope): another app's commits are not its to check.
    static func make(_ workspace: Workspace, range: String?) throws -> LintTarget {
        var target = try allCommits(workspace, range: range)
        if workspace.project != nil { target.commits = try target.commits.filter { try workspace.counts($0) } }
        return target
    }

    private static func allCommits(_ workspace: Workspace, range: String?) throws -> LintTarget {
        let repository = workspace.repository, config = workspace.config
        let releaseBranch = try config.currentReleaseBranch(in: repository)
        if let range {
            guard let dots = range.range(of: ".."), !range.contains("...") else {
                throw Problem("--range '\(range)' is not A..B; give two revisions, like 'origin/main..HEAD' or 'v1.2.0..'")
            }
            let from = String(range[..<dots.lowerBound]), to = String(range[dots.upperBound...])
            let base = try commit(from.isEmpty ? "HEAD" : from, option: range, in: repository)
            let head = try commit(to.isEmpty ? "HEAD" : to, option: range, in: repository)
            let walk = try HistoryWalker(repository: repository).walk(from: head, hiding: base)
            return LintTarget(commits: walk.commits, range: range, releaseBranch: releaseBranch)
        }
        if let releaseBranch {
            let analysis = try workspace.analyze()
            return LintTarget(commits: try workspace.rangeRecords(of: analysis), range: analysis.baseTag.map { "\($0)..HEAD" } ?? "HEAD",
                              releaseBranch: releaseBranch)
        }
        guard let head = try repository.headCommit() else {
            throw Problem("the repository has no commits yet; there is nothing to check")
        }
        let literal = config.branches.filter { !$0.hasSuffix("*") }
        for branch in literal {
            for reference in ["refs/heads/\(branch)", "refs/remotes/origin/\(branch)"] {
                guard let tip = try repository.referenceTarget(reference) else { continue }
                let name = reference.hasPrefix("refs/heads/") ? branch : "origin/\(branch)"
                guard let base = try repository.mergeBase(head, tip) else {
                    throw Problem("HEAD shares no history with \(name), so relctl cannot tell which commits are new; pass the commits to check with --range, like --range \(name)..HEAD")
                }
                let walk = try HistoryWalker(repository: repository).walk(from: head, hiding: base)
                return LintTarget(commits: walk.commits, range: "\(name)..HEAD", releaseBranch: nil)
            }
        }
        throw Problem("none of the release branches (\(literal.joined(separator: ", "))) exists here, locally or as origin/<branch>, so relctl cannot tell which commits are new; fetch the release branch, or pass --range, like --range v1.2.0..HEAD")
    }

    private static func commit(_ revision: String, option: String, in repository: Repository) throws -> ObjectID {
        guard let id = try repository.resolveCommit(revision) else {
            throw Problem("--range \(option): '\(revision)' names no commit here; give a branch, a tag or a sha (fetch it first in a CI checkout)")
        }
        return id
    }
}
