import RelctlCore
import RelctlGit

/// `relctl publish-release <tag>`: the release object on GitHub or GitLab for a tag already pushed, created or
/// updated; what `relctl release --push` does after its push, run again by hand when the forge failed.
enum PublishReleaseCommand {
    static let spec = CommandSpec(
        name: "publish-release",
        summary: "Create or update the GitHub or GitLab release of a pushed release tag.",
        options: [
            .value("--remote", "NAME", "The remote the tag was pushed to, whose URL names the forge (default: origin).", completion: .gitRemote),
            ForgeAssets.option,
            .json, .repo, .config,
        ],
        positionals: [PositionalSpec(name: "tag", optional: false, help: "The release tag, e.g. v1.3.0; it must be on the remote.")],
        discussion: """
        The release's title is the tag and its notes are the tag's section of the changelog as committed at the
        tag; a version with a prerelease (1.4.0-beta.2) is marked a prerelease, and on GitHub a release below
        a higher stable release (a maintenance release) is not made "latest". The release of that tag is looked
        up first and updated when it exists: running this twice never makes two.

        The forge comes from the remote's URL (github.com, GitHub Enterprise, gitlab.com or a host naming
        gitlab) or from "forge" in .relctl.json; the token from GITHUB_TOKEN or GH_TOKEN (GitHub), GITLAB_TOKEN
        or CI_JOB_TOKEN (GitLab), never printed nor put on a command line; the API from GITHUB_API_URL or
        CI_API_V4_URL when set. Prints the release's URL on stdout (--json: {"schemaVersion":1,"tag",
        "release_url","releaseUrl","action","assets":[{"name","url"}]}, releaseUrl the same URL under its older
        name), and writes release_url to $GITHUB_OUTPUT under GitHub Actions.

        --asset FILE (repeatable) attaches each file once the release is made, under its base name: on GitHub an
        asset of the release, on GitLab a file in the project's generic package registry (package "release",
        version the tag) linked from the release. An asset or link of that name already there is replaced, so a
        rerun never makes two. A file missing or unreadable is refused before anything is sent; an upload that
        fails says which assets are attached, and the same command, rerun, finishes the rest.

        EXIT CODES: 0 created or updated (and every --asset attached), 1 failure (no forge, no token, the tag not
        on the remote, the forge refused, an --asset file missing or its upload failed), 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let tag = arguments.positionals[0]
        let remote = arguments.value("--remote") ?? "origin"
        // Every file checked before anything is sent.
        let files = try ForgeAssets.files(arguments, tag: tag, currentDirectory: context.currentDirectory)
        let workspace = try Workspace.open(RepositoryLocation(arguments), context, config: .optional)
        let repository = workspace.repository
        let release = try ForgePublishing.release(
            of: tag, repository: repository, config: workspace.config, root: workspace.root, tags: workspace.tagListing)
        let target: ForgeReleases.Target
        switch ForgeReleases.resolve(config: workspace.config, remoteURL: repository.remoteURL(remote), environment: context.environment) {
        case .off:
            throw Problem("'\(remote)' is not on GitHub or GitLab (its URL does not say so) and .relctl.json names no forge; set \"forge\": {\"provider\": \"github\", \"repository\": \"owner/name\"} (or \"gitlab\") to publish there")
        case .unavailable(let why):
            throw Problem(why.replacingOccurrences(of: "<tag>", with: tag))
        case .target(let found):
            target = found
        }
        // The forge would make a tag that is missing there from its default branch: the tag must be pushed, the same.
        let refs = try Publishing.remoteReferences(repository, remote: remote, environment: context.environment)
        guard let local = try repository.tag(named: tag) else { throw Problem("tag \(tag) does not exist here") }
        guard let there = refs["refs/tags/\(tag)"] else {
            throw Problem("tag \(tag) is not on '\(remote)'; push it first ('relctl release --push' pushes a release made here, or git push \(remote) refs/tags/\(tag)), then rerun 'relctl publish-release \(tag)'")
        }
        guard there == local.target else {
            throw Problem("tag \(tag) on '\(remote)' is not the one here (\(there.hex.prefix(12)) there, \(local.target.hex.prefix(12)) here); fetch the remote's tags (git fetch --tags --force \(remote)) and rerun 'relctl publish-release \(tag)'")
        }
        let outcome: ForgeReleases.Outcome
        do {
            outcome = try ForgeReleases.publish(release, to: target, environment: context.environment)
        } catch {
            ForgePublishing.remember(tag, gitDir: repository.gitDir)
            throw Problem("the \(target.name) release \(tag) was not made: \(error.message); fix the cause and rerun 'relctl publish-release \(tag)'")
        }
        ForgePublishing.forget(tag, gitDir: repository.gitDir)
        context.output.message("\(outcome.action) the \(target.name) release \(tag): \(outcome.url)")
        let assets = try ForgeAssets.attach(files, arguments, tag: tag, to: target, release: outcome.url, context: context)
        if arguments.has("--json") {
            let report: [(String, JSONOutput)] = [("schemaVersion", .int(1)), ("tag", .string(tag)),
                                                  ("release_url", .string(outcome.url)),
                                                  ("releaseUrl", .string(outcome.url)), ("action", .string(outcome.action))]
            context.output.result(JSONOutput.object(report + [("assets", ForgeAssets.json(assets))]).rendered())
        } else {
            context.output.result(outcome.url)
        }
        context.ci?.publish(outputs: [("release_url", outcome.url)], output: context.output)
    }

}
