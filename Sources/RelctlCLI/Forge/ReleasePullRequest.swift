import Foundation
import RelctlCore
import RelctlFiles
import RelctlGit

/// What `relctl release-pr` was asked to do.
struct ReleasePullRequestRequest {
    var dryRun = false
    var json = false
    var remote = "origin"
}

/// `relctl release-pr`: the next release as one `chore(release): X.Y.Z` commit on top of HEAD, on the branch
/// `relctl/release-<branch>` (force-pushed), and one pull request (GitHub) or merge request (GitLab) from it, labelled
/// pending: created, updated when the release changed, closed when nothing is due. The commit is built from objects
/// only (`Repository.detachedCommit`): the checkout, the index and the current branch stay as they were. Merging it
/// is the only write to the release branch; `relctl release` then only tags (`MergedReleasePullRequest`).
enum ReleasePullRequest {
    static let branchPrefix = "relctl/release-"

    /// What a run did, for the text, `--json` and `$GITHUB_OUTPUT`.
    struct Report {
        /// created, updated, closed, none.
        var action = "none"
        var version: String?
        var tag: String?
        var bump: Bump = .none
        var branch: String
        var commit: String?
        var number: Int?
        var url: String?
        var dryRun: Bool
        var reason: String?
        var title: String?
        var body: String?

        var json: JSONOutput {
            .object([("schemaVersion", .int(1)), ("action", .string(action)), ("version", .optional(version)),
                     ("tag", .optional(tag)), ("bump", .string(bump.description)), ("branch", .string(branch)),
                     ("commit", .optional(commit)), ("prNumber", number.map { .int($0) } ?? .null), ("prUrl", .optional(url)),
                     ("title", .optional(title)), ("body", .optional(body)), ("reason", .optional(reason)), ("dryRun", .bool(dryRun))])
        }

        var ciOutputs: [(name: String, value: String)] {
            [("action", action), ("version", version ?? ""), ("pr_number", number.map(String.init) ?? ""), ("pr_url", url ?? "")]
        }
    }

    static func run(_ request: ReleasePullRequestRequest, workspace: Workspace, context: CommandContext) throws {
        let output = context.output
        let repository = workspace.repository
        let config = workspace.config
        if !config.projects.isEmpty {
            throw Problem("relctl release-pr makes one pull request for a repository with one version, and \(workspace.configDisplayPath) lists projects (\(ProjectSelection.list(config.projects))); release them with 'relctl release --project NAME --push' (or --all)")
        }
        guard let branch = try repository.currentBranch() else {
            throw Problem("HEAD is detached; check out the release branch (\(config.branches.joined(separator: ", "))) and rerun 'relctl release-pr'")
        }
        if branch.hasPrefix(branchPrefix) {
            throw Problem("'\(branch)' is a release pull request's own branch; check out the branch it releases ('\(branch.dropFirst(branchPrefix.count))') and rerun 'relctl release-pr'")
        }
        guard config.isReleaseBranch(branch) else {
            throw Problem("'\(branch)' is not a release branch (\(config.branches.joined(separator: ", "))); check out one, or add it to \"branches\" in \(workspace.configDisplayPath)")
        }
        if let interrupted = try InterruptedRelease.find(gitDir: repository.gitDir), !interrupted.running {
            throw Problem("\(interrupted.journal.what) was interrupted (\(TransactionJournal.path(gitDir: repository.gitDir)), stopped after step '\(interrupted.journal.lastStep)'); \(interrupted.advice)")
        }
        let prBranch = branchPrefix + branch
        var report = Report(branch: prBranch, dryRun: request.dryRun)
        // The forge first: without it (or its token) nothing is pushed. A dry run needs neither: it says so and
        // goes on.
        var target: ForgeReleases.Target?
        do {
            target = try self.target(workspace: workspace, remote: request.remote, context: context)
        } catch let failure as Problem where request.dryRun {
            output.warning("\(failure.message) (the dry run goes on without the forge)")
        }

        let analysis = try workspace.analyze()
        if analysis.cannotNumber, let reason = analysis.reason { throw Problem(reason) }
        if let channel = analysis.track.channel {
            throw Problem("'\(branch)' releases \(channel) prereleases, and a release pull request makes stable releases only; release the prerelease directly ('relctl release --push'), or run 'relctl release-pr' on a stable branch (\(workspace.config.mainBranch(in: workspace.repository)))")
        }
        if let merged = try MergedReleasePullRequest.find(workspace: workspace, analysis: analysis) {
            // The request was merged and the release is not tagged yet: nothing to propose.
            report.version = merged.version
            report.tag = merged.tag
            let at = merged.below == 0 ? "HEAD" : "\(merged.head.hex.prefix(12)) (\(merged.below) commit\(merged.below == 1 ? "" : "s") below HEAD)"
            report.reason = "\(at) is the merged release \(merged.version), not tagged yet"
            output.message("\(at) is the merged release pull request of \(merged.version) (not tagged yet): 'relctl release --push' tags it as \(merged.tag)\(merged.below == 0 ? "; no pull request to make" : " first; then rerun 'relctl release-pr' for the commits after it")")
            return finish(report, request: request, context: context)
        }
        let outOfRange = analysis.rangeProblems(mainBranch: workspace.config.mainBranch(in: workspace.repository))
        if !outOfRange.isEmpty { throw PreflightFailure(problems: outOfRange.map { Problem($0) }) }
        let floor = workspace.versionFloor()
        if let problem = BaseCheck(workspace).backwardsProblem(analysis, floor: floor) { throw PreflightFailure(problems: [Problem(problem)]) }
        for note in BaseCheck(workspace).baseNotes(analysis, floor: floor) { output.note(note) }

        var refs: [String: ObjectID]?
        do {
            refs = try Publishing.remoteReferences(repository, remote: request.remote, environment: context.environment)
        } catch let failure as Problem where request.dryRun {
            output.warning("\(failure.message) (the dry run goes on without it)")
        }
        var open: [ReleasePullRequestForge.Request] = []
        if let target {
            open = try forge { () throws(Problem) in
                try ReleasePullRequestForge.open(from: prBranch, target: target, environment: context.environment)
            }
            for extra in open.dropFirst() {
                output.warning("\(ReleasePullRequestForge.name(extra, target)) is also open from \(prBranch); relctl keeps \(ReleasePullRequestForge.name(open[0], target)) up to date: close the other by hand")
            }
        }
        let existing = open.first
        let kind = target.map(ReleasePullRequestForge.kind) ?? "pull request"

        guard let next = analysis.next else {
            report.reason = analysis.reason ?? "no release is due"
            guard let target, let existing else {
                output.message("\(report.reason ?? ""); no \(kind) is open from \(prBranch): nothing to do")
                return finish(report, request: request, context: context)
            }
            return try nothingDue(existing, report: report, refs: refs ?? [:], request: request, target: target, workspace: workspace, context: context)
        }
        let plan = try ReleasePlanner.plan(workspace: workspace, analysis: analysis, version: next, environment: context.environment)
        var preflight = try Preflight.check(plan, workspace: workspace, analysis: analysis, push: false, remote: request.remote,
                                            allowDirty: true, context: context)
        // The request is made from the remote's branch as this clone has it: never from commits only here, never
        // from an older state of it.
        if let refs, let remoteHead = refs["refs/heads/\(branch)"] {
            if remoteHead != plan.head {
                let known = try repository.contains(remoteHead)
                if known, try repository.isAncestor(remoteHead, of: plan.head) {
                    preflight.problems.append(Problem("'\(branch)' has commits that are not on '\(request.remote)' (\(plan.head.hex.prefix(12)) here, \(remoteHead.hex.prefix(12)) there); the release pull request is made from what '\(request.remote)/\(branch)' holds: push them first (through a pull request where \(branch) is protected), or reset to it (git reset --keep \(request.remote)/\(branch)), then rerun 'relctl release-pr'"))
                } else {
                    preflight.problems.append(Problem("'\(request.remote)/\(branch)' has commits this clone does not have; pull them with their tags (git pull --rebase --tags \(request.remote) \(branch)) and rerun 'relctl release-pr'"))
                }
            }
        } else if refs != nil {
            preflight.problems.append(Problem("'\(branch)' is not on '\(request.remote)'; push it first (git push \(request.remote) \(branch)), then rerun 'relctl release-pr'"))
        }
        if refs?["refs/tags/\(plan.tag)"] != nil {
            preflight.problems.append(Problem("tag \(plan.tag) already exists on '\(request.remote)' (another release published it); pull it with its tags (git pull --rebase --tags \(request.remote) \(branch)) and rerun 'relctl release-pr'"))
        }
        if !preflight.problems.isEmpty { throw PreflightFailure(problems: preflight.problems) }

        let title = String(plan.commitMessage.prefix { $0 != "\n" })
        let body = self.body(plan, workspace: workspace)
        report.version = plan.version
        report.tag = plan.tag
        report.bump = plan.bump
        report.title = title
        report.body = body
        let files = plan.writes.map { write in
            (path: LexicalPath.relative(write.path, to: repository.workdir ?? plan.root) ?? plan.relativePath(write), bytes: write.newBytes)
        }
        if let notice = plan.notice {
            output.note("major release \(notice.version): the \(kind) is the review of its breaking changes and merging it is the confirmation (no --confirm-major); min_supported_version is not changed: the floor decision waits for 'relctl gate' once \(notice.version) is live")
        }
        if request.dryRun {
            report.action = existing == nil ? "created" : "updated"
            let what = target.flatMap { target in existing.map { "update \(ReleasePullRequestForge.name($0, target))" } }
                ?? (target == nil ? "create or update a \(kind) into \(branch)" : "create a \(kind) into \(branch)")
            output.message("dry run: would force-push \(prBranch) with '\(title)' on \(plan.head.hex.prefix(12)) (\(files.count) file\(files.count == 1 ? "" : "s"): \(files.map(\.path).joined(separator: ", "))) and \(what); nothing was pushed or changed")
            report.number = existing?.number
            report.url = existing?.url
            if request.json {
                output.result(report.json.rendered())
            } else {
                output.resultText("\(title)\n\n\(body)")
            }
            return
        }
        guard let identities = plan.identities, let target, let refs else { throw Problem.internalError("preflight passed without an identity, the forge or the remote") }

        // The commit, from objects only; the branch moved only when the release changed (a rerun with nothing new
        // keeps the commit the request already shows).
        let remoteRef = "refs/heads/\(prBranch)"
        var commit = try repository.detachedCommit(on: plan.head, files: files, message: plan.commitMessage, identities: identities)
        var kept = false
        if let there = refs[remoteRef], try repository.contains(there), try repository.parents(of: there) == [plan.head],
           try repository.commitMessage(there) == plan.commitMessage, try repository.sameTrees(there, commit) {
            commit = there
            kept = true
        }
        try repository.forceReference(remoteRef, to: commit, message: "relctl: release pull request \(plan.version)")
        report.commit = commit.hex
        if kept {
            output.message("\(prBranch) on '\(request.remote)' already holds '\(title)' on \(plan.head.hex.prefix(12)) (\(commit.hex.prefix(12))): not pushed again")
        } else {
            try pushBranch(prBranch, repository: repository, remote: request.remote, environment: context.environment, title: title)
            output.message("pushed \(prBranch) to '\(request.remote)': '\(title)' on \(plan.head.hex.prefix(12)) (\(commit.hex.prefix(12)), \(files.count) file\(files.count == 1 ? "" : "s"): \(files.map(\.path).joined(separator: ", ")))")
        }

        let made = try forge(after: "\(prBranch) is on '\(request.remote)' with '\(title)', but its \(kind)") { () throws(Problem) in
            if let existing {
                return try ReleasePullRequestForge.update(existing, title: title, body: body, base: branch, target: target, environment: context.environment)
            }
            return try ReleasePullRequestForge.create(from: prBranch, into: branch, title: title, body: body, target: target,
                                                      environment: context.environment)
        }
        report.action = existing == nil ? "created" : "updated"
        report.number = made.number
        report.url = made.url
        output.message("\(report.action) \(ReleasePullRequestForge.name(made, target)) '\(title)' (labelled '\(ReleasePullRequestForge.pendingLabel)'): \(made.url)")
        finish(report, request: request, context: context)
    }

    // MARK: Nothing due

    static func nothingDue(_ existing: ReleasePullRequestForge.Request, report: Report, refs: [String: ObjectID],
                           request: ReleasePullRequestRequest, target: ForgeReleases.Target, workspace: Workspace,
                           context: CommandContext) throws {
        var report = report
        let output = context.output
        let reason = report.reason ?? "no release is due"
        let name = ReleasePullRequestForge.name(existing, target)
        report.number = existing.number
        report.url = existing.url
        report.action = "closed"
        let remoteRef = "refs/heads/\(report.branch)"
        if request.dryRun {
            output.message("dry run: \(reason); would close \(name) and delete \(report.branch) from '\(request.remote)'; nothing was changed")
            return finish(report, request: request, context: context)
        }
        try forge(after: "nothing is due, but \(name)") { () throws(Problem) in
            try ReleasePullRequestForge.close(existing, target: target, environment: context.environment)
        }
        var deleted = ""
        if refs[remoteRef] != nil {
            do {
                let result = try workspace.repository.push(remote: request.remote, refspecs: [":\(remoteRef)"], environment: context.environment)
                if let why = result.rejected[remoteRef] {
                    output.warning("\(report.branch) stays on '\(request.remote)': its deletion was refused (\(why)); delete it by hand (git push \(request.remote) --delete \(report.branch))")
                } else {
                    deleted = " and deleted \(report.branch) from '\(request.remote)'"
                }
            } catch {
                output.warning("\(report.branch) stays on '\(request.remote)': \(error.message); delete it by hand (git push \(request.remote) --delete \(report.branch))")
            }
        }
        try? workspace.repository.deleteReference(remoteRef)
        output.message("\(reason): closed \(name)\(deleted): \(existing.url)")
        finish(report, request: request, context: context)
    }

    static func finish(_ report: Report, request: ReleasePullRequestRequest, context: CommandContext) {
        if request.json {
            context.output.result(report.json.rendered())
        } else if let url = report.url, report.action != "none" {
            context.output.result(url)
        }
        if !request.dryRun { context.ci?.publish(outputs: report.ciOutputs, output: context.output) }
    }

    // MARK: The body

    /// The changelog section and, for a major release, what merging means and the floor decision that waits.
    static func body(_ plan: ReleasePlan, workspace: Workspace) -> String {
        var text = ForgePublishing.normalized(plan.changelogSection ?? ReleasePullRequest.notes(plan))
        if let notice = plan.notice {
            text += "\n---\n\n"
            text += "**Major release \(notice.version).** Merging this pull request is the confirmation a major release needs: `relctl release` then tags \(notice.tag) without `--confirm-major`. The breaking changes:\n\n"
            for change in notice.breakingChanges {
                text += "- \(change.summary) (\(change.sha.prefix(12)))\n"
            }
            text += "\n\(notice.decision)\n\n\(notice.instruction). `\(workspace.markerRelativePath)` is committed with the release and stays until `relctl gate` records that decision.\n"
        }
        text += "\n<sub>Made by `relctl release-pr`; rerunning it updates this request, and closes it when nothing is due.</sub>\n"
        return text
    }

    static func notes(_ plan: ReleasePlan) -> String {
        ForgePublishing.notes(fromTagMessage: plan.tagMessage, tag: plan.tag)
    }

    // MARK: Forge and push

    static func target(workspace: Workspace, remote: String, context: CommandContext) throws -> ForgeReleases.Target {
        let repository = workspace.repository
        guard let url = repository.remoteURL(remote) else {
            throw Problem("no remote '\(remote)' in this repository; add it (git remote add \(remote) <url>) or name another with --remote")
        }
        var config = workspace.config
        // The request is wanted even when forge releases are turned off: only the forge's identity is read here.
        config.forgeSettings?.releases = nil
        switch ForgeReleases.resolve(config: config, remoteURL: url, environment: context.environment) {
        case .off:
            throw Problem("'\(remote)' is not on GitHub or GitLab (its URL does not say so) and \(workspace.configDisplayPath) names no forge, so no release pull request can be made; set \"forge\": {\"provider\": \"github\", \"repository\": \"owner/name\"} (or \"gitlab\"), or release directly with 'relctl release --push'")
        case .unavailable(let why):
            let variables = why.contains("GITHUB_TOKEN") ? ForgeReleases.githubTokens : ForgeReleases.gitlabTokens
            if why.hasPrefix("no ") && why.contains("is set") {
                throw Problem("no \(variables.joined(separator: " or ")) is set, so the release pull request cannot be made; set \(variables[0]) (a token that may push branches and write \(variables[0].hasPrefix("GITHUB") ? "pull requests" : "merge requests")) and rerun 'relctl release-pr'; nothing was pushed")
            }
            throw Problem(why.replacingOccurrences(of: "release is not made", with: "release pull request is not made") + "; nothing was pushed")
        case .target(let target):
            return target
        }
    }

    /// Force-pushes the release pull request's branch (relctl's own: nothing else writes it).
    static func pushBranch(_ branch: String, repository: Repository, remote: String, environment: [String: String], title: String) throws {
        let ref = "refs/heads/\(branch)"
        do {
            let result = try repository.push(remote: remote, refspecs: ["+\(ref):\(ref)"], environment: environment)
            if let why = result.rejected[ref] {
                throw Problem("push of \(branch) to '\(remote)' was refused (\(why)); nothing was published: let the token push branches named \(branchPrefix)* (branch protection, push rules) and rerun 'relctl release-pr'")
            }
        } catch let error as GitError {
            throw Problem("push of \(branch) to '\(remote)' failed (\(error.message)); nothing was published: fix the cause (credentials, network) and rerun 'relctl release-pr'")
        }
    }

    /// Runs a forge call; its failure in one line. `after`: what exists already (the branch pushed), said first.
    @discardableResult
    static func forge<T>(after: String? = nil, _ body: () throws(Problem) -> T) throws -> T {
        do {
            return try body()
        } catch {
            if let after {
                throw Problem("\(after) was not made: \(error.message); fix the cause and rerun 'relctl release-pr' (it finds the branch and the request and finishes)")
            }
            throw Problem("the release pull request was not made: \(error.message); nothing was pushed: fix the cause and rerun 'relctl release-pr'")
        }
    }
}
