/// `relctl release-pr`: the next release as a pull request (GitHub) or merge request (GitLab), for branches only a
/// merge may write (see Forge/ReleasePullRequest.swift).
enum ReleasePRCommand {
    static let spec = CommandSpec(
        name: "release-pr",
        summary: "Create or update the pull request (or merge request) that makes the next release.",
        options: [
            .dryRun,
            .value("--remote", "NAME", "The remote on GitHub or GitLab to push the branch to (default: origin).", completion: .gitRemote),
            .json, .repo, .config,
        ],
        discussion: """
        Computes the next release as 'relctl release' does and puts it in one commit, 'chore(release): X.Y.Z'
        (the commitMessage), on top of HEAD: the version files, the changelog, the store notes when configured
        and, for a major release, .major-release-pending. The commit is on the branch relctl/release-<branch>
        (relctl/release-main), force-pushed; the checkout, the index and the current branch are not touched.
        One pull request (GitHub) or merge request (GitLab) from that branch into the current one holds it:
        its title is the commit's, its body the changelog section (and, for a major release, its breaking
        changes and the floor decision 'relctl gate' records later), its label 'relctl: pending'.

        Rerun it after every push to the branch: new commits since make a new version, the branch is
        force-pushed and the same request updated; when nothing is due any more the request is closed and the
        branch deleted. HEAD must be the remote branch as it is (pull, or push through a pull request, first).

        Once the request is merged (a merge commit, a squash or a rebase), 'relctl release --push' on the
        branch sees that HEAD is the merged release (its files hold X.Y.Z, the message names it) and only
        tags it, pushes the tag and makes the forge release; the label becomes 'relctl: tagged'. Merging the
        request of a major release is the confirmation: no --confirm-major, and min_supported_version is not
        changed. The only write to the branch is the merge a human makes, so this works where it is protected.

        The forge and the token as for 'relctl publish-release': GITHUB_TOKEN or GH_TOKEN (contents and
        pull-requests write), GITLAB_TOKEN or CI_JOB_TOKEN, GITHUB_API_URL or CI_API_V4_URL; the token is
        never printed nor on a command line. Prints the request's URL (--json: {"schemaVersion":1,"action",
        "version","tag","bump","branch","commit","prNumber","prUrl","title","body","reason","dryRun"}); under
        GitHub Actions writes action (created, updated, closed or none), version, pr_number and pr_url to
        $GITHUB_OUTPUT. --dry-run prints the title and body and pushes nothing. A repository with "projects"
        is refused (release them with 'relctl release --project NAME --push').

        EXIT CODES: 0 created, updated, closed or nothing to do, 1 failure (no forge, no token, the forge or
        the push refused, a preflight problem), 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        var request = ReleasePullRequestRequest()
        request.dryRun = arguments.has("--dry-run")
        request.json = arguments.has("--json")
        request.remote = arguments.value("--remote") ?? "origin"
        let workspace = try Workspace.open(RepositoryLocation(arguments), context, locked: !request.dryRun, command: "release-pr", config: .required)
        defer { workspace.lock?.release() }
        try ReleasePullRequest.run(request, workspace: workspace, context: context)
    }
}
