import RelctlCore

/// `relctl notes`: the store release notes the next release writes, printed and not written.
enum NotesCommand {
    static let spec = CommandSpec(
        name: "notes",
        summary: "Print the store release notes of the next release (nothing is written).",
        options: [
            .value("--store", "STORE", "Only the notes of one store: android (Google Play) or ios (App Store).",
                   completion: .words(["android", "ios"])),
            .prerelease, .json, .repo, .config,
        ],
        discussion: """
        Prints every file "storeNotes" in .relctl.json makes 'relctl release' write, each under a line naming the
        file, the store and its characters against the store's limit (Google Play 500, App Store 4,000, counted
        as the stores count: UTF-16 units, not bytes). The notes list the commits of the user-facing types
        ("storeNotes": {"types"}, default feat, fix and perf), one '• Description' line each; over the limit they
        are cut at a whole line and end with a line such as '…and 3 more fixes'.

        Without "storeNotes" in the config the defaults are shown (en-US, fastlane's paths), so the notes can be
        tried before they are turned on.

        EXIT CODES: 0 printed (or nothing to release, the reason on stderr), 1 failure, 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        var stores = NotesStore.allCases
        if let text = arguments.value("--store") {
            guard let store = NotesStore(rawValue: text) else {
                throw UsageError(message: "--store \"\(text)\" is not a store; use android (Google Play) or ios (App Store)", usage: spec.usage)
            }
            stores = [store]
        }
        var workspace = try Workspace.open(RepositoryLocation(arguments), context, config: .noted)
        workspace.requestedChannel = try PrereleaseOption.channel(arguments, usage: spec.usage)
        let analysis = try workspace.analyze()
        let config = workspace.config
        guard let next = analysis.next else {
            context.output.message(analysis.reason ?? "no release is due")
            if arguments.has("--json") {
                context.output.result(JSONOutput.object([("schemaVersion", .int(1)), ("version", .null),
                                                         ("files", .array([])), ("reason", .optional(analysis.reason))]).rendered())
            }
            return
        }
        let configured = config.storeNotes != nil
        var settings = config.storeNotes ?? StoreNotesSettings()
        if settings.target(.android) == nil || settings.target(.ios) == nil,
           let only = stores.first, stores.count == 1, settings.target(only) == nil {
            throw Problem("\(workspace.configDisplayPath) turns the \(only.displayName) notes off (\"storeNotes\": {\"\(only.rawValue)\": false}); drop --store \(only.rawValue) or turn them on")
        }
        if !stores.contains(.android) { settings.android = nil }
        if !stores.contains(.ios) { settings.ios = nil }
        // The versionCode the release would write: the plan computes it (read only).
        let plan = try ReleasePlanner.plan(workspace: workspace, analysis: analysis, version: next, environment: context.environment)
        let files = try StoreNotesFiles.files(settings, commits: analysis.commits.commits, version: next.description,
                                              versionCode: plan.androidBuild, configPath: workspace.configDisplayPath,
                                              strict: configured)
        if !configured { context.output.note("no \"storeNotes\" in \(workspace.configDisplayPath): showing the defaults; 'relctl release' writes them once \"storeNotes\": true (or an object) is set") }
        if arguments.has("--json") {
            context.output.result(JSONOutput.object([
                ("schemaVersion", .int(1)), ("version", .string(next.description)),
                ("files", .array(files.map { file in
                    JSONOutput.object([("store", .string(file.store.rawValue)), ("locale", .string(file.locale)),
                                       ("path", .string(file.path)), ("characters", .int(file.characters)),
                                       ("limit", .int(file.store.limit)), ("text", .string(file.text))])
                })),
            ]).rendered())
            return
        }
        var text = ""
        for (index, file) in files.enumerated() {
            if index > 0 { text += "\n" }
            text += "==> \(file.path) (\(file.store.displayName), \(file.locale), \(file.characters)/\(file.store.limit) characters) <==\n"
            text += file.text
        }
        context.output.resultText(text)
    }
}
