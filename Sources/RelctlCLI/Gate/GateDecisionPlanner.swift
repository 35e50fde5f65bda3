#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RelctlCore
import VersionGate

/// The rules of the gate decisions, held once: a gate value names a released version, the minimum stays at or
/// below the latest (`blocksTheLatest`, which `GateCheck` applies to a whole document too), the minimum rises only
/// when the new version is live, and a raised minimum resolves the pending major release once every platform's
/// covers it. Each plan returns a `PlannedGateDecision`: the edit and the marker removal to commit, the message, the notes
/// and the `--json` fields. The commands only read their arguments and record the decision.
struct GateDecisionPlanner {
    let workspace: Workspace
    let loaded: LoadedGateDocument
    /// The platform whose own value changes (`--platform`); nil: the default value.
    let platform: GatePlatform?

    /// True when a minimum above the latest would block users on the latest with nothing newer to install.
    static func blocksTheLatest(minimum: GateVersion, latest: GateVersion) -> Bool { latest < minimum }

    private var whose: String { platform.map { "\($0)'s" } ?? "the default" }
    private var onPlatform: String { platform.map { " on \($0)" } ?? "" }

    /// `gate raise-min <version>`: refused unless the version is released, above the minimum, not above the latest,
    /// confirmed live (`confirmedLive`, not needed for a dry run) and, with 'gate.appStore', listed by Apple.
    func raiseMin(to version: GateVersion, confirmedLive: Bool, dryRun: Bool, environment: [String: String],
                  liveOptions: StoreLiveCheck.Options = .init(), warning: (String) -> Void) throws -> PlannedGateDecision {
        let settings = loaded.settings
        let release = try workspace.releaseTags().release(holding: version, because: "the minimum must be a version users can install")
        let site = try GateValueEdit.site(.minimumSupportedVersion, platform: platform, in: loaded)
        let current = try loaded.config(for: platform)
        if let minimum = current?.minimumSupportedVersion, !(minimum < version) {
            throw Problem("\(version) is not above \(whose) minimum \(minimum) (\(site.label)), so there is nothing to raise",
                          at: loaded.location(site.line), hint: "the minimum only goes up; relctl gate plan shows who each value blocks")
        }
        let latestKey = loaded.key(.latestVersion)
        let latestSite = loaded.layout.site(of: latestKey, for: platform, reader: loaded.reader)
        guard let latest = current?.latestVersion else {
            throw Problem("\"\(latestKey)\" has no value for \(platform?.rawValue ?? "the default"), so relctl cannot tell that \(version) is not above the latest",
                          at: loaded.location(latestSite?.line), hint: "set the latest first: relctl gate set-latest \(version)\(workspace.projectOption)")
        }
        if Self.blocksTheLatest(minimum: version, latest: latest) {
            throw Problem("\(version) is above \(whose) latest \(latest) (\(latestSite?.label ?? "\"\(latestKey)\"")): users on \(latest) would be blocked with nothing newer to install",
                          at: loaded.location(latestSite?.line ?? site.line), hint: "move the latest first: relctl gate set-latest \(version)\(workspace.projectOption)\(platform.map { " --platform \($0)" } ?? "")")
        }
        if !dryRun && !confirmedLive {
            throw Problem("raising the minimum to \(version) blocks every user below it, and apps already installed cannot be recalled; confirm that \(version) is live in \(FloorDecision(stores: workspace.stores).storesText()), then rerun with --confirm-live (relctl gate plan\(workspace.projectOption) --min \(version) shows whom it blocks)")
        }
        let verified = try StoreLiveCheck.verify(workspace, gate: settings, platform: platform, minimum: version,
                                                 options: liveOptions, environment: environment, warning: warning)
        let live: String? = verified.isEmpty ? nil : verified.joined(separator: "; ")

        // Written as the release names it (3.0.0 for a given 3.0).
        let edit = try edit(.minimumSupportedVersion, site: site, to: release.gateVersion)
        var notes: [String] = []
        if platform == nil {
            for (other, _) in settings.platforms {
                guard let own = loaded.layout.site(of: site.key, for: other, reader: loaded.reader), own.condition != nil else { continue }
                let value = (try? loaded.config(for: other))??.minimumSupportedVersion?.description ?? "none"
                notes.append("\(other) reads its own minimum \(value) (\(own.label), line \(own.line)), left as it is; raise it with: relctl gate raise-min \(version)\(workspace.projectOption) --platform \(other)")
            }
        }
        notes += verified.map { "live: \($0)" }
        notes += Self.skippedNotes(edit)
        let (marker, resolves, pending) = resolvedMarker(after: edit, warning: warning)
        if let pending { notes.append(pending) }

        var message = "chore(gate): raise the minimum supported version to \(version)\(onPlatform)\n\n"
        message += "Decision recorded with relctl gate raise-min \(version) --confirm-live: users below \(version)\(onPlatform) are blocked once the document is deployed (release \(release.tag)).\n\n"
        message += edit.messageLines.joined(separator: "\n") + "\n"
        message += "Live: " + (live.map { "\($0); " } ?? "") + "confirmed in \(FloorDecision(stores: workspace.stores).storesText()) with --confirm-live.\n"
        if let resolves { message += resolves + "\n" }
        return PlannedGateDecision(
            commit: GateDecisionCommit(.gateRaiseMin, subject: subject(version), document: edit.write, documentPath: loaded.path,
                                       marker: marker, message: message),
            notes: notes,
            done: "raised \(site.label) from \(edit.change.old) to \(version) in \(loaded.path)" + (marker != nil ? "; the pending major release is resolved" : ""),
            deployHint: settings.deployHint,
            json: fields("raise-min", key: site.key, from: edit.change.old, to: edit.change.new) + [("resolvesMajorRelease", .bool(marker != nil))])
    }

    /// `gate set-latest <version>`: refused unless the version is released, not a maintenance release and not below
    /// the minimum; the same latest again is `.unchanged`.
    func setLatest(to version: GateVersion) throws -> PlannedGateDecision.Plan {
        let tags = try workspace.releaseTags()
        let release = try tags.release(holding: version, because: "the update the app offers must be one users can install")
        if let problem = try tags.maintenanceReleaseProblem(release, in: workspace.repository,
                                                              main: workspace.config.mainBranch(in: workspace.repository)) {
            throw Problem(problem)
        }
        let site = try GateValueEdit.site(.latestVersion, platform: platform, in: loaded)
        let current = try loaded.config(for: platform)
        if let latest = current?.latestVersion, latest == version {
            return .unchanged(message: "\(site.label) is already \(latest) in \(loaded.path); nothing to change",
                              json: fields("set-latest", key: site.key, from: latest.description, to: latest.description))
        }
        if let minimum = current?.minimumSupportedVersion, Self.blocksTheLatest(minimum: minimum, latest: version) {
            let minimumSite = loaded.layout.site(of: loaded.key(.minimumSupportedVersion), for: platform, reader: loaded.reader)
            throw Problem("\(version) is below \(whose) minimum \(minimum) (\(minimumSite?.label ?? "the minimum")): users on the latest would be blocked",
                          at: loaded.location(site.line), hint: "the latest is at least the minimum; pick a version from \(minimum) up")
        }
        // Written as the release names it (3.0.0 for a given 3.0).
        let edit = try edit(.latestVersion, site: site, to: release.gateVersion)
        var message = "chore(gate): set the latest version to \(version)\(onPlatform)\n\n"
        message += "Decision recorded with relctl gate set-latest \(version): users below \(version)\(onPlatform) (and not below the minimum) are offered the update once the document is deployed (release \(release.tag)).\n\n"
        message += edit.messageLines.joined(separator: "\n") + "\n"
        return .decided(PlannedGateDecision(
            commit: GateDecisionCommit(.gateSetLatest, subject: subject(version), document: edit.write, documentPath: loaded.path,
                                       marker: nil, message: message),
            notes: Self.skippedNotes(edit),
            done: "set \(site.label) from \(edit.change.old) to \(version) in \(loaded.path)",
            deployHint: loaded.settings.deployHint,
            json: fields("set-latest", key: site.key, from: edit.change.old, to: edit.change.new)))
    }

    /// What the journal names the decision by: the version, and the platform given (`3.0.0 --platform ios`).
    private func subject(_ version: GateVersion) -> String {
        "\(version)" + (platform.map { " --platform \($0)" } ?? "")
    }

    /// The value edited, refused when the edited document has a problem the original did not.
    private func edit(_ field: GateField, site: GateDocumentLayout.Site, to value: GateVersion) throws -> GateValueEdit {
        let edit = try GateValueEdit.make(loaded, field: field, platform: platform, site: site, to: value)
        if let problem = edit.newProblems(comparedWith: loaded).first {
            throw Problem("after the change: \(problem.message)", at: problem.location, hint: problem.hint)
        }
        return edit
    }

    private static func skippedNotes(_ edit: GateValueEdit) -> [String] {
        edit.skippedVersions.map { "\($0.label) (line \($0.line)) is not a whole number, so it was not moved on" }
    }

    private func fields(_ decision: String, key: String, from: String, to: String) -> [(String, JSONOutput)] {
        [("decision", .string(decision)), ("document", .string(loaded.path)), ("platform", .optional(platform?.rawValue)),
         ("field", .string(key)), ("from", .string(from)), ("to", .string(to))]
    }

    /// The pending major release, resolved once every platform's minimum (after `edit`) covers it: the marker to
    /// remove and the message's line; else the note saying why it stays.
    private func resolvedMarker(after edit: GateValueEdit, warning: (String) -> Void)
        -> (marker: (path: String, bytes: [UInt8])?, resolves: String?, stays: String?) {
        // The marker as the workspace read it at open (`PendingMajor`).
        guard let marked = workspace.pendingMajor else { return (nil, nil, nil) }
        guard let notice = marked.notice else {
            warning("\(workspace.markerRelativePath) is not readable, so it is left as it is; check the file")
            return (nil, nil, nil)
        }
        let pending = GateVersion(notice.version)
        let below = loaded.settings.platforms.compactMap { entry -> String? in
            let minimum = (try? edit.edited.config(for: entry.platform))??.minimumSupportedVersion
            return minimum.map { $0 < pending } ?? true ? "\(entry.platform) (\(minimum?.description ?? "none"))" : nil
        }
        guard below.isEmpty else {
            return (nil, nil, "the major release \(notice.version) stays pending (\(workspace.markerRelativePath) is kept): the minimum of \(below.joined(separator: ", ")) is still below it; raise it there too, or record the decision with relctl gate keep-min\(workspace.projectOption) --reason TEXT")
        }
        return ((marked.path, marked.bytes),
                "Resolves the pending major release \(notice.version) (tag \(notice.tag)): \(workspace.markerRelativePath) removed.", nil)
    }
}

extension GateDecisionPlanner {
    /// True when this run, taking the lock (`Workspace.open`), finished the very decision a killed run had begun
    /// (`kind`, for `version` when given, on any platform): it is recorded, and the note said so; nothing is left.
    static func finishedAtOpen(_ kind: TransactionJournal.Kind, version: GateVersion?, context: CommandContext) -> Bool {
        guard case .finished(let what) = context.run.recovered else { return false }
        let name = kind.rawValue + (version.map { " \($0)" } ?? "")
        return what == name || what.hasPrefix(name + " ")
    }

    /// `gate keep-min --reason TEXT`: refused unless a major release is pending and its marker is committed (a halted
    /// major release is not made yet). The document is not touched; the minimum that stays is named from it when a
    /// gate is configured and readable.
    static func keepMin(workspace: Workspace, reason: String) throws -> PlannedGateDecision {
        // The marker as the workspace read it at open (`PendingMajor`).
        guard let pending = workspace.pendingMajor else {
            throw Problem("no major release decision is pending: there is no \(workspace.markerRelativePath) \(workspace.project.map { "(project \"\($0.name)\")" } ?? "at the repository root"), so there is nothing to keep")
        }
        guard let notice = pending.notice else {
            throw Problem("is not a major-release marker relctl can read", at: DiagnosticLocation(path: workspace.markerRelativePath),
                          hint: "restore it from git (git checkout -- \(workspace.markerRelativePath)), or remove it yourself if no decision is pending")
        }
        if pending.committed == nil {
            throw Problem("\(workspace.markerRelativePath) is not committed: the major release \(notice.version) was halted and has not been made yet; relctl release --confirm-major\(workspace.projectOption) makes it (and commits the marker), then decide with raise-min or keep-min")
        }
        var stays = "min_supported_version stays as it is"
        if workspace.config.gate != nil, let loaded = try? LoadedGateDocument.load(workspace.config, root: workspace.root) {
            let values = loaded.platformValues().map { "\($0.platform) \($0.minimum?.description ?? "none")" }
            stays = "the minimum stays at \(values.joined(separator: ", ")) in \(loaded.path)"
        }
        var message = "chore(gate): keep the minimum supported version after major release \(notice.version)\n\n"
        message += "Decision recorded with relctl gate keep-min: \(stays); old builds keep working after the major release \(notice.version) (tag \(notice.tag)).\n\n"
        message += "Reason: \(reason)\n\n"
        message += "Resolves the pending major release \(notice.version): \(workspace.markerRelativePath) removed.\n"
        return PlannedGateDecision(
            commit: GateDecisionCommit(.gateKeepMin, subject: notice.version, document: nil, documentPath: nil,
                                       marker: (pending.path, pending.bytes), message: message),
            notes: [],
            done: "kept the minimum after the major release \(notice.version); the pending decision is resolved",
            deployHint: "push the commit (git push) so the team sees the decision",
            json: [("decision", .string("keep-min")), ("majorRelease", .string(notice.version)),
                   ("reason", .string(reason)), ("resolvesMajorRelease", .bool(true))])
    }
}

/// A planned gate decision: what `GateDecisionCommit` records, and what the command prints around it.
struct PlannedGateDecision {
    var commit: GateDecisionCommit
    /// Printed as notes before the decision is recorded.
    var notes: [String]
    /// The result line ("raised … to 3.0.0 in …").
    var done: String
    var deployHint: String?
    /// The decision's own `--json` fields.
    var json: [(String, JSONOutput)]

    /// What a plan can come to besides a decision.
    enum Plan {
        case decided(PlannedGateDecision)
        /// Nothing to change: the line to print, and the `--json` fields.
        case unchanged(message: String, json: [(String, JSONOutput)])
    }

    /// Prints the notes, then records the decision (or with `dryRun` shows it).
    func record(_ workspace: Workspace, context: CommandContext, dryRun: Bool, json printsJSON: Bool,
                publish: (() throws -> [String])? = nil) throws {
        for note in notes { context.output.note(note) }
        var commit = self.commit
        commit.markerRelativePath = workspace.markerRelativePath
        try commit.record(workspace, context: context, dryRun: dryRun, done: done, deployHint: deployHint,
                          json: printsJSON ? json : nil, publish: publish)
    }
}
