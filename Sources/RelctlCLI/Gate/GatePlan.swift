import RelctlCore
import VersionGate

/// What `relctl gate plan` shows: for each platform of the gate, every released version's verdict (the app's
/// library's ladder) under the document's values today and under a proposed minimum or latest. A proposal applies
/// where raise-min and set-latest would write it; a platform reading its own value is named instead.
struct GatePlan {
    struct Row {
        let released: ReleasedVersion
        let today: GateStatus
        let proposed: GateStatus
    }

    struct Section {
        let platform: GatePlatform
        let condition: String
        let today: GateConfig?
        let proposed: GateConfig?
        let rows: [Row]
        let notes: [String]
    }

    let document: String
    /// Whether a minimum or a latest was proposed (else only today's verdicts are shown).
    let proposing: Bool
    let sections: [Section]

    /// The plan for the platforms of `loaded` (`only` one, when given) and the `released` versions.
    static func make(
        _ loaded: LoadedGateDocument, released: [ReleasedVersion], only: GatePlatform?,
        minimum proposedMinimum: GateVersion?, latest proposedLatest: GateVersion?
    ) throws -> GatePlan {
        var sections: [Section] = []
        for (platform, _) in loaded.settings.platforms where only == nil || only == platform {
            let today = try loaded.config(for: platform)
            var proposed = today ?? GateConfig()
            var notes: [String] = []
            for (field, value) in [(GateField.minimumSupportedVersion, proposedMinimum), (.latestVersion, proposedLatest)] {
                guard let value else { continue }
                let key = loaded.key(field)
                let site = loaded.layout.site(of: key, for: platform, reader: loaded.reader)
                if only == nil, let site, site.condition != nil {
                    notes.append(
                        "\(platform) reads its own \(site.label), which a change of the default leaves alone; add --platform \(platform) to propose it there")
                    continue
                }
                if field == .minimumSupportedVersion { proposed.minimumSupportedVersion = value } else { proposed.latestVersion = value }
            }
            let rows = released.map { release in
                Row(
                    released: release,
                    today: GateLadder.evaluate(installed: release.gateVersion, config: today).status,
                    proposed: GateLadder.evaluate(installed: release.gateVersion, config: proposed).status)
            }
            sections.append(
                Section(
                    platform: platform, condition: loaded.document.condition(for: platform), today: today,
                    proposed: proposed, rows: rows, notes: notes))
        }
        return GatePlan(document: loaded.path, proposing: proposedMinimum != nil || proposedLatest != nil, sections: sections)
    }

    var json: JSONOutput {
        func values(_ config: GateConfig?) -> JSONOutput {
            .object([
                ("minimum", .optional(config?.minimumSupportedVersion?.description)),
                ("latest", .optional(config?.latestVersion?.description)),
            ])
        }
        return JSONOutput.object([
            ("schemaVersion", .int(1)), ("document", .string(document)),
            (
                "platforms",
                .array(
                    sections.map { section in
                        .object([
                            ("platform", .string(section.platform.rawValue)), ("condition", .string(section.condition)),
                            ("today", values(section.today)), ("proposed", values(section.proposed)),
                            (
                                "versions",
                                .array(
                                    section.rows.map { row in
                                        .object([
                                            ("version", .string(row.released.version.description)), ("tag", .string(row.released.tag)),
                                            ("today", .string(row.today.rawValue)), ("proposed", .string(row.proposed.rawValue)),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
        ])
    }

    /// The table of each platform, with what the proposal changes.
    func text(_ loaded: LoadedGateDocument) -> String {
        var text = ""
        for (index, section) in sections.enumerated() {
            if index > 0 { text += "\n" }
            func change(_ old: GateVersion?, _ new: GateVersion?) -> String {
                let before = old?.description ?? "none"
                guard proposing, let new, old.map({ $0 != new }) ?? true else { return before }
                return "\(before) → \(new)"
            }
            text +=
                "\(loaded.describe(section.platform)): minimum \(change(section.today?.minimumSupportedVersion, section.proposed?.minimumSupportedVersion)), latest \(change(section.today?.latestVersion, section.proposed?.latestVersion))\n"
            for note in section.notes { text += "  note: \(note)\n" }
            guard !section.rows.isEmpty else { continue }
            text += table(section)
            if proposing { text += "  " + summary(section) + "\n" }
        }
        return text
    }

    private func table(_ section: Section) -> String {
        let versionWidth = max(7, section.rows.map { $0.released.version.description.count }.max() ?? 0)
        let tagWidth = max(3, section.rows.map(\.released.tag.count).max() ?? 0)
        let statusWidth = 15
        var text =
            "  \(padded("version", versionWidth))  \(padded("tag", tagWidth))  " + (proposing ? "\(padded("today", statusWidth))  proposed\n" : "today\n")
        for row in section.rows {
            text += "  \(padded(row.released.version.description, versionWidth))  \(padded(row.released.tag, tagWidth))  "
            text +=
                proposing
                ? "\(padded(row.today.rawValue, statusWidth))  \(row.proposed.rawValue)\(row.today != row.proposed ? "  *" : "")\n"
                : "\(row.today.rawValue)\n"
        }
        return text
    }

    /// "the proposal blocks 2 more released versions (…)", or that no version changes bucket.
    private func summary(_ section: Section) -> String {
        let newlyBlocked = section.rows.filter { $0.proposed == .blocked && $0.today != .blocked }
        let newlyNudged = section.rows.filter { $0.proposed == .updateAvailable && $0.today == .ok }
        var summary: [String] = []
        if !newlyBlocked.isEmpty {
            summary.append(
                "blocks \(newlyBlocked.count) more released version\(newlyBlocked.count == 1 ? "" : "s") (\(newlyBlocked.map(\.released.version.description).joined(separator: ", ")))"
            )
        }
        if !newlyNudged.isEmpty {
            summary.append("offers the update to \(newlyNudged.count) more (\(newlyNudged.map(\.released.version.description).joined(separator: ", ")))")
        }
        return summary.isEmpty ? "no released version changes bucket" : "the proposal " + summary.joined(separator: " and ")
    }
}
