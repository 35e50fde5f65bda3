import RelctlCore
import RelctlGit

/// `relctl next`: the next version from the commits since the last release tag.
enum NextCommand {
    static let spec = CommandSpec(
        name: "next",
        summary: "Print the next version, computed from the conventional commits since the last release tag.",
        options: [.prerelease, .offline, .repo, .config, .json] + OptionSpec.projects,
        discussion: """
        The base is the highest stable tag matching tagFormat (default v{version}) that is reachable from HEAD and
        holds a version of versionScheme (semver, or a calendar scheme such as YYYY.M.MICRO). feat gives a minor
        bump, fix and perf a patch, a breaking change ('!' or a BREAKING CHANGE footer) a major (a minor on 0.x
        unless majorOnZero); under a calendar scheme the release date (UTC, SOURCE_DATE_EPOCH when set) gives
        the number. With no tag yet, the first release is initialVersion (1.0.0).

        Never backwards: when the version is lower than the version files hold (an app already in the stores
        with no release tag: 'relctl adopt'), or than release tags HEAD cannot see (a release branch never merged
        back), the version is still printed and the problem goes to stderr as a warning with the fix.

        --prerelease beta (or a "branches" entry with "prerelease") prints the next X.Y.Z-beta.N: X.Y.Z from
        the commits since the last stable tag, N one more than the highest vX.Y.Z-beta.* tag. On a maintenance
        branch (release/1.4.x) the base is the highest tag of its range, and commits leaving it are warned about.

        When no release is due, stdout stays empty, the reason goes to stderr, and the exit code is 0.
        A shallow clone that does not reach a release tag is an error (exit 1) that says how to fetch the history.

        EXIT CODES: 0 version printed or nothing to release, 1 failure, 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let context = context.offline(arguments)
        var workspace = try Workspace.open(RepositoryLocation(arguments), context, config: .noted)
        workspace.requestedChannel = try PrereleaseOption.channel(arguments, usage: spec.usage)
        let selection = try ProjectSelection.select(arguments, context, workspace: workspace, usage: spec.usage, atRoot: .every)
        let several = selection.workspaces.count > 1
        var objects: [JSONOutput] = []
        for project in selection.workspaces {
            let name = project.project?.name
            let label = several ? "\(name ?? ""): " : ""
            let analysis = try project.analyze()
            warnings(analysis, workspace: project, context: context, label: label)
            // buildNumber source "stores": the next build numbers, read from the stores as the release will.
            let builds = StoreBuildNumbers.preview(project, version: analysis.next?.description)
            if !builds.lines.isEmpty, let warning = StoreBuildNumbers.offlineWarning(project.config, environment: project.environment) {
                context.output.warning(label + warning)
            }
            for line in builds.lines { context.output.note(label + line) }
            if let problem = builds.problem { context.output.warning(label + problem) }
            if arguments.has("--json") {
                objects.append(json(analysis).withProject(name))
                if let reason = analysis.reason { context.output.message(label + reason) }
            } else if let next = analysis.next {
                context.output.result(several ? "\(name ?? "") \(next.description)" : next.description)
            } else {
                context.output.message(label + (analysis.reason ?? "no release is due"))
            }
        }
        if arguments.has("--json") {
            context.output.result((selection.hasProjects ? JSONOutput.array(objects) : objects[0]).rendered())
        }
    }

    /// What `next` says on stderr before the version: the channel, a version backwards, a tag already taken.
    static func warnings(_ analysis: ReleaseAnalysis, workspace: Workspace, context: CommandContext, label: String) {
        for problem in analysis.rangeProblems(mainBranch: workspace.config.mainBranch(in: workspace.repository)) {
            context.output.warning(label + problem + "; 'relctl release' will refuse it")
        }
        if let line = ReleaseReport.trackLine(analysis.track, prereleaseNumber: analysis.prereleaseNumber) {
            context.output.note(label + "channel: \(line)")
        }
        // Never a version backwards: `next` warns (stdout stays the plain version), `release` refuses.
        let floor = workspace.versionFloor()
        if let problem = BaseCheck(workspace).backwardsProblem(analysis, floor: floor) {
            context.output.warning(label + problem + "; 'relctl release' will refuse it")
        } else {
            for note in BaseCheck(workspace).baseNotes(analysis, floor: floor) { context.output.note(label + note) }
        }
        if let next = analysis.next, let tag = try? TagFormat(workspace.config.tagFormat).tagName(for: next),
           (try? workspace.repository.tag(named: tag)) != nil {
            context.output.warning(label + "tag \(tag) already exists but is not an ancestor of HEAD (another branch?); 'relctl release' will refuse to reuse it")
        }
    }

    static func json(_ analysis: ReleaseAnalysis) -> JSONOutput {
        .object([
            ("schemaVersion", .int(1)),
            ("current", .optional(analysis.current?.description)),
            ("next", .optional(analysis.next?.description)),
            ("bump", .string(analysis.bump.description)),
            ("baseTag", .optional(analysis.baseTag)),
            ("reason", .optional(analysis.reason)),
        ] + ReleaseReport.trackJSON(analysis.track, prereleaseNumber: analysis.prereleaseNumber) + [
            ("commits", .array(analysis.commits.commits.map(commitJSON))),
        ])
    }

    static func commitJSON(_ commit: AnalyzedCommit) -> JSONOutput {
        .object([
            ("sha", .string(commit.sha)),
            ("type", .optional(commit.message?.type.lowercased())),
            ("scope", .optional(commit.message?.scope)),
            ("breaking", .bool(commit.message?.isBreaking ?? false)),
            ("description", .string(commit.message?.description ?? commit.summary)),
            ("conventional", .bool(commit.isConventional)),
            ("counted", .bool(commit.counted)),
            ("status", .string(commit.status.rawValue)),
            ("bump", .string(commit.bump.description)),
        ])
    }
}
