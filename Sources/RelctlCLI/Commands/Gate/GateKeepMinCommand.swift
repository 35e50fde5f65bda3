#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `relctl gate keep-min --reason TEXT`: resolves a pending major release without raising the floor.
enum GateKeepMinCommand {
    static let spec = CommandSpec(
        name: "gate keep-min",
        summary: "Resolve a pending major release without raising the minimum: the reason goes into the commit.",
        options: [.value("--reason", "TEXT", "Why the minimum stays (the new backend still serves old builds, say)."),
                  GateArguments.project, RemoteConfigSync.publishOption, .dryRun, .json, .repo, .config],
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
        let opened = try Workspace.open(RepositoryLocation(arguments), context, locked: !dryRun, command: "gate keep-min")
        defer { opened.lock?.release() }
        let workspace = try GateArguments.projectWorkspace(arguments, context, opened, usage: spec.usage)
        if GateDecisionPlanner.finishedAtOpen(.gateKeepMin, version: nil, context: context) { return }
        let decision = try GateDecisionPlanner.keepMin(workspace: workspace, reason: reason)
        try decision.record(workspace, context: context, dryRun: dryRun, json: arguments.has("--json"),
                                publish: try RemoteConfigSync.publishStep(arguments, workspace, command: "gate keep-min", dryRun: dryRun, context: context))
    }
}
