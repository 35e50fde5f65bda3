import RelctlCore

/// `relctl status`: the release state of the repository, and the major-release decision if one is pending.
enum StatusCommand {
    static let spec = CommandSpec(
        name: "status",
        summary: "Show the last release, the next version, and any pending major-release decision.",
        options: [.json, .offline, .repo, .config] + OptionSpec.projects,
        discussion: """
        A pending decision is the .major-release-pending file a major release commits: min_supported_version
        was left alone, and raising it is for a human to do once the new build is live in the app's stores
        (relctl gate raise-min, after relctl gate set-latest when the gate's latest is below it; how to
        configure a gate when none is), or to keep it (relctl gate keep-min). A major release halted before it was
        made (no tag yet) shows as halted, with 'relctl release --confirm-major'. With a gate configured,
        status shows each platform's minimum and latest from the gate document.

        Refused before 'relctl init' (no .relctl.json): on defaults it would show 1.0.0 as the next release.

        EXIT CODES: 0 shown, 1 failure, 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let context = context.offline(arguments)
        let opened = try Workspace.open(RepositoryLocation(arguments), context, config: .required)
        let selection = try ProjectSelection.select(arguments, context, workspace: opened, usage: spec.usage, atRoot: .every)
        var objects: [JSONOutput] = []
        var texts: [String] = []
        var failed = false
        for workspace in selection.workspaces {
            let (json, text, problem) = try report(workspace, json: arguments.has("--json"))
            if let json { objects.append(json.withProject(workspace.project?.name)) }
            if let project = workspace.project, selection.workspaces.count > 1 || selection.hasProjects {
                texts.append("project:       \(project.name) (\(project.displayPath))\n" + text)
            } else {
                texts.append(text)
            }
            failed = failed || problem
        }
        if arguments.has("--json") {
            context.output.result((selection.hasProjects ? JSONOutput.array(objects) : objects[0]).rendered())
        } else {
            context.output.resultText(texts.joined(separator: "\n"))
        }
        if failed { throw ExitCode.failure }
    }

    /// One project's (or the one app's) status: the JSON object when asked for, else the text; and whether a
    /// journal problem makes the exit code a failure.
    static func report(_ workspace: Workspace, json wantsJSON: Bool) throws -> (JSONOutput?, String, Bool) {
        let analysis = try workspace.analyze()
        let marker = workspace.pendingMajor
        let pending = marker?.notice
        let halted = marker?.halted ?? false
        let branch = try workspace.repository.currentBranch()
        let floor = workspace.versionFloor()
        let backwards = BaseCheck(workspace).backwardsProblem(analysis, floor: floor)
        let rangeProblems = analysis.rangeProblems(mainBranch: workspace.config.mainBranch(in: workspace.repository))
        // A journal that cannot be used is shown (and the exit code says so): the next release refuses it.
        var journalProblem: String?
        var interrupted: InterruptedRelease?
        do {
            interrupted = try InterruptedRelease.find(gitDir: workspace.repository.gitDir)
        } catch let failure as Problem {
            journalProblem = failure.rendered()
        }
        // buildNumber source "stores": where the next release's build numbers come from.
        let builds = workspace.config.buildNumber.source == .stores
            ? StoreBuildNumbers.preview(workspace, version: analysis.next?.description) : (lines: [], problem: nil)
        let offlineWarning = builds.lines.isEmpty ? nil : StoreBuildNumbers.offlineWarning(workspace.config, environment: workspace.environment)
        if wantsJSON {
            var members: [(String, JSONOutput)] = [
                ("schemaVersion", .int(1)), ("branch", .optional(branch)),
                ("current", .optional(analysis.current?.description)), ("baseTag", .optional(analysis.baseTag)),
                ("next", .optional(analysis.next?.description)), ("bump", .string(analysis.bump.description)),
                ("commitsSinceRelease", .int(analysis.commits.commits.count)),
                ("filesVersion", .optional(floor?.held?.value)),
                ("unreachableTags", .array(analysis.unreachableTags.map { .string($0.tag) })),
                ("problem", .optional(backwards)),
            ] + ReleaseReport.trackJSON(analysis.track, prereleaseNumber: analysis.prereleaseNumber)
              + [("lastPrerelease", .optional(analysis.lastPrereleaseTag)),
                 ("rangeProblems", .array(rangeProblems.map { .string($0) }))]
            if let pending {
                members.append(("majorPending", .object([
                    ("version", .string(pending.version)), ("previousVersion", .optional(pending.previousVersion)),
                    ("tag", .string(pending.tag)), ("date", .string(pending.date)), ("instruction", .string(pending.instruction)),
                    ("halted", .bool(halted)),
                ])))
            } else {
                members.append(("majorPending", .null))
            }
            if workspace.config.buildNumber.source == .stores {
                members.append(("nextBuilds", .object([("sources", .array(builds.lines.map { .string($0) })),
                                                        ("problem", .optional(builds.problem)),
                                                        ("offline", .bool(offlineWarning != nil))])))
            }
            members.append(("gate", GateStatusReport.json(workspace)))
            // Only when a release was interrupted (or is running): the key is absent otherwise.
            if let interrupted { members.append(("interruptedRelease", interrupted.json)) }
            if let journalProblem { members.append(("journalProblem", .string(journalProblem))) }
            return (JSONOutput.object(members), "", journalProblem != nil)
        }
        var text = "branch:        \(branch ?? "(detached HEAD)")\n"
        if let interrupted { text += interrupted.text }
        if let journalProblem { text += "problem:       \(journalProblem)\n" }
        if let line = ReleaseReport.trackLine(analysis.track, prereleaseNumber: analysis.prereleaseNumber) {
            text += "channel:       \(line)\n"
        }
        if let tag = analysis.baseTag, let current = analysis.current {
            text += "last release:  \(tag) (\(current))\n"
        } else {
            text += "last release:  none yet\n"
        }
        if let last = analysis.lastPrereleaseTag { text += "prerelease:    \(last) (the last of its channel)\n" }
        text += "since then:    \(analysis.commits.commits.count) commit\(analysis.commits.commits.count == 1 ? "" : "s")\n"
        if let next = analysis.next, let range = analysis.track.range, !rangeProblems.isEmpty {
            text += "next release:  none: \(next) (\(analysis.bump)) would leave \(range) (below)\n"
        } else if let next = analysis.next {
            text += "next release:  \(next) (\(analysis.current == nil ? "first release" : analysis.bump.description))\n"
        } else {
            text += "next release:  none due (\(analysis.reason ?? "no releasable commit"))\n"
        }
        if let held = floor?.held {
            text += "files hold:    \(held.value)\(floor?.agreed == false ? " (the files disagree: relctl current)" : "")\n"
        }
        for problem in rangeProblems { text += "problem:       \(problem)\n" }
        if let backwards {
            text += "problem:       \(backwards)\n"
        } else {
            for note in BaseCheck(workspace).baseNotes(analysis, floor: floor) { text += "note:          \(note)\n" }
        }
        for line in builds.lines { text += "next build:    \(line)\n" }
        if let offlineWarning { text += "warning:       \(offlineWarning)\n" }
        if let problem = builds.problem { text += "problem:       \(problem)\n" }
        text += GateStatusReport.text(workspace)
        if let pending, halted {
            text += "major pending: \(pending.version) halted \(pending.date.prefix(10)), not released; min_supported_version unchanged\n"
            text += "               review its breaking changes, then: \(workspace.floorDecision(for: pending.version).confirmCommand)\n"
        } else if let pending {
            text += "major pending: \(pending.version) released \(pending.date.prefix(10)); min_supported_version unchanged\n"
            let floor = workspace.floorDecision(for: pending.version)
            if floor.gate == .notConfigured {
                text += "               no version gate is configured: to raise it once \(pending.version) is live in \(floor.storesText()), add \"gate\" to .relctl.json (README, \"Version gate\")\n"
            } else {
                text += "               raise it once \(pending.version) is live in \(floor.storesText()): \(floor.raiseCommands(version: pending.version).joined(separator: ", then "))\n"
            }
            text += "               or keep it: relctl gate keep-min\(workspace.projectOption) --reason TEXT\n"
        } else {
            text += "major pending: none\n"
        }
        return (nil, text, journalProblem != nil)
    }
}
