import RelctlCore
import VersionGate

/// `relctl gate plan`: every released version with the gate's verdict for its users today and under proposed
/// values, so the engineer sees which releases a new floor blocks. Writes nothing.
enum GatePlanCommand {
    static let spec = CommandSpec(
        name: "gate plan",
        summary: "Show every released version's verdict today and under a proposed minimum or latest (writes nothing).",
        options: [.value("--min", "VERSION", "The proposed minimum supported version."),
                  .value("--latest", "VERSION", "The proposed latest version."),
                  GateArguments.platform, GateArguments.project, .json, .repo, .config],
        discussion: """
        The released versions are the stable release tags of tagFormat (every one, merged or not: users run them
        all). For each platform of the gate the verdict of each version is shown as the app's library gives it
        (blocked, updateAvailable, ok, maintenance) under the document's values today and under the proposed ones.
        A proposal applies where raise-min and set-latest would write it: with --platform, to that platform's own
        value; without, to the default value, which a platform with a value of its own does not read (it is named).

        --json prints {"schemaVersion":1,"document","platforms":[{"platform","condition","today":{"minimum",
        "latest"},"proposed":{"minimum","latest"},"versions":[{"version","tag","today","proposed"}]}]}.

        EXIT CODES: 0 shown, 1 failure, 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let usage = spec.usage
        let proposedMinimum = try GateArguments.version(option: "--min", arguments, usage: usage)
        let proposedLatest = try GateArguments.version(option: "--latest", arguments, usage: usage)
        let workspace = try GateArguments.projectWorkspace(arguments, context, try Workspace.open(RepositoryLocation(arguments), context), usage: usage)
        let loaded = try LoadedGateDocument.load(workspace.config, root: workspace.root)
        let only = try GateArguments.platform(arguments, settings: loaded.settings, usage: usage)
        let released = try workspace.releaseTags().released
        if released.isEmpty {
            context.output.note("no release tag of tagFormat \(workspace.config.tagFormat) yet, so there is no released version to show")
        }
        let plan = try GatePlan.make(loaded, released: released, only: only, minimum: proposedMinimum, latest: proposedLatest)
        if arguments.has("--json") {
            context.output.result(plan.json.rendered())
        } else {
            context.output.resultText(plan.text(loaded))
        }
    }
}
