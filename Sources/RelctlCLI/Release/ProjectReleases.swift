import RelctlCore
import RelctlFiles
import RelctlGit

/// `relctl release` in a repository whose config lists `projects`: every selected project with a release due, in
/// one commit with one tag per project, all or nothing. Each project is analysed, planned and checked on its own
/// (`ReleasePlanner`, `Preflight`, with the project's config); a problem in any of them writes nothing for any. Each
/// major release gets its own banner and its own marker inside the project's folder; one halted major release halts
/// the run (only the halted projects' markers are written) unless that project is confirmed (`--confirm-major NAME`,
/// or `--confirm-major` alone for all). The plans are then joined: their writes in one commit, the first project's
/// tag made by the transaction with the others beside it on the same commit.
enum ProjectReleases {
    struct Planned {
        let workspace: Workspace
        let analysis: ReleaseAnalysis
        let plan: ReleasePlan
        /// The project's last release, made locally and not pushed yet: pushed first with `--push`.
        let unpublishedBase: String?
        var name: String { workspace.project?.name ?? "" }
    }

    static func run(_ request: ReleaseRequest, confirmed: [String], selection: ProjectSelection, opened: Workspace,
                    context: CommandContext) throws {
        let output = context.output
        defer { opened.lock?.release() }
        var forgeRetry = ForgePublishing.Retry()
        if !request.dryRun {
            _ = try TransactionRecovery.recover(workspace: opened, output: output)
            if request.push {
                // The forge releases an earlier run could not make (a forge failure, a run killed after its push).
                forgeRetry = ForgePublishing.retryPending(repository: opened.repository, remote: request.remote,
                                                          config: opened.config, root: opened.root, tags: opened.tagListing,
                                                          context: context)
            }
        } else if let interrupted = try InterruptedRelease.find(gitDir: opened.repository.gitDir), !interrupted.running {
            throw PreflightFailure(problems: [Problem("\(interrupted.journal.what) was interrupted (\(TransactionJournal.path(gitDir: opened.repository.gitDir)), stopped after step '\(interrupted.journal.lastStep)'); \(interrupted.advice)")])
        }
        let several = selection.workspaces.count > 1
        var problems: [Problem] = []
        var planned: [Planned] = []
        var nothingDue: [(name: String, report: ReleaseReport)] = []
        var unpushed: [(workspace: Workspace, tag: String, reason: String)] = []
        for var workspace in selection.workspaces {
            let name = workspace.project?.name ?? ""
            workspace.markersCheckedElsewhere = selection.workspaces.filter { $0.project?.name != name }.map(\.markerRelativePath)
            let label = "\(name): "
            let analysis = try workspace.analyze()
            if analysis.cannotNumber, let reason = analysis.reason { problems.append(Problem(label + reason)); continue }
            let outOfRange = analysis.rangeProblems(mainBranch: workspace.config.mainBranch(in: workspace.repository))
            if !outOfRange.isEmpty { problems += outOfRange.map { Problem(label + $0) }; continue }
            let floor = workspace.versionFloor()
            if let problem = BaseCheck(workspace).backwardsProblem(analysis, floor: floor) { problems.append(Problem(label + problem)); continue }
            for note in BaseCheck(workspace).baseNotes(analysis, floor: floor) { output.note(label + note) }
            guard let next = analysis.next else {
                if request.push, let tag = analysis.lastReleaseTag {
                    // With --push, the project's last release, made locally by a run whose push failed, is pushed
                    // below (as for one app: `Publishing.republish`).
                    unpushed.append((workspace, tag, label + (analysis.reason ?? "no release is due")))
                } else {
                    output.message(label + (analysis.reason ?? "no release is due"))
                }
                nothingDue.append((name, ReleaseReport(nothingDue: analysis, majorPending: workspace.pendingMajor?.notice != nil,
                                                       dryRun: request.dryRun)))
                continue
            }
            let plan = try ReleasePlanner.plan(workspace: workspace, analysis: analysis, version: next, build: request.build,
                                               includeConfig: request.includeConfig, environment: context.environment)
            var preflight = try Preflight.check(plan, workspace: workspace, analysis: analysis, push: request.push,
                                                remote: request.remote, allowDirty: request.allowDirty, context: context)
            if request.dryRun, let unreachable = preflight.unreachableRemote {
                output.warning(label + unreachable.message)
                preflight.problems.removeAll { $0 == unreachable }
            }
            problems += preflight.problems.map { problem in
                var labelled = problem
                labelled.message = label + problem.message
                return labelled
            }
            planned.append(Planned(workspace: workspace, analysis: analysis, plan: plan, unpublishedBase: preflight.unpublishedBase))
        }
        problems += sharedFileProblems(planned)
        // One problem anywhere: nothing is written for any project.
        if !problems.isEmpty { throw PreflightFailure(problems: problems) }
        // A project's last release made by an earlier run: its forge release made at the start of this run.
        for index in nothingDue.indices {
            if let tag = unpushed.first(where: { $0.workspace.project?.name == nothingDue[index].name })?.tag, let url = forgeRetry.urls[tag] {
                nothingDue[index].report.releaseURL = url
            }
        }
        guard !planned.isEmpty else {
            var republished: [(workspace: Workspace, tag: String)] = []
            for item in unpushed {
                let wasPending = ForgePublishing.pending(gitDir: opened.repository.gitDir).contains(item.tag)
                if !request.dryRun {
                    rememberBeforePush([item.tag], repository: opened.repository, remote: request.remote, config: opened.config,
                                       context: context)
                }
                let pushed = try Publishing.republish(item.tag, reason: item.reason, repository: item.workspace.repository,
                                                      remote: request.remote, dryRun: request.dryRun,
                                                      config: item.workspace.config, context: context)
                if !pushed && !wasPending { ForgePublishing.forget(item.tag, gitDir: opened.repository.gitDir) }
                if pushed { republished.append((item.workspace, item.tag)) }
                if pushed, let index = nothingDue.firstIndex(where: { $0.name == item.workspace.project?.name }) {
                    nothingDue[index].report.pushed = true
                }
            }
            let forge = forgeReleases(made: [], republished: republished, repository: opened.repository, remote: request.remote,
                                      context: context)
            for index in nothingDue.indices {
                if let tag = republished.first(where: { $0.workspace.project?.name == nothingDue[index].name })?.tag, let url = forge.urls[tag] {
                    nothingDue[index].report.releaseURL = url
                }
            }
            for failure in forge.failures { output.error(failure) }
            if request.json { output.result(JSONOutput.array(nothingDue.map { $0.report.json.withProject($0.name) }).rendered()) }
            context.ci?.publish(outputs: ciOutputs(released: [], nothingDue: nothingDue), output: output)
            if !forge.failures.isEmpty || forgeRetry.failed { throw ExitCode.failure }
            return
        }
        for item in planned {
            if item.plan.majorLater { output.note("\(item.name): " + ReleaseReport.majorLaterNotice(item.plan)) }
            if let note = item.plan.buildNote, !request.dryRun { output.note("\(item.name): " + note) }
        }
        // Each major release: its own banner; halted unless confirmed.
        var haltedPlans: [Planned] = []
        for item in planned {
            guard let notice = item.plan.notice else { continue }
            let confirmedHere = (request.confirmMajor && confirmed.isEmpty) || confirmed.contains(item.name)
            let halt = item.workspace.config.onMajor == .halt && !confirmedHere
            MajorReleaseMarker.announce(notice, halted: halt, context: context)
            if halt { haltedPlans.append(item) }
        }
        if !haltedPlans.isEmpty { try halted(haltedPlans, request: request, context: context) }
        if request.dryRun {
            for item in unpushed { output.message(item.reason) }
            if request.json {
                output.result(JSONOutput.array(planned.map { ReleaseReport($0.plan, commit: nil, pushed: false, dryRun: true).json.withProject($0.name) }
                                               + nothingDue.map { $0.report.json.withProject($0.name) }).rendered())
            } else {
                for item in planned {
                    if several { output.resultText("== \(item.name) (\(item.workspace.project?.displayPath ?? "."))\n") }
                    output.resultText(ReleaseReport.dryRunText(item.plan, analysis: item.analysis, push: request.push, remote: request.remote))
                }
            }
            return
        }

        let joined = join(planned, commitMessage: opened.config.commitMessage)
        let faults = FaultInjection(context.environment)
        var transaction = joined.transaction
        let applied = try transaction.apply(repository: opened.repository, faults: faults)
        opened.tagListing.add(transaction.tags.map(\.name))
        let tags = planned.map(\.plan.tag)
        var pushed = false
        var pushFailure: String?
        if request.push {
            // Pending until their forge releases are made: a run killed after the push has the next one make them.
            rememberBeforePush(tags, repository: opened.repository, remote: request.remote, config: opened.config, context: context)
            do {
                try faults.check("before-push")
                // Bases released locally but never pushed go first, then this release's tags.
                let bases = planned.compactMap(\.unpublishedBase)
                guard let branch = applied.branch else { throw Problem.internalError("a release made no commit") }
                try Publishing.push(opened.repository, branch: branch, tags: bases + tags,
                                    remote: request.remote, environment: context.environment, faults: faults)
                pushed = true
            } catch let lost as Problem where lost.kind == .pushLostRace {
                let undone = transaction.undo(applied, repository: opened.repository)
                throw Problem("\(lost.message); nothing was pushed and the local release of \(tags.joined(separator: ", ")) was undone (\(undone)): pull it with its tags and rerun (git pull --rebase --tags \(request.remote) \(Publishing.shortBranch(applied.branch ?? "")), then relctl release --push)")
            } catch let failure as Problem {
                pushFailure = failure.rendered()
            }
        }
        var reports = planned.map { ($0.name, ReleaseReport($0.plan, commit: applied.commit?.hex, pushed: pushed, dryRun: false)) }
        for (name, report) in reports { output.message("\(name): " + report.releasedLine) }
        if pushed { output.message("pushed \(joined.branch ?? "HEAD") and \(tags.joined(separator: ", ")) to '\(request.remote)'") }
        // The projects with nothing due: their last release, if made locally and never pushed, follows the branch.
        var republished: [(workspace: Workspace, tag: String)] = planned.compactMap { item in item.unpublishedBase.map { (item.workspace, $0) } }
        for item in unpushed {
            guard pushed else { output.message(item.reason); continue }
            do {
                let wasPending = ForgePublishing.pending(gitDir: opened.repository.gitDir).contains(item.tag)
                rememberBeforePush([item.tag], repository: opened.repository, remote: request.remote, config: opened.config, context: context)
                if try Publishing.republish(item.tag, reason: item.reason, repository: item.workspace.repository, remote: request.remote,
                                            dryRun: false, config: item.workspace.config, context: context) {
                    republished.append((item.workspace, item.tag))
                } else if !wasPending {
                    ForgePublishing.forget(item.tag, gitDir: opened.repository.gitDir)
                }
            } catch let failure as Problem {
                pushFailure = (pushFailure.map { $0 + "; " } ?? "") + failure.message
            }
        }
        // Every tag published: its forge release, one per project, each with its project's changelog section.
        var forgeFailures: [String] = []
        if pushed {
            let forge = forgeReleases(made: planned, republished: republished, repository: opened.repository, remote: request.remote,
                                      context: context)
            for index in reports.indices { reports[index].1.releaseURL = reports[index].1.tag.flatMap { forge.urls[$0] } }
            for index in nothingDue.indices {
                if let tag = republished.first(where: { $0.workspace.project?.name == nothingDue[index].name })?.tag, let url = forge.urls[tag] {
                    nothingDue[index].report.releaseURL = url
                }
            }
            forgeFailures = forge.failures
        }
        if let pushFailure { output.error(pushFailure) }
        for failure in forgeFailures { output.error(failure) }
        if request.json {
            output.result(JSONOutput.array(reports.map { $0.1.json.withProject($0.0) } + nothingDue.map { $0.report.json.withProject($0.name) }).rendered())
        } else {
            // One project: its version, as `release` prints it for one app; several: a `name version` line each.
            for item in planned { output.result(several ? "\(item.name) \(item.plan.version)" : item.plan.version) }
        }
        context.ci?.publish(outputs: ciOutputs(released: reports, nothingDue: nothingDue), output: output)
        context.ci?.publish(summary: reports.map { $0.1.ciSummary(notice: nil) }.joined(separator: "\n"), output: output)
        if pushFailure != nil || !forgeFailures.isEmpty || forgeRetry.failed { throw ExitCode.failure }
    }

    /// Pending while pushed (`ForgePublishing.rememberBeforePush`), when the forge is in play for the repository.
    static func rememberBeforePush(_ tags: [String], repository: Repository, remote: String, config: Config, context: CommandContext) {
        ForgePublishing.rememberBeforePush(tags, repository: repository, remote: remote, config: config, environment: context.environment)
    }

    /// The forge release of every tag a push published: `made`, this run's releases (the body their plan's changelog
    /// section), and `republished`, releases an earlier run made here and this run pushed (the body from the
    /// changelog at the tag). Each tried whatever the others do; the URLs by tag, and each failure's line.
    static func forgeReleases(made: [Planned], republished: [(workspace: Workspace, tag: String)], repository: Repository,
                              remote: String, context: CommandContext) -> (urls: [String: String], failures: [String]) {
        var releases: [(release: ForgeReleases.Release, config: Config)] = made.map { item in
            (ForgeReleases.Release(tag: item.plan.tag, title: item.plan.tag, body: ForgePublishing.body(of: item.plan, workspace: item.workspace),
                                   prerelease: item.plan.track.isPrerelease, latest: !item.plan.track.maintenance), item.workspace.config)
        }
        var failures: [String] = []
        for item in republished where ForgePublishing.applies(repository: repository, remote: remote, config: item.workspace.config,
                                                              environment: context.environment) {
            do {
                releases.append((try ForgePublishing.release(of: item.tag, repository: repository, config: item.workspace.config,
                                                             root: item.workspace.root,
                                                             tags: item.workspace.tagListing), item.workspace.config))
            } catch {
                ForgePublishing.remember(item.tag, gitDir: repository.gitDir)
                failures.append("\(item.tag) is released and on '\(remote)', but its forge release was not made: \((error as? Problem)?.message ?? "\(error)")")
            }
        }
        let published = ForgePublishing.publishAll(releases, repository: repository, remote: remote, context: context)
        return (published.urls, failures + published.failures)
    }

    /// Two projects writing one file (two apps reading one version catalog entry) must write the same bytes.
    static func sharedFileProblems(_ planned: [Planned]) -> [Problem] {
        var seen: [String: (name: String, bytes: [UInt8])] = [:]
        var problems: [Problem] = []
        for item in planned {
            for write in item.plan.writes {
                let path = item.plan.relativePath(write)
                if let earlier = seen[path], earlier.bytes != write.newBytes {
                    problems.append(Problem("projects \"\(earlier.name)\" and \"\(item.name)\" both write \(path), with different contents (\(earlier.name) \(planned.first { $0.name == earlier.name }?.plan.version ?? ""), \(item.name) \(item.plan.version)); release them one at a time (--project), or give each project its own file"))
                } else {
                    seen[path] = (item.name, write.newBytes)
                }
            }
        }
        return problems
    }

    /// One plan for the transaction: every project's writes (a shared file once), one commit message naming every
    /// tag, the first tag made by the transaction and the others beside it.
    static func join(_ planned: [Planned], commitMessage: String) -> ReleasePlan {
        var joined = planned[0].plan
        guard planned.count > 1 else { return joined }
        var paths = Set(joined.writes.map(joined.relativePath))
        for item in planned.dropFirst() {
            for write in item.plan.writes where paths.insert(item.plan.relativePath(write)).inserted {
                joined.writes.append(write)
            }
            for (path, bytes) in item.plan.committedBytes where joined.committedBytes[path] == nil { joined.committedBytes[path] = bytes }
            joined.additionalTags.append((item.plan.tag, item.plan.tagMessage))
        }
        let tags = planned.map(\.plan.tag).joined(separator: ", ")
        var message = commitMessage.replacingOccurrences(of: "{version}", with: tags).replacingOccurrences(of: "{tag}", with: tags)
        if !message.hasSuffix("\n") { message += "\n" }
        joined.commitMessage = message
        return joined
    }

    /// The halted projects' markers are written (each in its folder), nothing else; exit 3.
    static func halted(_ plans: [Planned], request: ReleaseRequest, context: CommandContext) throws -> Never {
        let output = context.output
        var writes: [FileWrite] = []
        for item in plans {
            guard let write = item.plan.markerWrite else { throw Problem.internalError("a major release was planned without its marker") }
            if write.oldBytes != write.newBytes { writes.append(write) }
        }
        let names = plans.map { "\($0.name) \($0.plan.version) (\($0.plan.markerRelativePath))" }.joined(separator: ", ")
        if request.dryRun {
            output.message("halted (dry run): the real run writes the marker of \(names) and nothing else (no version file, changelog, commit or tag)")
        } else {
            if !writes.isEmpty {
                // Writes with nothing to commit: the transaction writes them atomically, all or nothing, with no journal.
                let first = plans[0].plan
                var transaction = RepositoryTransaction(.init(kind: .release, subject: first.version, failed: "cannot write the markers of \(names)",
                                                              restored: "nothing was changed"),
                                                        root: first.root, head: first.head, identities: nil)
                transaction.writes = writes
                _ = try transaction.apply(repository: plans[0].workspace.repository, faults: FaultInjection(context.environment))
            }
            output.message("halted: the marker of \(names) holds the breaking changes and the decision; nothing else was written (no version file, changelog, commit or tag)")
        }
        let reports = plans.map { ($0.name, ReleaseReport(halted: $0.plan, dryRun: request.dryRun)) }
        if request.json { output.result(JSONOutput.array(reports.map { $0.1.json.withProject($0.0) }).rendered()) }
        if !request.dryRun {
            context.ci?.publish(outputs: [("projects", "[]"), ("halted", "true")]
                + reports.flatMap { perProject($0.0, $0.1) }, output: output)
        }
        let confirm = plans.map { "--confirm-major \($0.name)" }.joined(separator: " ")
        output.error("halted before major release of \(plans.map { "\($0.name) \($0.plan.version)" }.joined(separator: ", ")) (onMajor is \"halt\"): nothing is released; review the breaking changes in \(plans.map(\.plan.markerRelativePath).joined(separator: ", ")), then rerun with \(confirm)")
        throw ExitCode.haltedForMajor
    }

    static func perProject(_ name: String, _ report: ReleaseReport) -> [(name: String, value: String)] {
        [("\(name)_version", report.version ?? ""), ("\(name)_tag", report.tag ?? ""), ("\(name)_major_pending", "\(report.majorPending)"),
         ("\(name)_release_url", report.releaseURL ?? "")]
    }

    /// `projects` (a JSON list of the projects released) and each project's version, tag, major_pending and
    /// release_url (empty version and tag for a project with nothing due; release_url empty when no forge release
    /// was made by this run).
    static func ciOutputs(released: [(String, ReleaseReport)], nothingDue: [(name: String, report: ReleaseReport)]) -> [(name: String, value: String)] {
        let list = JSONOutput.array(released.map { .string($0.0) }).rendered()
        return [("projects", list)] + released.flatMap { perProject($0.0, $0.1) }
            + nothingDue.flatMap { [("\($0.name)_version", ""), ("\($0.name)_tag", ""), ("\($0.name)_major_pending", "\($0.report.majorPending)"),
                                    ("\($0.name)_release_url", $0.report.releaseURL ?? "")] }
    }
}
