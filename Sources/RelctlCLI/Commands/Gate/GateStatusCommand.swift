import Foundation
import RelctlCore

/// `relctl gate status`: the document's minimum and latest per platform, whether the document agrees with the live
/// Remote Config template, and with --live each store's live version and rollout.
enum GateStatusCommand {
    static let spec = CommandSpec(
        name: "gate status",
        summary: "The gate document's values, whether it agrees with the live template, and (--live) the stores.",
        options: [.flag("--live", "Also ask each store of 'stores' which version is live, and its rollout."), .json, .repo, .config],
        discussion: """
        Shows each platform's minimum and latest as the document holds them. With "firebase": {"projectId"}
        under 'gate' and Google credentials, says whether the document agrees with the live Remote Config
        template, and how they differ. --live adds each store of 'stores' in .relctl.json: App Store Connect's
        live version, its phased release and the next version's state (or Apple's public lookup without
        credentials), and Google Play's production releases with their versionCodes, the release tags that
        shipped them, and the fraction of a staged rollout. A service that cannot be read is shown as such.

        --json prints {"schemaVersion":1,"gate":{"document","format","platforms","problem"},"live":{"App Store",
        "Google Play","Remote Config"}} (each live entry the line the text shows; absent when not asked).

        EXIT CODES: 0 shown, 1 failure (no gate configured), 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let workspace = try Workspace.open(RepositoryLocation(arguments), context, command: "gate status")
        let settings = try workspace.config.gateSettings()
        let lines = StoreStatus.lines(workspace, settings: settings, live: arguments.has("--live"), warning: context.output.warning)
        if arguments.has("--json") {
            let live = lines.map { line -> (String, JSONOutput) in
                let name = String(line.prefix { $0 != ":" })
                return (name, .string(String(line.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces)))
            }
            context.output.result(JSONOutput.object([
                ("schemaVersion", .int(1)), ("gate", GateStatusReport.json(workspace)), ("live", .object(live)),
            ]).rendered())
            return
        }
        context.output.resultText(GateStatusReport.text(workspace))
        for line in lines { context.output.result(line) }
    }
}
