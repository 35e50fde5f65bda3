import Foundation
import RelctlCore

/// `relctl changelog`: the section `relctl release` would write, printed and not written.
enum ChangelogCommand {
    static let spec = CommandSpec(
        name: "changelog",
        summary: "Print the changelog section of the next release (nothing is written).",
        options: [
            .flag("--unreleased", "Print the commits since the last release under 'Unreleased', even when no release is due."),
            .json, .repo, .config,
        ],
        discussion: """
        The section is exactly what 'relctl release' writes to the changelog: the version and date, then
        Breaking changes, Features, Bug fixes and Performance (titles and types set by "changelog" in
        .relctl.json), each entry with its scope, description and short sha, linked to the commit and with
        a compare link when origin is a GitHub or GitLab URL. In a Keep a Changelog file (an
        '## [Unreleased]' heading) the section follows the file's heading style and holds the hand-written
        Unreleased entries too; --unreleased then shows that Unreleased section with the commits merged in.

        EXIT CODES: 0 printed (or nothing to release, the reason on stderr), 1 failure, 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        let workspace = try Workspace.open(arguments, context)
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
                context.output.result(JSONOutput.object([("schemaVersion", .int(1)), ("version", .null), ("section", .null),
                                                         ("reason", .optional(analysis.reason))]).rendered())
            }
            return ExitCode.success
        }
        let release = workspace.changelogRelease(version: title, tag: tag, analysis: analysis,
                                                 date: ReleasePlan.releaseDate(context.environment))
        let existing = workspace.changelogText
        let section = arguments.has("--unreleased")
            ? ChangelogFile.unreleasedSection(existing, with: release)
            : ChangelogFile.update(existing, with: release).section
        if arguments.has("--json") {
            context.output.result(JSONOutput.object([
                ("schemaVersion", .int(1)), ("version", .optional(analysis.next?.description)),
                ("bump", .string(analysis.bump.description)), ("section", .string(section)),
            ]).rendered())
        } else {
            context.output.resultText(section)
        }
        return ExitCode.success
    }
}

/// `relctl status`: the release state of the repository, and the major-release decision if one is pending.
enum StatusCommand {
    static let spec = CommandSpec(
        name: "status",
        summary: "Show the last release, the next version, and any pending major-release decision.",
        options: [.json, .repo, .config],
        discussion: """
        A pending decision is the .major-release-pending file a major release commits: min_supported_version
        was left alone, and raising it is for a human to do once the new build is live in both stores.

        EXIT CODES: 0 shown, 1 failure, 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws -> Int32 {
        let workspace = try Workspace.open(arguments, context)
        let analysis = try workspace.analyze()
        let pending = workspace.pendingMajor
        let branch = try workspace.repository.currentBranch()
        let floor = workspace.versionFloor()
        let backwards = workspace.backwardsProblem(analysis, floor: floor)
        if arguments.has("--json") {
            var members: [(String, JSONOutput)] = [
                ("schemaVersion", .int(1)), ("branch", .optional(branch)),
                ("current", .optional(analysis.current?.description)), ("baseTag", .optional(analysis.baseTag)),
                ("next", .optional(analysis.next?.description)), ("bump", .string(analysis.bump.description)),
                ("commitsSinceRelease", .int(analysis.commits.commits.count)),
                ("filesVersion", .optional(floor?.held?.value)),
                ("unreachableTags", .array(analysis.unreachableTags.map { .string($0.tag) })),
                ("problem", .optional(backwards)),
            ]
            if let pending {
                members.append(("majorPending", .object([
                    ("version", .string(pending.version)), ("previousVersion", .optional(pending.previousVersion)),
                    ("tag", .string(pending.tag)), ("date", .string(pending.date)), ("instruction", .string(pending.instruction)),
                ])))
            } else {
                members.append(("majorPending", .null))
            }
            context.output.result(JSONOutput.object(members).rendered())
            return ExitCode.success
        }
        var text = "branch:        \(branch ?? "(detached HEAD)")\n"
        text += "last release:  \(analysis.baseTag.map { "\($0) (\(analysis.current!.description))" } ?? "none yet")\n"
        text += "since then:    \(analysis.commits.commits.count) commit\(analysis.commits.commits.count == 1 ? "" : "s")\n"
        if let next = analysis.next {
            text += "next release:  \(next) (\(analysis.current == nil ? "first release" : analysis.bump.description))\n"
        } else {
            text += "next release:  none due (\(analysis.reason ?? "no releasable commit"))\n"
        }
        if let held = floor?.held {
            text += "files hold:    \(held.value)\(floor?.agreed == false ? " (the files disagree: relctl current)" : "")\n"
        }
        if let backwards {
            text += "problem:       \(backwards)\n"
        } else {
            for note in workspace.baseNotes(analysis, floor: floor) { text += "note:          \(note)\n" }
        }
        if let pending {
            text += "major pending: \(pending.version) released \(pending.date.prefix(10)); min_supported_version unchanged\n"
            text += "               raise it once \(pending.version) is live in both stores: \(MajorReleaseNotice.raiseCommand(version: pending.version))\n"
        } else {
            text += "major pending: none\n"
        }
        context.output.resultText(text)
        return ExitCode.success
    }
}
