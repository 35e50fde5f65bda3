import RelctlCore

/// `relctl changelog`: the section `relctl release` would write, printed and not written.
enum ChangelogCommand {
    static let spec = CommandSpec(
        name: "changelog",
        summary: "Print the changelog section of the next release (nothing is written).",
        options: [
            .flag("--unreleased", "Print the commits since the last release under 'Unreleased', even when no release is due."),
            .prerelease, .json, .repo, .config,
        ],
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
        var workspace = try Workspace.open(arguments, context, config: .noted)
        workspace.requestedChannel = try PrereleaseOption.channel(arguments, usage: spec.usage)
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
            context.output.message(analysis.reason ?? "no release is due")
            if arguments.has("--json") {
                context.output.result(JSONOutput.object([("schemaVersion", .int(1)), ("version", .null)]
                    + ReleaseReport.trackJSON(analysis.track, prereleaseNumber: nil)
                    + [("section", .null), ("reason", .optional(analysis.reason))]).rendered())
            }
            return
        }
        let release = workspace.changelogRelease(version: title, tag: tag, analysis: analysis,
                                                 date: ReleaseClock.releaseDate(context.environment))
        let existing = workspace.changelogText
        let section = arguments.has("--unreleased")
            ? ChangelogFile.unreleasedSection(existing, with: release)
            : ChangelogFile.update(existing, with: release).section
        if arguments.has("--json") {
            context.output.result(JSONOutput.object([
                ("schemaVersion", .int(1)), ("version", .optional(analysis.next?.description)),
                ("bump", .string(analysis.bump.description)),
            ] + ReleaseReport.trackJSON(analysis.track, prereleaseNumber: analysis.prereleaseNumber)
              + [("section", .string(section))]).rendered())
        } else {
            if let line = ReleaseReport.trackLine(analysis.track, prereleaseNumber: analysis.prereleaseNumber) {
                context.output.note("channel: \(line)")
            }
            context.output.resultText(section)
        }
    }
}
