import RelctlCore
import VersionGate

/// `relctl gate set-latest <version>`: moves the nudge threshold, in one commit.
enum GateSetLatestCommand {
    static let spec = CommandSpec(
        name: "gate set-latest",
        summary: "Set the latest version (below it the app offers the update), in one commit.",
        options: [GateArguments.platform, .dryRun, .json, .repo, .config],
        positionals: [PositionalSpec(name: "version", optional: false, help: "The new latest: a released version, e.g. 2.6.0.")],
        discussion: """
        For teams that move the latest once a build is live. Refused, with nothing written, unless <version> is a
        released version (a release tag of tagFormat), not a maintenance release (a tag off the main branch with
        a higher version released) and not below the minimum; the same version again changes nothing. Only that
        value changes, in place: with --platform, that platform's own value; without, the default value. A document
        version ("configVersion") moves on by one; the commit's message names the change. The major-release marker
        is left alone (the latest blocks no one). --dry-run prints the diff and changes nothing.

        --json prints {"schemaVersion":1,"decision":"set-latest","document","platform","field","from","to","changed",
        "paths","message","commit","dryRun","diff"} ("changed": false when the latest already is <version>).

        EXIT CODES: 0 set (or nothing to change, or shown), 1 refused or failed (nothing written), 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let usage = spec.usage
        let version = try GateArguments.version(arguments.positionals[0], "version", usage: usage)
        let dryRun = arguments.has("--dry-run")
        // The decision is read and committed under the repository lock, taken before anything is read; a dry run
        // takes none.
        let workspace = try Workspace.open(arguments, context, locked: !dryRun, command: "gate set-latest")
        defer { workspace.lock?.release() }
        let loaded = try workspace.loadGateDocument()
        let settings = loaded.settings
        let platform = try GateArguments.platform(arguments, settings: settings, usage: usage)

        let release = try workspace.releasedVersion(version, because: "the update the app offers must be one users can install")
        if let problem = try workspace.maintenanceReleaseProblem(release) { throw CLIFailure(message: problem) }
        let site = try GateValueEdit.site(.latestVersion, platform: platform, in: loaded)
        let current = try loaded.config(for: platform)
        let whose = platform.map { "\($0)'s" } ?? "the default"
        func json(from: String, to: String) -> [(String, JSONOutput)] {
            [("decision", .string("set-latest")), ("document", .string(loaded.path)), ("platform", .optional(platform?.rawValue)),
             ("field", .string(site.key)), ("from", .string(from)), ("to", .string(to))]
        }
        if let latest = current?.latestVersion, latest == version {
            if arguments.has("--json") {
                context.output.result(GateDecisionCommit.unchangedJSON(json(from: latest.description, to: latest.description)).rendered())
            }
            context.output.message("\(site.label) is already \(latest) in \(loaded.path); nothing to change")
            return
        }
        if let minimum = current?.minimumSupportedVersion, version < minimum {
            let minimumSite = loaded.layout.site(of: loaded.key(.minimumSupportedVersion), for: platform, reader: loaded.reader)
            throw Problem("\(version) is below \(whose) minimum \(minimum) (\(minimumSite?.label ?? "the minimum")): users on the latest would be blocked",
                          at: loaded.location(site.line), hint: "the latest is at least the minimum; pick a version from \(minimum) up")
        }
        // Written as the release names it (3.0.0 for a given 3.0).
        let edit = try GateValueEdit.make(loaded, field: .latestVersion, platform: platform, site: site, to: release.gateVersion)
        if let problem = edit.newProblems(comparedWith: loaded).first {
            throw Problem("after the change: \(problem.message)", at: problem.location, hint: problem.hint)
        }
        for skipped in edit.skippedVersions {
            context.output.note("\(skipped.label) (line \(skipped.line)) is not a whole number, so it was not moved on")
        }
        var message = "chore(gate): set the latest version to \(version)\(platform.map { " on \($0)" } ?? "")\n\n"
        message += "Decision recorded with relctl gate set-latest \(version): users below \(version)\(platform.map { " on \($0)" } ?? "") (and not below the minimum) are offered the update once the document is deployed (release \(release.tag)).\n\n"
        message += edit.messageLines.joined(separator: "\n") + "\n"
        let decision = GateDecisionCommit(document: edit.write, documentPath: loaded.path, marker: nil, message: message)
        try decision.record(workspace, context: context, dryRun: dryRun,
                            done: "set \(site.label) from \(edit.change.old) to \(version) in \(loaded.path)",
                            deployHint: settings.deployHint,
                            json: arguments.has("--json") ? json(from: edit.change.old, to: edit.change.new) : nil)
    }
}
