import RelctlCore
import VersionGate

/// `relctl gate set-latest <version>`: moves the nudge threshold, in one commit.
enum GateSetLatestCommand {
    static let spec = CommandSpec(
        name: "gate set-latest",
        summary: "Set the latest version (below it the app offers the update), in one commit.",
        options: [GateArguments.platform, GateArguments.project, RemoteConfigSync.publishOption, .dryRun, .json, .repo, .config],
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
        let opened = try Workspace.open(RepositoryLocation(arguments), context, locked: !dryRun, command: "gate set-latest")
        defer { opened.lock?.release() }
        let workspace = try GateArguments.projectWorkspace(arguments, context, opened, usage: usage)
        if GateDecisionPlanner.finishedAtOpen(.gateSetLatest, version: version, context: context) { return }
        let loaded = try LoadedGateDocument.load(workspace.config, root: workspace.root)
        let platform = try GateArguments.platform(arguments, settings: loaded.settings, usage: usage)
        switch try GateDecisionPlanner(workspace: workspace, loaded: loaded, platform: platform).setLatest(to: version) {
        case .unchanged(let message, let json):
            if arguments.has("--json") { context.output.result(GateDecisionCommit.unchangedJSON(json).rendered()) }
            context.output.message(message)
        case .decided(let decision):
            try decision.record(workspace, context: context, dryRun: dryRun, json: arguments.has("--json"),
                                publish: try RemoteConfigSync.publishStep(arguments, workspace, command: "gate set-latest", dryRun: dryRun, context: context))
        }
    }
}
