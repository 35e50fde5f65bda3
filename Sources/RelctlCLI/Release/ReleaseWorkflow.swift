import RelctlCore
import RelctlFiles
import RelctlGit

/// What `relctl release` was asked to do.
struct ReleaseRequest {
    var dryRun = false
    var push = false
    var remote = "origin"
    var confirmMajor = false
    var allowDirty = false
    /// `--include-config`: commit an untracked or edited `.relctl.json` with the release.
    var includeConfig = false
    /// `--build N`: both stores' build number, instead of the buildNumber strategy.
    var build: String?
    var json = false
}

/// A release, phase by phase: analyse the history, refuse a version backwards, plan (`ReleasePlanner`), check
/// (`Preflight`), stop before a major release when told to, write, commit and tag (`RepositoryTransaction`), push
/// (`Publishing`), and say what happened (`ReleaseReport`). The command calls this; this calls the workspace.
enum ReleaseWorkflow {
    static func run(_ request: ReleaseRequest, workspace: Workspace, context: CommandContext) throws {
        // A dry run takes no lock: it writes nothing and may run beside a real release. A real one holds the lock
        // from before it read anything (`Workspace.open`) to the end, and first finishes or rolls back a release
        // that was interrupted.
        defer { workspace.lock?.release() }
        var forgeRetry = ForgePublishing.Retry()
        try release(request, workspace: workspace, context: context, forgeRetry: &forgeRetry)
        // A forge release an earlier run could not make, failing again: said above; the exit says it too.
        if forgeRetry.failed { throw ExitCode.failure }
    }

    static func release(_ request: ReleaseRequest, workspace: Workspace, context: CommandContext,
                        forgeRetry: inout ForgePublishing.Retry) throws {
        let output = context.output
        if !request.dryRun {
            _ = try TransactionRecovery.recover(workspace: workspace, output: output)
            if request.push {
                forgeRetry = ForgePublishing.retryPending(
                    repository: workspace.repository, remote: request.remote, config: workspace.config, root: workspace.root,
                    tags: workspace.tagListing, context: context)
            }
        } else if let interrupted = try InterruptedRelease.find(gitDir: workspace.repository.gitDir), !interrupted.running {
            // What the files hold now is half a release (or a gate decision): a dry run would plan from it. Only a
            // real run finishes it.
            throw PreflightFailure(problems: [Problem("\(interrupted.journal.what) was interrupted (\(TransactionJournal.path(gitDir: workspace.repository.gitDir)), stopped after step '\(interrupted.journal.lastStep)'); \(interrupted.advice)")])
        }

        let analysis = try workspace.analyze()
        if analysis.cannotNumber, let reason = analysis.reason { throw Problem(reason) }
        // HEAD is a merged release pull request (`relctl release-pr`): its files hold the release; only the tag is made.
        if request.build == nil, let merged = try MergedReleasePullRequest.find(workspace: workspace, analysis: analysis) {
            return try MergedReleasePullRequest.release(merged, analysis: analysis, request: request, workspace: workspace, context: context)
        }
        // A maintenance branch releases only inside its range: a commit leaving it is refused, never clamped.
        let outOfRange = analysis.rangeProblems(mainBranch: workspace.config.mainBranch(in: workspace.repository))
        if !outOfRange.isEmpty { throw PreflightFailure(problems: outOfRange.map { Problem($0) }) }
        // Never a version backwards, in a dry run too: refused before anything is planned.
        let floor = workspace.versionFloor()
        if let problem = BaseCheck(workspace).backwardsProblem(analysis, floor: floor) {
            throw PreflightFailure(problems: [Problem(problem)])
        }
        for note in BaseCheck(workspace).baseNotes(analysis, floor: floor) { output.note(note) }
        guard let next = analysis.next else {
            return try nothingToRelease(analysis, request: request, workspace: workspace, context: context,
                                        retriedURLs: forgeRetry.urls)
        }
        let plan = try ReleasePlanner.plan(workspace: workspace, analysis: analysis, version: next, build: request.build,
                                           includeConfig: request.includeConfig, environment: context.environment)
        var preflight = try Preflight.check(plan, workspace: workspace, analysis: analysis, push: request.push,
                                            remote: request.remote, allowDirty: request.allowDirty, context: context)
        if request.dryRun, let unreachable = preflight.unreachableRemote {
            // A dry run needs no push rights: an unreachable remote is the one problem it only warns about.
            output.warning(unreachable.message)
            preflight.problems.removeAll { $0 == unreachable }
        }
        if !preflight.problems.isEmpty { throw PreflightFailure(problems: preflight.problems) }
        if plan.majorLater { output.note(ReleaseReport.majorLaterNotice(plan)) }
        if let note = plan.buildNote, !request.dryRun { output.note(note) }
        if let notice = plan.notice {
            let halt = workspace.config.onMajor == .halt && !request.confirmMajor
            MajorReleaseMarker.announce(notice, halted: halt, context: context)
            if halt { try halted(plan, analysis: analysis, request: request, repository: workspace.repository, context: context) }
        }
        if request.dryRun {
            if request.json {
                output.result(ReleaseReport(plan, commit: nil, pushed: false, dryRun: true).json.rendered())
            } else {
                output.resultText(ReleaseReport.dryRunText(plan, analysis: analysis, push: request.push, remote: request.remote))
            }
            return
        }

        let faults = FaultInjection(context.environment)
        var transaction = plan.transaction
        let applied = try transaction.apply(repository: workspace.repository, faults: faults)
        workspace.tagListing.add(transaction.tags.map(\.name))
        var pushed = false
        var pushFailure: String?
        if request.push {
            // Pending until its forge release is made: a run killed after the tag's push has it made by the next one.
            ForgePublishing.rememberBeforePush([plan.tag], repository: workspace.repository, remote: request.remote,
                                               config: workspace.config, environment: context.environment)
            do {
                try faults.check("before-push")
                guard let branch = applied.branch else { throw Problem.internalError("a release made no commit") }
                try Publishing.push(workspace.repository, branch: branch,
                                    tags: [preflight.unpublishedBase, plan.tag].compactMap { $0 },
                                    remote: request.remote, environment: context.environment, faults: faults)
                pushed = true
            } catch let lost as Problem where lost.kind == .pushLostRace {
                // Another release reached the remote first: this one must never be published. Undone here, so
                // pulling and rerunning makes the next release from the remote's history.
                let undone = transaction.undo(applied, repository: workspace.repository)
                throw Problem("\(lost.message); nothing was pushed and the local release \(plan.version) was undone (\(undone)): pull it with its tags and rerun (git pull --rebase --tags \(request.remote) \(Publishing.shortBranch(applied.branch ?? "")), then relctl release --push)")
            } catch let failure as Problem {
                pushFailure = failure.rendered()
            }
        }

        var report = ReleaseReport(plan, commit: applied.commit?.hex, pushed: pushed, dryRun: false)
        output.message(report.releasedLine)
        if pushed {
            output.message("pushed \(plan.branch ?? "HEAD") and \(plan.tag) to '\(request.remote)'")
            // The tag is published: its release object on the forge (a failure is said, the release stays made).
            let release = ForgeReleases.Release(tag: plan.tag, title: plan.tag,
                                                body: ForgePublishing.body(of: plan, workspace: workspace),
                                                prerelease: plan.track.isPrerelease, latest: !plan.track.maintenance)
            do {
                report.releaseURL = try ForgePublishing.publish(release, repository: workspace.repository, remote: request.remote,
                                                                config: workspace.config, context: context)
            } catch {
                pushFailure = error.message
            }
            // A base released here by an earlier run and published only now: its forge release too.
            let base = !pushed ? [] : ForgePublishing.publishPushed([preflight.unpublishedBase].compactMap { $0 }, repository: workspace.repository,
                                                      remote: request.remote, config: workspace.config, root: workspace.root,
                                                      listing: workspace.tagListing, context: context)
            if !base.isEmpty { pushFailure = ([pushFailure].compactMap { $0 } + base).joined(separator: "\nerror: ") }
        }
        // Said here, between the release and its result, so the log reads in order; the exit code comes after.
        if let pushFailure { output.error(pushFailure) }
        output.result(request.json ? report.json.rendered() : plan.version)
        context.ci?.publish(outputs: report.ciOutputs, output: output)
        context.ci?.publish(summary: report.ciSummary(notice: plan.notice), output: output)
        if pushFailure != nil { throw ExitCode.failure }
    }

    // MARK: A major release halted

    /// `"onMajor": "halt"` without `--confirm-major`: writes `.major-release-pending` and nothing else (left as it
    /// is when a halt already wrote it), says so on stdout (`--json`) and to the CI, and ends with exit 3. A dry run
    /// writes nothing and prints what the real run would write, and ends the same way.
    static func halted(_ plan: ReleasePlan, analysis: ReleaseAnalysis, request: ReleaseRequest, repository: Repository,
                       context: CommandContext) throws -> Never {
        let output = context.output
        guard let write = plan.markerWrite else { throw Problem.internalError("a major release was planned without its marker") }
        let report = ReleaseReport(halted: plan, dryRun: request.dryRun)
        let name = plan.relativePath(write)
        if request.dryRun {
            output.message("halted (dry run): the real run writes \(name) (the breaking changes and the decision) and nothing else (no version file, changelog, commit or tag)")
        } else {
            if write.oldBytes != write.newBytes {
                // A write with nothing to commit: the transaction writes it atomically, with no journal.
                var transaction = RepositoryTransaction(.init(kind: .release, subject: plan.version, failed: "cannot write \(name)",
                                                              restored: "nothing was changed"),
                                                        root: plan.root, head: plan.head, identities: nil)
                transaction.writes = [write]
                _ = try transaction.apply(repository: repository, faults: FaultInjection(context.environment))
            }
            output.message("halted: \(name) holds the breaking changes and the decision; nothing else was written (no version file, changelog, commit or tag)")
        }
        if request.json {
            output.result(report.json.rendered())
        } else if request.dryRun {
            output.resultText(ReleaseReport.haltedDryRunText(plan, analysis: analysis, push: request.push, remote: request.remote))
        }
        if !request.dryRun {
            context.ci?.publish(outputs: report.ciOutputs, output: output)
            context.ci?.publish(summary: report.ciHaltSummary, output: output)
        }
        throw Problem.majorReleaseHalted(version: plan.version)
    }

    // MARK: Nothing to release, or a release made locally and not yet pushed

    static func nothingToRelease(_ analysis: ReleaseAnalysis, request: ReleaseRequest, workspace: Workspace,
                                 context: CommandContext, retriedURLs: [String: String] = [:]) throws {
        let output = context.output
        let majorPending = workspace.pendingMajor?.notice != nil
        if !request.dryRun {
            // Never silent about a lock file left in the way of the next release (or of git itself).
            let branch = try? workspace.repository.headReferenceName()
            for lock in GitLockFiles.present(gitDir: workspace.repository.gitDir, branch: branch, tags: analysis.baseTag.map { [$0] } ?? []) {
                output.warning(GitLockFiles.problem(lock))
            }
        }
        // The last release may have been made locally by a run whose push failed. With --push, finish that.
        guard request.push, let tag = analysis.lastReleaseTag else {
            output.message(analysis.reason ?? "no release is due")
            let report = ReleaseReport(nothingDue: analysis, majorPending: majorPending, dryRun: request.dryRun)
            if request.json { output.result(report.json.rendered()) }
            context.ci?.publish(outputs: report.ciOutputs, output: output)
            return
        }
        // Pending while it is pushed (as a release's tag is): a run killed after the push has the next make it.
        let wasPending = ForgePublishing.pending(gitDir: workspace.repository.gitDir).contains(tag)
        if !request.dryRun {
            ForgePublishing.rememberBeforePush([tag], repository: workspace.repository, remote: request.remote,
                                               config: workspace.config, environment: context.environment)
        }
        let pushed = try Publishing.republish(tag, reason: analysis.reason, repository: workspace.repository,
                                              remote: request.remote, dryRun: request.dryRun, config: workspace.config,
                                              context: context)
        if !pushed && !wasPending { ForgePublishing.forget(tag, gitDir: workspace.repository.gitDir) }
        var report = ReleaseReport(publishing: tag, analysis: analysis, pushed: pushed, majorPending: majorPending,
                                   dryRun: request.dryRun)
        // Pushed now: the tag's release object on the forge, from the changelog at the tag.
        var forgeFailure: String?
        if pushed, ForgePublishing.applies(repository: workspace.repository, remote: request.remote, config: workspace.config,
                                           environment: context.environment) {
            do {
                let release = try ForgePublishing.release(
                    of: tag, repository: workspace.repository, config: workspace.config, root: workspace.root, tags: workspace.tagListing)
                report.releaseURL = try ForgePublishing.publish(release, repository: workspace.repository, remote: request.remote,
                                                                config: workspace.config, context: context)
            } catch let failure as Problem where failure.kind == .forge {
                forgeFailure = failure.message
            } catch let failure as Problem {
                ForgePublishing.remember(tag, gitDir: workspace.repository.gitDir)
                forgeFailure = "\(tag) is released and on '\(request.remote)', but its forge release was not made: \(failure.rendered())"
            }
        }
        if let forgeFailure { output.error(forgeFailure) }
        // The release commit is HEAD (or below it with no version change since): its files hold the build numbers
        // the store builds that follow need, as the run that made it reported them.
        if let current = try? workspace.readVersions() {
            report.iosBuild = current.highestIOSBuild
            report.androidBuild = current.highestAndroidBuild
        }
        // Already pushed, its forge release made at the start of this run (an earlier run failed or was killed
        // after the push): its URL is this run's.
        if !pushed, let url = retriedURLs[tag] { report.releaseURL = url }
        if request.json { output.result(report.json.rendered()) }
        if pushed || report.releaseURL != nil { context.ci?.publish(outputs: report.ciOutputs, output: output) }
        if forgeFailure != nil { throw ExitCode.failure }
    }
}
