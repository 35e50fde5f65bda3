/// `relctl release`: compute → sync files → changelog → commit → tag → (push), all or nothing.
enum ReleaseCommand {
    static let spec = CommandSpec(
        name: "release",
        summary: "Release the next version: sync version files, write the changelog, commit, tag, and push.",
        options: [
            .dryRun,
            .flag("--push", "Push the branch and the tag to the remote after tagging."),
            .value("--remote", "NAME", "The remote to push to (default: origin).", completion: .gitRemote),
            .init(name: "--confirm-major", valueName: "NAME", help: "Make a major release that onMajor \"halt\" (the default) stops; NAME is optional: with it, only that project's (repeatable).",
                  repeatable: true, optionalValue: true),
            .flag("--allow-dirty", "Release even with uncommitted or untracked files (they are not committed)."),
            .flag("--include-config", "Commit .relctl.json with the release when it is not committed yet (a first release after init)."),
            .value("--build", "N", "Use build number N for iOS and Android instead of the buildNumber strategy."),
            .offline, .prerelease, .json, .repo, .config,
        ] + OptionSpec.projects,
        discussion: """
        Steps: preflight (clean work tree, release branch, history reaching the last tag, tag free locally and
        on the remote, committer identity, every file edit valid and store rules met, no other release
        running), then write the version files, the changelog and (for a major) .major-release-pending,
        commit them, create the annotated tag, and push with --push. Any failure after the first write
        restores every file and moves the branch back: nothing half-made is left. When a push fails, the
        release stays made locally; rerunning 'relctl release --push' finds it and only pushes. A release
        that was killed (a cancelled CI job, a power cut) left its journal, .git/relctl-release.json: the
        next 'relctl release' finishes it (the commit is on the branch: it makes the tag) or rolls it back
        and releases again, and says which; 'relctl status' shows it meanwhile. One release, sync, adopt
        or gate change runs at a time in a repository (the lock .git/relctl.lock names the one running).

        --dry-run prints the plan (version and why, each file's diff, the changelog section, the commit
        message and the tag) and changes nothing; it needs no push rights.

        With --push, when origin is on GitHub or GitLab (or "forge" in .relctl.json says so) and a token is set
        (GITHUB_TOKEN/GH_TOKEN, GITLAB_TOKEN/CI_JOB_TOKEN), the tag gets its forge release: the changelog
        section as its body, a prerelease for a channel, not "latest" for a maintenance release; a rerun updates
        it, never a second one. If it fails after the tag is pushed, relctl says what exists and the next run
        (or 'relctl publish-release <tag>') makes it. On a merged release pull request ('relctl release-pr'),
        release only tags, pushes the tag and makes the forge release.

        Without a .relctl.json (before 'relctl init') the release is refused first, as are status, sync, current
        and adopt. The release reads .relctl.json, so the config must be committed: an untracked or edited
        config is refused (--allow-dirty never covers it) with the command that commits it. --include-config
        commits the config as it is in the work tree with the release instead (the first release right after
        'relctl init'); the dry run shows it in the diff.

        Never backwards: a version lower than a version file holds (or equal to it, once a release tag exists),
        or a first release below release tags HEAD cannot see, is refused before anything is planned, in a dry
        run too, with the fix ('relctl adopt' for an app already in the stores, 'git merge <tag>' for a release
        branch never merged back). --build N sets both stores' build number for this release (it must be
        higher than the current one).

        A MAJOR release stops the pipeline for a human, and never touches min_supported_version. By default
        ("onMajor": "halt") it prints a banner, writes .major-release-pending into the work tree (the version,
        the breaking changes with their commits, the decision to take and the commands that record it) and
        nothing else (no version file, changelog, commit or tag), and exits 3. Rerunning it changes nothing.
        'relctl release --confirm-major' then makes the release and commits that marker with it; once the
        build is live in the app's stores, 'relctl gate raise-min <version> --confirm-live' raises the floor, or
        'relctl gate keep-min --reason ...' keeps it. With "onMajor": "warn" the release goes through at once
        (exit 0), the marker in its commit. Under GitHub Actions a major release emits a warning annotation
        and writes version, bump, tag, major_pending, ios_build and android_build (and halted=true on a halt) to
        $GITHUB_OUTPUT. A dry
        run of a halted major release halts too (exit 3, writing nothing); add --confirm-major to see the
        release itself. --json on a halt prints the usual object with "halted": true. While an earlier major
        release's decision is pending (a committed .major-release-pending of another version), a new major
        release is refused, its dry run too, with the commands that decide the earlier one first: a pending
        decision is never replaced.

        Channels: --prerelease beta (or a "branches" entry with "prerelease") makes X.Y.Z-beta.N, X.Y.Z from the
        commits since the last stable tag and N one more than the highest vX.Y.Z-beta.* tag; iOS files get X.Y.Z
        with a higher build number each time. A prerelease never halts or writes .major-release-pending, and its
        notes go in the tag message and --json (the changelog too with "changelog": {"prereleases": true}). On a
        maintenance branch (release/1.4.x, 1.x, or "maintenance": true) the base is the highest tag of its range
        that HEAD reaches, and a commit that would leave the range is refused, naming it. increment counts build
        numbers from the highest any release tag holds, so every branch stays above every other.

        EXIT CODES:
          0   released, or nothing to release (the reason on stderr)
          1   failure (preflight, write, commit, tag or push), with the fix on stderr
          3   halted before a major release (onMajor "halt", the default, without --confirm-major)
          64  usage error
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let context = context.offline(arguments)
        var request = ReleaseRequest()
        request.dryRun = arguments.has("--dry-run")
        request.push = arguments.has("--push")
        request.remote = arguments.value("--remote") ?? "origin"
        request.confirmMajor = arguments.has("--confirm-major")
        request.allowDirty = arguments.has("--allow-dirty")
        request.includeConfig = arguments.has("--include-config")
        request.json = arguments.has("--json")
        request.build = try arguments.value("--build").map(SyncCommand.parseBuild)
        if arguments.value("--remote") != nil && !request.push && !request.dryRun {
            throw UsageError(message: "--remote goes with --push", usage: spec.usage)
        }
        // The release itself says what a halted major release's marker means (its banner, or a preflight problem).
        // A real release takes the repository lock before it reads anything (a dry run writes nothing: no lock).
        var workspace = try Workspace.open(RepositoryLocation(arguments), context, remindsOfHalt: false, locked: !request.dryRun, config: .required)
        workspace.requestedChannel = try PrereleaseOption.channel(arguments, usage: spec.usage)
        let confirmed = arguments.values("--confirm-major")
        let selection: ProjectSelection
        do {
            if workspace.config.projects.isEmpty, let name = confirmed.first {
                throw UsageError(message: "--confirm-major \(name): \(workspace.configDisplayPath) lists no projects; pass --confirm-major alone", usage: spec.usage)
            }
            selection = try ProjectSelection.select(arguments, context, workspace: workspace, usage: spec.usage, atRoot: .ask)
            for name in confirmed where workspace.config.project(named: name) == nil {
                throw UsageError(message: "--confirm-major \(name): no project \"\(name)\" in \(workspace.configDisplayPath); the projects are \(ProjectSelection.list(workspace.config.projects))", usage: spec.usage)
            }
        } catch {
            workspace.lock?.release()
            throw error
        }
        if let warning = selection.workspaces.lazy.compactMap({ StoreBuildNumbers.offlineWarning($0.config, environment: context.environment) }).first {
            context.output.warning(warning)
        }
        guard selection.hasProjects else { return try ReleaseWorkflow.run(request, workspace: workspace, context: context) }
        try ProjectReleases.run(request, confirmed: confirmed, selection: selection, opened: workspace, context: context)
    }
}
