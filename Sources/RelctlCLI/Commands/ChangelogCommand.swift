import RelctlCore

/// `relctl changelog`: the section `relctl release` would write, printed and not written.
enum ChangelogCommand {
    static let spec = CommandSpec(
        name: "changelog",
        summary: "Print the changelog section of the next release (nothing is written).",
        options: [
            .flag("--unreleased", "Print the commits since the last release under 'Unreleased', even when no release is due."),
            .prerelease, .json, .repo, .config,
        ] + OptionSpec.projects,
        discussion: """
        The section is exactly what 'relctl release' writes to the changelog: the version and date, then
        Breaking changes, Features, Bug fixes and Performance (titles and types set by "changelog" in
        .relctl.json), each entry with its scope, description and short sha, linked to the commit and with
        a compare link when origin is a GitHub or GitLab URL. In a Keep a Changelog file (an
        '## [Unreleased]' heading) the section follows the file's heading style and holds the hand-written
        Unreleased entries too; --unreleased then shows that Unreleased section with the commits merged in.

        A prerelease (--prerelease, or a "branches" entry with "prerelease") covers every commit since the last
        stable release, as a stable release after prereleases does.

        EXIT CODES: 0 printed (or nothing to release, the reason on stderr), 1 failure, 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        var opened = try Workspace.open(RepositoryLocation(arguments), context, config: .noted)
        opened.requestedChannel = try PrereleaseOption.channel(arguments, usage: spec.usage)
        let selection = try ProjectSelection.select(arguments, context, workspace: opened, usage: spec.usage, atRoot: .every)
        let several = selection.workspaces.count > 1
        var objects: [JSONOutput] = []
        for workspace in selection.workspaces {
            let label = several ? "\(workspace.project?.name ?? ""): " : ""
            if let object = try one(workspace, arguments, context, label: label) { objects.append(object.withProject(workspace.project?.name)) }
        }
        if arguments.has("--json") {
            context.output.result((selection.hasProjects ? JSONOutput.array(objects) : objects[0]).rendered())
        }
    }

    /// One project's section: printed as text, or returned as its JSON object.
    static func one(_ workspace: Workspace, _ arguments: ParsedArguments, _ context: CommandContext, label: String) throws -> JSONOutput? {
        let analysis = try workspace.analyze()
        let config = workspace.config
        let title: String
        let tag: String
        if arguments.has("--unreleased") {
            title = "Unreleased"
            tag = "HEAD"
        } else if let next = analysis.next {
            title = next.description
            tag = try TagFormat(config.tagFormat).tagName(for: next)
        } else {
            context.output.message(label + (analysis.reason ?? "no release is due"))
            guard arguments.has("--json") else { return nil }
            return JSONOutput.object([("schemaVersion", .int(1)), ("version", .null)]
                + ReleaseReport.trackJSON(analysis.track, prereleaseNumber: nil)
                + [("section", .null), ("reason", .optional(analysis.reason))])
        }
        let release = ChangelogRelease.of(analysis, version: title, tag: tag, date: ReleaseClock.releaseDate(context.environment),
                                          config: workspace.config, repository: workspace.repository, environment: workspace.environment)
        let existing = ChangelogText.read(workspace.config, root: workspace.root)?.text
        let section = arguments.has("--unreleased")
            ? ChangelogFile.unreleasedSection(existing, with: release)
            : ChangelogFile.update(existing, with: release).section
        if arguments.has("--json") {
            return JSONOutput.object([
                ("schemaVersion", .int(1)), ("version", .optional(analysis.next?.description)),
                ("bump", .string(analysis.bump.description)),
            ] + ReleaseReport.trackJSON(analysis.track, prereleaseNumber: analysis.prereleaseNumber)
              + [("section", .string(section))])
        }
        if let line = ReleaseReport.trackLine(analysis.track, prereleaseNumber: analysis.prereleaseNumber) {
            context.output.note(label + "channel: \(line)")
        }
        if !label.isEmpty { context.output.message("\(label.dropLast(2)) (\(workspace.project?.displayPath ?? ".")):") }
        context.output.resultText(section)
        return nil
    }
}
