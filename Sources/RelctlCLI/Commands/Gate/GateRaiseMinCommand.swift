#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore
import VersionGate

/// `relctl gate raise-min <version> --confirm-live`: the recorded human decision to raise the floor.
enum GateRaiseMinCommand {
    static let spec = CommandSpec(
        name: "gate raise-min",
        summary: "Raise the minimum supported version (blocks every user below it), in one commit.",
        options: [.flag("--confirm-live", "Confirm that <version> is live in every store the app ships to (App Store, Google Play)."),
                  GateArguments.platform, .dryRun, .json, .repo, .config],
        positionals: [PositionalSpec(name: "version", optional: false, help: "The new minimum: a released version, e.g. 3.0.0.")],
        discussion: """
        Refused, with nothing written, unless <version> is a released version (a release tag of tagFormat), above
        the current minimum and not above the latest (users on the latest would be blocked with nothing to install),
        and --confirm-live is given. With "appStore": {"bundleId": "…", "country": "us"} under 'gate', Apple's
        lookup is asked first which version is live, and the raise is refused while it lists an older one (or
        cannot be asked); RELCTL_APPSTORE_LOOKUP_URL replaces https://itunes.apple.com (https, or http to a
        loopback address).

        Only that value changes, in place (every other byte of the document stays): with --platform, that
        platform's own value (its condition's); without, the default value (a platform with a value of its own is
        named and left alone). A document version ("configVersion") moves on by one. When every platform's
        minimum now covers the pending major release, .major-release-pending is removed. Both go into one commit
        whose message names the decision; then push it and deploy the document. --dry-run prints the diff and the
        commit message and changes nothing (it does not need --confirm-live).

        --json prints {"schemaVersion":1,"decision":"raise-min","document","platform","field","from","to",
        "resolvesMajorRelease","changed","paths","message","commit","dryRun","diff"} (commit null and diff set in a
        dry run).

        EXIT CODES: 0 raised (or shown), 1 refused or failed (nothing written), 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let usage = spec.usage
        let version = try GateArguments.version(arguments.positionals[0], "version", usage: usage)
        let dryRun = arguments.has("--dry-run")
        // The decision is read and committed under the repository lock, taken before anything is read; a dry run
        // takes none.
        let workspace = try Workspace.open(arguments, context, locked: !dryRun, command: "gate raise-min")
        defer { workspace.lock?.release() }
        let loaded = try workspace.loadGateDocument()
        let settings = loaded.settings
        let platform = try GateArguments.platform(arguments, settings: settings, usage: usage)
        let output = context.output

        let release = try workspace.releasedVersion(version, because: "the minimum must be a version users can install")
        let site = try GateValueEdit.site(.minimumSupportedVersion, platform: platform, in: loaded)
        let current = try loaded.config(for: platform)
        let whose = platform.map { "\($0)'s" } ?? "the default"
        if let minimum = current?.minimumSupportedVersion, !(minimum < version) {
            throw Problem("\(version) is not above \(whose) minimum \(minimum) (\(site.label)), so there is nothing to raise",
                          at: loaded.location(site.line), hint: "the minimum only goes up; relctl gate plan shows who each value blocks")
        }
        let latestKey = loaded.key(.latestVersion)
        let latestSite = loaded.layout.site(of: latestKey, for: platform, reader: loaded.reader)
        guard let latest = current?.latestVersion else {
            throw Problem("\"\(latestKey)\" has no value for \(platform?.rawValue ?? "the default"), so relctl cannot tell that \(version) is not above the latest",
                          at: loaded.location(latestSite?.line), hint: "set the latest first: relctl gate set-latest \(version)")
        }
        if latest < version {
            throw Problem("\(version) is above \(whose) latest \(latest) (\(latestSite?.label ?? "\"\(latestKey)\"")): users on \(latest) would be blocked with nothing newer to install",
                          at: loaded.location(latestSite?.line ?? site.line), hint: "move the latest first: relctl gate set-latest \(version)\(platform.map { " --platform \($0)" } ?? "")")
        }
        if !dryRun && !arguments.has("--confirm-live") {
            throw CLIFailure(message: "raising the minimum to \(version) blocks every user below it, and apps already installed cannot be recalled; confirm that \(version) is live in \(FloorDecision(stores: workspace.stores).storesText()), then rerun with --confirm-live (relctl gate plan --min \(version) shows whom it blocks)")
        }
        var live: String?
        if let store = settings.appStore, platform != .android {
            live = try StoreLiveCheck.confirm(store, minimum: version, environment: context.environment)
        }

        // Written as the release names it (3.0.0 for a given 3.0).
        let edit = try GateValueEdit.make(loaded, field: .minimumSupportedVersion, platform: platform, site: site, to: release.gateVersion)
        if let problem = edit.newProblems(comparedWith: loaded).first {
            throw Problem("after the change: \(problem.message)", at: problem.location, hint: problem.hint)
        }
        var notes: [String] = []
        if platform == nil {
            for (other, _) in settings.platforms {
                guard let own = loaded.layout.site(of: site.key, for: other, reader: loaded.reader), own.condition != nil else { continue }
                let value = (try? loaded.config(for: other))??.minimumSupportedVersion?.description ?? "none"
                notes.append("\(other) reads its own minimum \(value) (\(own.label), line \(own.line)), left as it is; raise it with: relctl gate raise-min \(version) --platform \(other)")
            }
        }
        for skipped in edit.skippedVersions {
            notes.append("\(skipped.label) (line \(skipped.line)) is not a whole number, so it was not moved on")
        }

        // The pending major release is resolved once every platform's minimum covers it.
        var marker: (path: String, bytes: [UInt8])?
        var resolves: String?
        // The marker as the workspace read it at open (`PendingMajor`).
        if let marked = workspace.pendingMajor {
            if let notice = marked.notice {
                let pending = GateVersion(notice.version)
                let below = settings.platforms.compactMap { entry -> String? in
                    let minimum = (try? edit.edited.config(for: entry.platform))??.minimumSupportedVersion
                    return minimum.map { $0 < pending } ?? true ? "\(entry.platform) (\(minimum?.description ?? "none"))" : nil
                }
                if below.isEmpty {
                    marker = (marked.path, marked.bytes)
                    resolves = "Resolves the pending major release \(notice.version) (tag \(notice.tag)): \(MajorReleaseMarker.fileName) removed."
                } else {
                    notes.append("the major release \(notice.version) stays pending (\(MajorReleaseMarker.fileName) is kept): the minimum of \(below.joined(separator: ", ")) is still below it; raise it there too, or record the decision with relctl gate keep-min --reason TEXT")
                }
            } else {
                output.warning("\(MajorReleaseMarker.fileName) is not readable, so it is left as it is; check the file")
            }
        }

        var message = "chore(gate): raise the minimum supported version to \(version)\(platform.map { " on \($0)" } ?? "")\n\n"
        message += "Decision recorded with relctl gate raise-min \(version) --confirm-live: users below \(version)\(platform.map { " on \($0)" } ?? "") are blocked once the document is deployed (release \(release.tag)).\n\n"
        message += edit.messageLines.joined(separator: "\n") + "\n"
        message += "Live: " + (live.map { "\($0); " } ?? "") + "confirmed in \(FloorDecision(stores: workspace.stores).storesText()) with --confirm-live.\n"
        if let resolves { message += resolves + "\n" }

        for note in notes { output.note(note) }
        let decision = GateDecisionCommit(document: edit.write, documentPath: loaded.path, marker: marker, message: message)
        try decision.record(workspace, context: context, dryRun: dryRun,
                            done: "raised \(site.label) from \(edit.change.old) to \(version) in \(loaded.path)" + (marker != nil ? "; the pending major release is resolved" : ""),
                            deployHint: settings.deployHint,
                            json: arguments.has("--json") ? [
                                ("decision", .string("raise-min")), ("document", .string(loaded.path)),
                                ("platform", .optional(platform?.rawValue)), ("field", .string(site.key)),
                                ("from", .string(edit.change.old)), ("to", .string(edit.change.new)),
                                ("resolvesMajorRelease", .bool(marker != nil)),
                            ] : nil)
    }
}
