import RelctlCore
import VersionGate

/// `relctl gate check`: validates the gate document before it is deployed.
enum GateCheckCommand {
    static let spec = CommandSpec(
        name: "gate check",
        summary: "Validate the gate document before it is deployed: one line per problem, exit 2.",
        options: [.json, .repo, .config],
        discussion: """
        The app fails open: a gate document it cannot read, or one that says nothing, lets every user through, so a
        mistake in it goes silent in production. check reads the document as the app's library does and names
        every problem with its line: a key the gate needs that is missing or misspelt (with the key it should be),
        a minimum or latest version that is not dot-separated numbers, a minimum above the latest, a store URL
        that is missing or not https for a platform, an empty message, a value of the wrong type, and a condition
        (Firebase) or platforms member (json) that does not exist or belongs to no platform of the gate.

        The platforms are those of 'gate.platforms' in .relctl.json (iOS and Android when it is not given).

        --json prints {"schemaVersion":1,"document","format","valid","problems":[{"line","message","hint"}],
        "platforms":[{"platform","condition","minimum","latest","storeUrl"}]}.

        EXIT CODES: 0 valid, 1 failure (no gate configured, the document missing), 2 problems found, 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let workspace = try Workspace.open(RepositoryLocation(arguments), context)
        let settings = try workspace.config.gateSettings()
        let file = try workspace.config.gateDocumentFile(settings, root: workspace.root)
        let bytes = try file.read(settings, configPath: workspace.configDisplayPath)
        var loaded: LoadedGateDocument?
        let problems: [Problem]
        do {
            let document = try LoadedGateDocument.read(bytes, file: file, settings: settings)
            loaded = document
            problems = GateCheck(loaded: document).problems()
        } catch let problem as Problem {
            problems = [problem]
        }
        let values = problems.isEmpty ? loaded?.platformValues() ?? [] : []
        let output = context.output
        if arguments.has("--json") {
            let items: [JSONOutput] = problems.map { problem in
                .object([("line", problem.location?.line.map { .int($0) } ?? .null), ("message", .string(problem.message)),
                         ("hint", .optional(problem.hint))])
            }
            output.result(JSONOutput.object([
                ("schemaVersion", .int(1)), ("document", .string(file.relativePath)), ("format", .string(settings.format.rawValue)),
                ("valid", .bool(problems.isEmpty)), ("problems", .array(items)), ("platforms", .array(values.map(\.json))),
            ]).rendered())
        } else if problems.isEmpty {
            let width = values.map(\.platform.rawValue.count).max() ?? 0
            var text = "\(file.relativePath): the gate is valid\n"
            for value in values {
                text += "  \(value.row(width: width))\(value.storeURL.map { "  \($0)" } ?? "")\n"
            }
            output.resultText(text)
        } else {
            for problem in problems { output.error(problem.rendered()) }
            output.message("gate check: \(problems.count) problem\(problems.count == 1 ? "" : "s") in \(file.relativePath); the app fails open, so fix \(problems.count == 1 ? "it" : "them") before deploying the document")
        }
        if !problems.isEmpty { throw ExitCode.gateProblems }
    }
}
