import RelctlCore

/// `relctl gate status`: the document's minimum and latest per platform, whether the document agrees with the live
/// Remote Config template, and with --live each store's live version and rollout.
enum GateStatusCommand {
    static let spec = CommandSpec(
        name: "gate status",
        summary: "The gate document's values, whether it agrees with the live template, and (--live) the stores.",
        options: [.flag("--live", "Also ask each store of 'stores' which version is live, and its rollout."), .repo, .config],
        discussion: """
        Shows each platform's minimum and latest as the document holds them. With "firebase": {"projectId"}
        under 'gate' and Google credentials, says whether the document agrees with the live Remote Config
        template, and how they differ. --live adds each store of 'stores' in .relctl.json: App Store Connect's
        live version, its phased release and the next version's state (or Apple's public lookup without
        credentials), and Google Play's production releases with their versionCodes, the release tags that
        shipped them, and the fraction of a staged rollout. A service that cannot be read is shown as such.

        EXIT CODES: 0 shown, 1 failure (no gate configured), 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let workspace = try Workspace.open(arguments, context, command: "gate status")
        let settings = try workspace.gateSettings()
        context.output.resultText(GateStatusReport.text(workspace))
        for line in StoreStatus.lines(workspace, settings: settings, live: arguments.has("--live"), warning: context.output.warning) {
            context.output.result(line)
        }
    }
}
