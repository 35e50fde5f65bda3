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

/// `relctl gate keep-min --reason TEXT`: resolves a pending major release without raising the floor.
enum GateKeepMinCommand {
    static let spec = CommandSpec(
        name: "gate keep-min",
        summary: "Resolve a pending major release without raising the minimum: the reason goes into the commit.",
        options: [.value("--reason", "TEXT", "Why the minimum stays (the new backend still serves old builds, say)."),
                  .dryRun, .json, .repo, .config],
        discussion: """
        A major release leaves .major-release-pending until someone decides about min_supported_version. When old
        builds keep working (the backend still serves them), keep-min records that decision: it removes the marker
        in one commit whose message carries --reason and the minimum that stays. The gate document is not touched.
        Refused when no major release is pending, when the marker is not committed (the major release was halted and
        not made yet: relctl release --confirm-major makes it), or without a reason. --dry-run shows the commit and
        changes nothing.

        --json prints {"schemaVersion":1,"decision":"keep-min","majorRelease","reason","resolvesMajorRelease",
        "changed","paths","message","commit","dryRun","diff"}.

        EXIT CODES: 0 recorded (or shown), 1 refused or failed (nothing written), 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        guard let reason = arguments.value("--reason")?.trimmingCharacters(in: .whitespacesAndNewlines), !reason.isEmpty else {
            throw UsageError(message: "keep-min needs --reason TEXT: why the minimum stays goes into the commit that records the decision", usage: spec.usage)
        }
        let dryRun = arguments.has("--dry-run")
        // The decision is read and committed under the repository lock, taken before anything is read; a dry run
        // takes none.
        let workspace = try Workspace.open(arguments, context, locked: !dryRun, command: "gate keep-min")
        defer { workspace.lock?.release() }
        // The marker as the workspace read it at open (`PendingMajor`).
        guard let pending = workspace.pendingMajor else {
            throw CLIFailure(message: "no major release decision is pending: there is no \(MajorReleaseMarker.fileName) at the repository root, so there is nothing to keep")
        }
        guard let notice = pending.notice else {
            throw Problem("is not a major-release marker relctl can read", at: DiagnosticLocation(path: MajorReleaseMarker.fileName),
                          hint: "restore it from git (git checkout -- \(MajorReleaseMarker.fileName)), or remove it yourself if no decision is pending")
        }
        if pending.committed == nil {
            throw CLIFailure(message: "\(MajorReleaseMarker.fileName) is not committed: the major release \(notice.version) was halted and has not been made yet; relctl release --confirm-major makes it (and commits the marker), then decide with raise-min or keep-min")
        }
        // The minimum that stays, as the document holds it (when a gate is configured and readable).
        var stays = "min_supported_version stays as it is"
        if workspace.config.gate != nil, let loaded = try? workspace.loadGateDocument() {
            let values = loaded.platformValues().map { "\($0.platform) \($0.minimum?.description ?? "none")" }
            stays = "the minimum stays at \(values.joined(separator: ", ")) in \(loaded.path)"
        }
        var message = "chore(gate): keep the minimum supported version after major release \(notice.version)\n\n"
        message += "Decision recorded with relctl gate keep-min: \(stays); old builds keep working after the major release \(notice.version) (tag \(notice.tag)).\n\n"
        message += "Reason: \(reason)\n\n"
        message += "Resolves the pending major release \(notice.version): \(MajorReleaseMarker.fileName) removed.\n"
        let decision = GateDecisionCommit(document: nil, documentPath: nil, marker: (pending.path, pending.bytes), message: message)
        try decision.record(workspace, context: context, dryRun: dryRun,
                            done: "kept the minimum after the major release \(notice.version); the pending decision is resolved",
                            deployHint: "push the commit (git push) so the team sees the decision",
                            json: arguments.has("--json") ? [
                                ("decision", .string("keep-min")), ("majorRelease", .string(notice.version)),
                                ("reason", .string(reason)), ("resolvesMajorRelease", .bool(true)),
                            ] : nil)
    }
}
