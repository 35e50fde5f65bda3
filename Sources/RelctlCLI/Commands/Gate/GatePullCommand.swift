import RelctlCore

/// `relctl gate pull`: the live Remote Config template into the gate document, byte-stable.
enum GatePullCommand {
    static let spec = CommandSpec(
        name: "gate pull",
        summary: "Write the live Remote Config template into the gate document and show what changed.",
        options: [.dryRun, .json, .repo, .config],
        discussion: """
        Reads the live template of 'gate.firebase.projectId' (Firebase Remote Config REST API, with its ETag)
        and writes it to the gate document: keys sorted, two-space indent, a final newline, "version" kept, so
        the same live template always gives the same bytes and relctl gate publish knows which live version the
        document is based on. Then lists, parameter by parameter, what changed from the repository's copy;
        commit it (git add, git commit) to record it. --dry-run lists the changes and writes nothing.

        Credentials: GOOGLE_APPLICATION_CREDENTIALS (a service account's key) or GOOGLE_OAUTH_ACCESS_TOKEN, with
        Remote Config Viewer at least. RELCTL_FIREBASE_REMOTE_CONFIG_URL replaces the API's URL (https, or http
        to a loopback address).

        --json prints {"schemaVersion":1,"document","project","version","changed","changes":[…],"dryRun"}.

        EXIT CODES: 0 pulled (or already the same), 1 failure (nothing written), 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let dryRun = arguments.has("--dry-run")
        let workspace = try Workspace.open(RepositoryLocation(arguments), context, locked: !dryRun, command: "gate pull")
        defer { workspace.lock?.release() }
        let sync = try RemoteConfigSync.open(workspace, command: "gate pull", warning: context.output.warning)
        let result = try sync.pull(dryRun: dryRun)
        let version = result.version.map { "version \($0)" } ?? "the live template"
        let path = sync.file.relativePath
        if arguments.has("--json") {
            context.output.result(JSONOutput.object([
                ("schemaVersion", .int(1)), ("document", .string(path)), ("project", .string(sync.api.projectID)),
                ("version", result.version.map { .int($0) } ?? .null), ("changed", .bool(result.changed)),
                ("changes", .array(result.changed ? result.lines.map { .string($0) } : [])), ("dryRun", .bool(dryRun)),
            ]).rendered())
            return
        }
        guard result.changed else {
            context.output.result("\(path) already holds \(version) of \(sync.api.projectID)'s Remote Config template, byte for byte; nothing changed")
            return
        }
        context.output.result((dryRun ? "would pull " : "pulled ") + "\(version) of \(sync.api.projectID)'s Remote Config template into \(path):")
        for line in result.lines { context.output.result("  \(line)") }
        if !dryRun { context.output.note("commit it to record it: git add \(path) && git commit -m \"chore(gate): pull Remote Config \(version)\"") }
    }
}
