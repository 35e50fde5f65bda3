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

    struct Row {
        let released: ReleasedVersion
        let today: GateStatus
        let proposed: GateStatus
    }

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let usage = spec.usage
        let proposedMinimum = try GateArguments.version(option: "--min", arguments, usage: usage)
        let proposedLatest = try GateArguments.version(option: "--latest", arguments, usage: usage)
        let workspace = try GateArguments.projectWorkspace(arguments, context, try Workspace.open(RepositoryLocation(arguments), context), usage: usage)
        let loaded = try LoadedGateDocument.load(workspace.config, root: workspace.root)
        let only = try GateArguments.platform(arguments, settings: loaded.settings, usage: usage)
        let released = try workspace.releaseTags().released
        let proposing = proposedMinimum != nil || proposedLatest != nil
        let output = context.output
        if released.isEmpty {
            output.note("no release tag of tagFormat \(workspace.config.tagFormat) yet, so there is no released version to show")
        }

        var sections: [(platform: GatePlatform, condition: String, today: GateConfig?, proposed: GateConfig?, rows: [Row], notes: [String])] = []
        for (platform, _) in loaded.settings.platforms where only == nil || only == platform {
            let today = try loaded.config(for: platform)
            var proposed = today ?? GateConfig()
            var notes: [String] = []
            for (field, value) in [(GateField.minimumSupportedVersion, proposedMinimum), (.latestVersion, proposedLatest)] {
                guard let value else { continue }
                let key = loaded.key(field)
                let site = loaded.layout.site(of: key, for: platform, reader: loaded.reader)
                if only == nil, let site, site.condition != nil {
                    notes.append("\(platform) reads its own \(site.label), which a change of the default leaves alone; add --platform \(platform) to propose it there")
                    continue
                }
                if field == .minimumSupportedVersion { proposed.minimumSupportedVersion = value } else { proposed.latestVersion = value }
            }
            let rows = released.map { release in
                Row(released: release,
                    today: GateLadder.evaluate(installed: release.gateVersion, config: today).status,
                    proposed: GateLadder.evaluate(installed: release.gateVersion, config: proposed).status)
            }
            sections.append((platform, loaded.document.condition(for: platform), today, proposed, rows, notes))
        }

        if arguments.has("--json") {
            func values(_ config: GateConfig?) -> JSONOutput {
                .object([("minimum", .optional(config?.minimumSupportedVersion?.description)),
                         ("latest", .optional(config?.latestVersion?.description))])
            }
            output.result(JSONOutput.object([
                ("schemaVersion", .int(1)), ("document", .string(loaded.path)),
                ("platforms", .array(sections.map { section in
                    .object([("platform", .string(section.platform.rawValue)), ("condition", .string(section.condition)),
                             ("today", values(section.today)), ("proposed", values(section.proposed)),
                             ("versions", .array(section.rows.map { row in
                                 .object([("version", .string(row.released.version.description)), ("tag", .string(row.released.tag)),
                                          ("today", .string(row.today.rawValue)), ("proposed", .string(row.proposed.rawValue))])
                             }))])
                })),
            ]).rendered())
            return
        }

        var text = ""
        for (index, section) in sections.enumerated() {
            if index > 0 { text += "\n" }
            func change(_ old: GateVersion?, _ new: GateVersion?) -> String {
                let before = old?.description ?? "none"
                guard proposing, let new, old.map({ $0 != new }) ?? true else { return before }
                return "\(before) → \(new)"
            }
            text += "\(loaded.describe(section.platform)): minimum \(change(section.today?.minimumSupportedVersion, section.proposed?.minimumSupportedVersion)), latest \(change(section.today?.latestVersion, section.proposed?.latestVersion))\n"
            for note in section.notes { text += "  note: \(note)\n" }
            guard !section.rows.isEmpty else { continue }
            let versionWidth = max(7, section.rows.map { $0.released.version.description.count }.max() ?? 0)
            let tagWidth = max(3, section.rows.map(\.released.tag.count).max() ?? 0)
            let statusWidth = 15
            text += "  \(padded("version", versionWidth))  \(padded("tag", tagWidth))  " + (proposing ? "\(padded("today", statusWidth))  proposed\n" : "today\n")
            for row in section.rows {
                text += "  \(padded(row.released.version.description, versionWidth))  \(padded(row.released.tag, tagWidth))  "
                text += proposing
                    ? "\(padded(row.today.rawValue, statusWidth))  \(row.proposed.rawValue)\(row.today != row.proposed ? "  *" : "")\n"
                    : "\(row.today.rawValue)\n"
            }
            if proposing {
                let newlyBlocked = section.rows.filter { $0.proposed == .blocked && $0.today != .blocked }
                let newlyNudged = section.rows.filter { $0.proposed == .updateAvailable && $0.today == .ok }
                var summary: [String] = []
                if !newlyBlocked.isEmpty {
                    summary.append("blocks \(newlyBlocked.count) more released version\(newlyBlocked.count == 1 ? "" : "s") (\(newlyBlocked.map(\.released.version.description).joined(separator: ", ")))")
                }
                if !newlyNudged.isEmpty {
                    summary.append("offers the update to \(newlyNudged.count) more (\(newlyNudged.map(\.released.version.description).joined(separator: ", ")))")
                }
                text += "  " + (summary.isEmpty ? "no released version changes bucket" : "the proposal " + summary.joined(separator: " and ")) + "\n"
            }
        }
        output.resultText(text)
    }
}
