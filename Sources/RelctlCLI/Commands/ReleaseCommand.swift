import Foundation
import RelctlCore
import RelctlFiles
import RelctlGit

/// `relctl release`: compute → sync files → changelog → commit → tag → (push), all or nothing.
enum ReleaseCommand {
    static let spec = CommandSpec(
        name: "release",
        summary: "Release the next version: sync version files, write the changelog, commit, tag, and push.",
        options: [
            .dryRun,
            .flag("--push", "Push the branch and the tag to the remote after tagging."),
            .value("--remote", "NAME", "The remote to push to (default: origin)."),
            .flag("--confirm-major", "Go ahead with a major release when onMajor is \"halt\"."),
            .flag("--allow-dirty", "Release even with uncommitted or untracked files (they are not committed)."),
            .value("--build", "N", "Use build number N for iOS and Android instead of the buildNumber strategy."),
            .json, .repo, .config,
        ],
        discussion: """
        Steps: preflight (clean work tree, release branch, history reaching the last tag, tag free locally and
        on the remote, committer identity, every file edit valid and store rules met, no other release
        running), then write the version files, the changelog and (for a major) .major-release-pending,
        commit them, create the annotated tag, and push with --push. Any failure after the first write
        restores every file and moves the branch back: nothing half-made is left. When a push fails, the
        release stays made locally; rerunning 'relctl release --push' finds it and only pushes.

        --dry-run prints the plan (version and why, each file's diff, the changelog section, the commit
        message and the tag) and changes nothing; it needs no push rights.

        Never backwards: a version lower than a version file holds (or equal to it, once a release tag exists),
        or a first release below release tags HEAD cannot see, is refused before anything is planned, in a dry
        run too, with the fix ('relctl adopt' for an app already in the stores, 'git merge <tag>' for a release
        branch never merged back). --build N sets both stores' build number for this release (it must be
        higher than the current one).

        A MAJOR release never touches min_supported_version. It prints a banner, writes
        .major-release-pending into the release commit, and under GitHub Actions emits a warning annotation
        and writes version, bump, tag and major_pending to $GITHUB_OUTPUT. With "onMajor": "halt" it stops
        before any write until rerun with --confirm-major.

        EXIT CODES:
          0   released, or nothing to release (the reason on stderr)
          1   failure (preflight, write, commit, tag or push), with the fix on stderr
          3   halted before a major release (onMajor "halt" without --confirm-major)
          64  usage error
        """,
        run: run)

    static let markerFile = ".major-release-pending"

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        let dryRun = arguments.has("--dry-run")
        let push = arguments.has("--push")
        let remote = arguments.value("--remote") ?? "origin"
        let build = try arguments.value("--build").map(SyncCommand.parseBuild)
        if arguments.value("--remote") != nil && !push && !dryRun {
            throw UsageError(message: "--remote goes with --push", usage: spec.usage)
        }
        let workspace = try Workspace.open(arguments, context)
        // A dry run takes no lock: it writes nothing and may run beside a real release.
        let lock = dryRun ? nil : try RepositoryLock.acquire(gitDir: workspace.repository.gitDir)
        defer { lock?.release() }

        let analysis = try workspace.analyze()
        if analysis.cannotNumber, let reason = analysis.reason { throw CLIFailure(message: reason) }
        // Never a version backwards, in a dry run too: refused before anything is planned.
        let floor = workspace.versionFloor()
        if let problem = workspace.backwardsProblem(analysis, floor: floor) {
            context.output.error(problem)
            context.output.message("nothing was changed (1 preflight problem)")
            return ExitCode.failure
        }
        for note in workspace.baseNotes(analysis, floor: floor) { context.output.note(note) }
        guard let next = analysis.next else {
            return try nothingToRelease(analysis, workspace: workspace, push: push, remote: remote, dryRun: dryRun,
                                        arguments: arguments, context: context)
        }
        var plan = try ReleasePlan.make(workspace: workspace, analysis: analysis, version: next, build: build, context: context)
        var problems = try plan.preflight(workspace: workspace, analysis: analysis, push: push, remote: remote,
                                          allowDirty: arguments.has("--allow-dirty"), context: context)
        if dryRun, let unreachable = plan.unreachableRemote {
            // A dry run needs no push rights: an unreachable remote is the one problem it only warns about.
            context.output.warning(unreachable)
            problems.removeAll { $0 == unreachable }
        }
        if !problems.isEmpty {
            for problem in problems { context.output.error(problem) }
            // A dry run fails exactly as the real run would: same lines, same exit code.
            context.output.message("nothing was changed (\(problems.count) preflight problem\(problems.count == 1 ? "" : "s"))")
            return ExitCode.failure
        }
        if let notice = plan.notice {
            printBanner(notice, context: context)
            if workspace.config.onMajor == .halt && !arguments.has("--confirm-major") && !dryRun {
                context.output.error("halted before major release \(plan.version) (onMajor is \"halt\"); nothing was changed. Review the breaking changes, then rerun with --confirm-major")
                return ExitCode.haltedForMajor
            }
        }
        if dryRun {
            printPlan(plan, analysis: analysis, push: push, remote: remote, arguments: arguments, context: context)
            return ExitCode.success
        }
        let result = try plan.apply(workspace: workspace, push: push, remote: remote, context: context)
        report(plan, analysis: analysis, result: result, arguments: arguments, context: context)
        return result.pushFailure == nil ? ExitCode.success : ExitCode.failure
    }

    // MARK: Nothing to release, or a release made locally and not yet pushed

    static func nothingToRelease(_ analysis: ReleaseAnalysis, workspace: Workspace, push: Bool, remote: String, dryRun: Bool,
                                 arguments: ParsedArguments, context: CommandContext) throws -> Int32 {
        // The last release may have been made locally by a run whose push failed. With --push, finish that.
        if push, let tag = analysis.baseTag {
            let repository = workspace.repository
            guard let branch = try repository.headReferenceName(), let head = try repository.headCommit() else {
                throw CLIFailure(message: "HEAD is detached; check out the release branch to push \(tag)")
            }
            let short = shortBranch(branch)
            let remoteRefs = try remoteReferences(repository, remote: remote, context: context)
            var pushed = false
            switch try baseTagState(tag, repository: repository, branch: branch, head: head, remoteRefs: remoteRefs, remote: remote) {
            case .published:
                context.output.message("\(analysis.reason ?? "no release is due"); \(tag) is already on '\(remote)'")
            case .unpublished(let branchOnRemote):
                guard workspace.config.branches.contains(where: { ReleasePlan.matches(short, pattern: $0) }) else {
                    throw CLIFailure(message: "\(tag) is released locally but not on '\(remote)', and '\(short)' is not a release branch (\(workspace.config.branches.joined(separator: ", "))); check out the branch that holds the release and rerun 'relctl release --push'")
                }
                if dryRun {
                    context.output.message("\(tag) is released locally but not on '\(remote)'; 'relctl release --push' would push \(branchOnRemote ? "" : "\(short) and ")the tag")
                } else {
                    context.output.message("\(tag) is released locally but not on '\(remote)': pushing it")
                    try pushRelease(repository, branch: branch, tags: [tag], remote: remote, context: context, branchAlreadyThere: branchOnRemote)
                    context.output.message("pushed \(branchOnRemote ? "" : "\(short) and ")\(tag) to '\(remote)'")
                    pushed = true
                }
            }
            if arguments.has("--json") {
                context.output.result(JSONOutput.object([
                    ("schemaVersion", .int(1)), ("version", .optional(analysis.current?.description)),
                    ("previousVersion", .null), ("bump", .string("none")), ("tag", .string(tag)),
                    ("commit", .string(analysis.headCommit)), ("files", .array([])), ("changelog", .null),
                    ("pushed", .bool(pushed)), ("majorPending", .bool(workspace.pendingMajor != nil)), ("dryRun", .bool(dryRun)),
                ]).rendered())
            }
            if pushed {
                GitHubActions.writeOutputs(context: context, version: analysis.current?.description, bump: .none, tag: tag,
                                           majorPending: workspace.pendingMajor != nil)
            }
            return ExitCode.success
        }
        context.output.message(analysis.reason ?? "no release is due")
        if arguments.has("--json") {
            context.output.result(JSONOutput.object([
                ("schemaVersion", .int(1)), ("version", .null), ("previousVersion", .optional(analysis.current?.description)),
                ("bump", .string("none")), ("tag", .null), ("commit", .null), ("files", .array([])), ("changelog", .null),
                ("pushed", .bool(false)), ("majorPending", .bool(workspace.pendingMajor != nil)), ("dryRun", .bool(dryRun)),
                ("reason", .optional(analysis.reason)),
            ]).rendered())
        }
        GitHubActions.writeOutputs(context: context, version: nil, bump: .none, tag: nil, majorPending: workspace.pendingMajor != nil)
        return ExitCode.success
    }

    static func remoteReferences(_ repository: Repository, remote: String, context: CommandContext) throws -> [String: ObjectID] {
        do {
            return try repository.remoteReferences(remote, environment: context.environment)
        } catch {
            throw CLIFailure(message: "cannot reach remote '\(remote)': \(error.message); check the remote URL and the push credentials (RELCTL_GIT_TOKEN or GITHUB_TOKEN for HTTPS, an SSH agent for SSH)")
        }
    }

    static func shortBranch(_ branch: String) -> String {
        branch.hasPrefix("refs/heads/") ? String(branch.dropFirst("refs/heads/".count)) : branch
    }

    /// Where a release tag made here stands on the remote.
    enum BaseTagState: Equatable {
        case published
        /// Not on the remote; `branchOnRemote`: the remote branch already holds the tagged commit.
        case unpublished(branchOnRemote: Bool)
    }

    /// Whether the release tag `tag` (made in this clone) is on the remote, and whether publishing it now is
    /// safe. Throws, with the fix, when the remote has another tag of that name (another clone released it
    /// first) or when the remote branch moved on without the release.
    static func baseTagState(_ tag: String, repository: Repository, branch: String, head: ObjectID,
                             remoteRefs: [String: ObjectID], remote: String) throws -> BaseTagState {
        guard let local = try repository.tag(named: tag), let tagCommit = try repository.commit(of: local) else {
            throw CLIFailure(message: "cannot read tag \(tag); check it with 'git show \(tag)'")
        }
        let short = shortBranch(branch)
        if let remoteTag = remoteRefs["refs/tags/\(tag)"] {
            if remoteTag == local.target { return .published }
            throw CLIFailure(message: "tag \(tag) on '\(remote)' is not the one made here (\(remoteTag.hex.prefix(12)) there, \(local.target.hex.prefix(12)) here): another release published \(tag) first and this clone's release was never published; delete the local release (git tag -d \(tag)), reset \(short) to '\(remote)/\(short)' after 'git fetch --tags \(remote)', and release again")
        }
        if let remoteHead = remoteRefs[branch] {
            guard try repository.contains(remoteHead) else {
                throw CLIFailure(message: "'\(remote)/\(short)' has commits this clone does not have; fetch them (git fetch \(remote)) and rerun 'relctl release --push'")
            }
            if try repository.isAncestor(tagCommit, of: remoteHead) { return .unpublished(branchOnRemote: true) }
            if try !repository.isAncestor(remoteHead, of: head) {
                throw CLIFailure(message: "\(tag) was released locally but '\(remote)/\(short)' has moved on without it; rebase onto it (git pull --rebase \(remote) \(short)), delete the local tag (git tag -d \(tag)) and its changelog section, and release again")
            }
        }
        return .unpublished(branchOnRemote: false)
    }

    /// Publishes a release: the branch first, then the tags, so the remote never holds a release tag whose
    /// commit is not on its branch (a tag-triggered store build would ship it). A failure leaves the release
    /// made locally; rerunning `relctl release --push` finds it and pushes what is missing.
    static func pushRelease(_ repository: Repository, branch: String, tags: [String], remote: String, context: CommandContext,
                            branchAlreadyThere: Bool = false) throws {
        let short = shortBranch(branch)
        let tag = tags.last ?? ""
        let rerun = "fix the cause (credentials, branch protection, network) and rerun 'relctl release --push', which finds the release made locally and only pushes"
        func push(_ ref: String) throws -> String? {
            do {
                let result = try repository.push(remote: remote, refspecs: ["\(ref):\(ref)"], environment: context.environment)
                return result.rejected.isEmpty ? nil : result.rejected.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")
            } catch {
                return error.message
            }
        }
        if !branchAlreadyThere, let why = try push(branch) {
            throw CLIFailure(message: "push of \(short) to '\(remote)' failed (\(why)); nothing was published, and the release \(tag) is committed and tagged locally: \(rerun)")
        }
        for name in tags {
            if let why = try push("refs/tags/\(name)") {
                throw CLIFailure(message: "\(short) is on '\(remote)' but the tag \(name) was refused (\(why)): \(rerun), or push the tag by hand: git push \(remote) refs/tags/\(name)")
            }
        }
    }

    // MARK: Output

    static func printBanner(_ notice: MajorReleaseNotice, context: CommandContext) {
        let env = context.environment
        let noColor = !(env["NO_COLOR"] ?? "").isEmpty
        // GitLab renders ANSI colours in job logs even though stderr is not a terminal.
        let colored = !noColor && (context.output.colorErr || env["GITLAB_CI"] == "true")
        context.output.message(notice.banner(colored: colored))
        if env["GITHUB_ACTIONS"] == "true" { context.output.message(notice.githubAnnotation()) }
    }

    static func printPlan(_ plan: ReleasePlan, analysis: ReleaseAnalysis, push: Bool, remote: String,
                          arguments: ParsedArguments, context: CommandContext) {
        let out = context.output
        if arguments.has("--json") {
            out.result(json(plan, commit: nil, pushed: false, dryRun: true).rendered())
            return
        }
        var text = "relctl release --dry-run: nothing will be changed\n\n"
        if let current = analysis.current {
            text += "version:  \(plan.version) (\(plan.bump) bump from \(current))\n"
        } else {
            text += "version:  \(plan.version) (first release: initialVersion, no release tag yet)\n"
        }
        text += "tag:      \(plan.tag)\n"
        text += "branch:   \(plan.branch ?? "(detached HEAD)")\(push ? ", pushed to '\(remote)'" : "")\n\n"
        let counted = analysis.commits.commits.filter(\.counted)
        text += "why: \(counted.count) of \(analysis.commits.commits.count) commit\(analysis.commits.commits.count == 1 ? "" : "s") since \(analysis.baseTag ?? "the start") count toward the release\n"
        for commit in counted.reversed() {
            text += "  \(commit.sha.prefix(7)) \(commit.bump)  \(commit.summary)\n"
        }
        text += "\nfiles:\n"
        if plan.writes.isEmpty { text += "  (none)\n" }
        for write in plan.writes {
            let relative = plan.relativePath(write)
            text += "  \(relative)\(write.oldBytes == nil ? " (new)" : "")\n"
        }
        text += "\n"
        for write in plan.writes {
            let relative = plan.relativePath(write)
            text += UnifiedDiff.render(old: write.oldBytes, new: write.newBytes, path: relative)
        }
        if let section = plan.changelogSection {
            text += "\nchangelog section:\n\n" + section
        }
        text += "\ncommit message:\n" + indented(plan.commitMessage)
        text += "\ntag \(plan.tag) message:\n" + indented(plan.tagMessage)
        out.resultText(text)
    }

    /// Each line indented by two spaces (blank lines stay empty), trailing blank lines dropped.
    static func indented(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        return lines.map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n") + "\n"
    }

    static func json(_ plan: ReleasePlan, commit: String?, pushed: Bool, dryRun: Bool) -> JSONOutput {
        .object([
            ("schemaVersion", .int(1)),
            ("version", .string(plan.version)),
            ("previousVersion", .optional(plan.previousVersion)),
            ("bump", .string(plan.bump.description)),
            ("tag", .string(plan.tag)),
            ("commit", .optional(commit)),
            ("files", .array(plan.changedPaths.map { .string($0) })),
            ("changelog", .optional(plan.changelogSection)),
            ("pushed", .bool(pushed)),
            ("majorPending", .bool(plan.notice != nil)),
            ("dryRun", .bool(dryRun)),
        ])
    }

    static func report(_ plan: ReleasePlan, analysis: ReleaseAnalysis, result: ReleasePlan.Outcome,
                       arguments: ParsedArguments, context: CommandContext) {
        let out = context.output
        out.message("released \(plan.version) (\(plan.bump)) as \(plan.tag): commit \(result.commit.prefix(12)), \(plan.changedPaths.count) file\(plan.changedPaths.count == 1 ? "" : "s") (\(plan.changedPaths.joined(separator: ", ")))")
        if result.pushed { out.message("pushed \(plan.branch ?? "HEAD") and \(plan.tag) to '\(result.remote)'") }
        if let failure = result.pushFailure { out.error(failure) }
        if arguments.has("--json") {
            out.result(json(plan, commit: result.commit, pushed: result.pushed, dryRun: false).rendered())
        } else {
            out.result(plan.version)
        }
        GitHubActions.writeOutputs(context: context, version: plan.version, bump: plan.bump, tag: plan.tag, majorPending: plan.notice != nil)
        GitHubActions.writeSummary(context: context, plan: plan, pushed: result.pushed)
    }
}

/// `$GITHUB_OUTPUT` and `$GITHUB_STEP_SUMMARY`, only under GitHub Actions.
enum GitHubActions {
    static func append(_ text: String, toFileIn variable: String, context: CommandContext) {
        guard context.environment["GITHUB_ACTIONS"] == "true", let path = context.environment[variable], !path.isEmpty else { return }
        guard let handle = FileHandle(forWritingAtPath: path) ?? {
            FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        }() else {
            context.output.warning("cannot write \(variable) file \(path)")
            return
        }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: Data(text.utf8))
    }

    static func writeOutputs(context: CommandContext, version: String?, bump: Bump, tag: String?, majorPending: Bool) {
        append("version=\(version ?? "")\nbump=\(bump)\ntag=\(tag ?? "")\nmajor_pending=\(majorPending)\n",
               toFileIn: "GITHUB_OUTPUT", context: context)
    }

    static func writeSummary(context: CommandContext, plan: ReleasePlan, pushed: Bool) {
        var text = "### relctl released \(plan.version)\n\n"
        text += "- bump: **\(plan.bump)** (from \(plan.previousVersion ?? "no previous release"))\n- tag: `\(plan.tag)`\(pushed ? " (pushed)" : "")\n"
        text += "- files: \(plan.changedPaths.map { "`\($0)`" }.joined(separator: ", "))\n"
        if let notice = plan.notice {
            text += "\n> [!WARNING]\n> **Major release \(notice.version).** `min_supported_version` was NOT changed. Raise it only after "
                + "the new build is live in both stores: `\(MajorReleaseNotice.raiseCommand(version: notice.version))`\n"
        }
        append(text + "\n", toFileIn: "GITHUB_STEP_SUMMARY", context: context)
    }
}
