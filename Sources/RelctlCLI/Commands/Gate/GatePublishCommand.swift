import RelctlCore

/// `relctl gate publish`: relctl's decisions in the gate document published to the live Remote Config template,
/// validated first, then with If-Match.
enum GatePublishCommand {
    static let spec = CommandSpec(
        name: "gate publish",
        summary: "Publish the gate document's minimum and latest to the live Remote Config template (ETag-safe).",
        options: [.flag("--onto-live", "The live template moved on since the pull: apply only the minimum and latest onto it."),
                  .dryRun, .json, .repo, .config],
        discussion: """
        Reads the live template with its ETag and refuses when its version is newer than the one the document
        was pulled at (relctl gate pull), listing parameter by parameter what changed in the console since:
        publishing would undo it. --onto-live applies only relctl's decisions (the minimum and latest
        parameters: their default and conditional values, as the document has them) onto the live template.
        Everything else — parameters, conditions, groups, rollout settings — is sent back exactly as the live
        template has it. The template is validated first (validateOnly), then published with If-Match: the
        ETag read (never *); when someone published in between (HTTP 412) relctl reads again once, then refuses.
        --dry-run reads and validates, and publishes nothing.

        Credentials: GOOGLE_APPLICATION_CREDENTIALS (a service account's key) or GOOGLE_OAUTH_ACCESS_TOKEN, with
        the Firebase Remote Config Admin role. RELCTL_FIREBASE_REMOTE_CONFIG_URL replaces the API's URL.

        --json prints {"schemaVersion":1,"project","published","version","basedOn","changes":[…],"dryRun"}
        (published false and version null when there was nothing to publish, or in a dry run).

        EXIT CODES: 0 published (or nothing to publish), 1 refused or failed (nothing published), 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let dryRun = arguments.has("--dry-run")
        let workspace = try Workspace.open(RepositoryLocation(arguments), context, command: "gate publish")
        let sync = try RemoteConfigSync.open(workspace, command: "gate publish", warning: context.output.warning)
        let result = try sync.publish(ontoLive: arguments.has("--onto-live"), dryRun: dryRun)
        let project = sync.api.projectID
        if arguments.has("--json") {
            let published = result.version != nil && !dryRun
            context.output.result(JSONOutput.object([
                ("schemaVersion", .int(1)), ("project", .string(project)), ("published", .bool(published)),
                ("version", result.version.map { .int($0) } ?? .null), ("basedOn", result.based.map { .int($0) } ?? .null),
                ("changes", .array(published || dryRun ? result.lines.map { .string($0) } : [])), ("dryRun", .bool(dryRun)),
            ]).rendered())
            return
        }
        if result.version == nil && !dryRun {
            for line in result.lines { context.output.result(line) }
            return
        }
        let based = result.based.map { " (live: version \($0))" } ?? ""
        context.output.result(dryRun ? "validated; would publish to \(project)'s Remote Config template\(based):"
                                     : "published version \(result.version.map(String.init) ?? "?") of \(project)'s Remote Config template\(result.based.map { " (was version \($0))" } ?? ""):")
        for line in result.lines { context.output.result("  \(line)") }
        if !dryRun { context.output.note("record the live version: relctl gate pull, then commit") }
    }
}
