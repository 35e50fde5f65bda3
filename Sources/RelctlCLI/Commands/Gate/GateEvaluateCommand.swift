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

/// `relctl gate evaluate <installed>`: the verdict the app's library gives that version under the document.
enum GateEvaluateCommand {
    static let spec = CommandSpec(
        name: "gate evaluate",
        summary: "Show the gate's verdict for an installed version under the current document, and why.",
        options: [GateArguments.platform,
                  .value("--dismissed", "VERSION", "The version the user chose Later for (the nudge for exactly it is not shown)."),
                  .value("--store-version", "VERSION", "The version the store lists, when the store is the source of the latest."),
                  .json, .repo, .config],
        positionals: [PositionalSpec(name: "installed-version", optional: false, help: "The app version installed on the device as the app reports it, e.g. 2.4.1 or 2.5.0-beta.1 (compared as the app's library compares it).")],
        discussion: """
        The verdict is the library's (VersionGate's GateLadder), with the values the platform reads (its condition's,
        else the default; without --platform, the default values): maintenance on → maintenance; with
        --store-version, a version not older than the store's → ok, even below the minimum (nothing to install);
        below the minimum → blocked (no Later); below the latest → updateAvailable (ok when --dismissed names that
        latest); else ok. A document that is missing or cannot be read gives error, which lets the user through,
        as the app does: exit 0, with the reason on stderr.

        --json prints {"schemaVersion":1,"status":"blocked"|"updateAvailable"|"ok"|"maintenance"|"error",
        "reason","installed","minimum","latest","message","storeUrl"}; reason is one of maintenance, belowMinimum,
        belowLatest, dismissed, upToDate, notOlderThanStore, nullDocument, configUnavailable, configUnreadable.

        EXIT CODES: 0 evaluated (whatever the verdict, error included), 1 failure (no gate configured), 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let usage = spec.usage
        let installed = try GateArguments.reportedVersion(arguments.positionals[0], "installed version", usage: usage)
        let dismissed = try GateArguments.reportedVersion(option: "--dismissed", arguments, usage: usage)
        let storeVersion = try GateArguments.reportedVersion(option: "--store-version", arguments, usage: usage)
        let workspace = try Workspace.open(RepositoryLocation(arguments), context)
        let settings = try workspace.config.gateSettings()
        let platform = try GateArguments.platform(arguments, settings: settings, usage: usage)
        let file = try workspace.config.gateDocumentFile(settings, root: workspace.root)
        let store: StoreListing = storeVersion.map { .listed(version: $0, url: nil) } ?? .notConfigured

        let decision: GateDecision
        var failure: Problem?
        do {
            let loaded = try LoadedGateDocument.read(try file.read(settings, configPath: workspace.configDisplayPath),
                                                     file: file, settings: settings)
            decision = GateLadder.evaluate(installed: installed, config: try loaded.config(for: platform), store: store,
                                           dismissed: dismissed)
        } catch let problem as Problem {
            // As the app does: a document it cannot have or read lets the user through.
            failure = problem
            let missing = !FileManager.default.fileExists(atPath: file.path)
            decision = GateLadder.failOpen(installed: installed, reason: missing ? .configUnavailable : .configUnreadable)
        }
        if let failure {
            context.output.warning("\(failure.message); the app fails open on it, so the verdict is error", at: failure.location,
                                   hint: "the user is let through")
        }
        let output = context.output
        if arguments.has("--json") {
            output.result(JSONOutput.object([
                ("schemaVersion", .int(1)), ("status", .string(decision.status.rawValue)), ("reason", .string(decision.reason.rawValue)),
                ("installed", .string(decision.installed.description)), ("minimum", .optional(decision.minimum?.description)),
                ("latest", .optional(decision.latest?.description)),
                ("message", .optional(decision.message.isEmpty ? nil : decision.message)), ("storeUrl", .optional(decision.storeURL)),
            ]).rendered())
            return
        }
        var text = "status:     \(decision.status.rawValue)\n"
        text += "reason:     \(explain(decision, platform: platform, dismissed: dismissed))\n"
        let readAs = decision.installed.isWellFormed ? "" : " (compared as \(decision.installed.readAs), as the app reads it)"
        text += "installed:  \(decision.installed)\(readAs)\n"
        text += "minimum:    \(decision.minimum?.description ?? "none")\n"
        text += "latest:     \(decision.latest?.description ?? "none")\(storeVersion != nil && decision.status != .error ? " (the store's)" : "")\n"
        if !decision.message.isEmpty { text += "message:    \(decision.message)\n" }
        if let url = decision.storeURL { text += "store:      \(url)\n" }
        output.resultText(text)
    }

    /// Why the ladder stopped where it did, in words (with the reason's name, as --json gives it).
    static func explain(_ decision: GateDecision, platform: GatePlatform?, dismissed: GateVersion?) -> String {
        let installed = decision.installed
        let values = platform.map { " for \($0)" } ?? " (the default values)"
        let why: String
        switch decision.reason {
        case .maintenance: why = "maintenance is on\(values): everyone gets the maintenance screen, whatever the version"
        case .belowMinimum: why = "\(installed) is below the minimum \(decision.minimum?.description ?? "?")\(values): the update is required, with no Later"
        case .belowLatest: why = "\(installed) is below the latest \(decision.latest?.description ?? "?")\(values): the update is offered, with Later"
        case .dismissed: why = "\(installed) is below the latest \(decision.latest?.description ?? "?"), but Later was chosen for \(dismissed?.description ?? "it")"
        case .upToDate:
            why = decision.latest.map { "\(installed) is not below the latest \($0)\(values)" } ?? "no latest version is set\(values)"
        case .notOlderThanStore: why = "the store lists \(decision.latest?.description ?? "?"), not newer than \(installed): there is nothing to install, so nothing is asked"
        case .nullDocument: why = "the document is null: the app runs with its defaults"
        case .configUnavailable: why = "the document could not be had: the app fails open and lets the user through"
        case .configUnreadable: why = "the document could not be read: the app fails open and lets the user through"
        case .storeUnavailable: why = "the store listing could not be had: the app fails open and lets the user through"
        }
        return "\(why) (\(decision.reason.rawValue))"
    }
}
