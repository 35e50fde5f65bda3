import RelctlCore
import VersionGate

/// `relctl gate raise-min <version> --confirm-live`: the recorded human decision to raise the floor.
enum GateRaiseMinCommand {
    static let spec = CommandSpec(
        name: "gate raise-min",
        summary: "Raise the minimum supported version (blocks every user below it), in one commit.",
        options: [.flag("--confirm-live", "Confirm that <version> is live in every store the app ships to (App Store, Google Play)."),
                  .flag("--allow-staged-rollout", "Count a Google Play staged rollout (inProgress, userFraction < 1) as live."),
                  .value("--unverified", "STORE", "app-store, google-play or both (comma-separated): a person checked that store; recorded in the commit.",
                         completion: .words(["app-store", "google-play"])),
                  GateArguments.platform, GateArguments.project, RemoteConfigSync.publishOption, .dryRun, .json, .repo, .config],
        positionals: [PositionalSpec(name: "version", optional: false, help: "The new minimum: a released version, e.g. 3.0.0.")],
        discussion: """
        Refused, with nothing written, unless <version> is a released version (a release tag of tagFormat), above
        the current minimum and not above the latest (users on the latest would be blocked with nothing to install),
        and --confirm-live is given. Each store of "stores" in .relctl.json is then asked (README, "Stores and
        Remote Config"): App Store Connect (with APP_STORE_CONNECT_KEY_ID, _ISSUER_ID and _KEY or _KEY_PATH) must
        have a version ≥ <version> READY_FOR_SALE; without those, Apple's public lookup must list one (also with
        "appStore": {"bundleId", "country"} under 'gate'). Google Play (GOOGLE_APPLICATION_CREDENTIALS or
        GOOGLE_OAUTH_ACCESS_TOKEN) must serve, completed on the production track, the versionCode a release tag
        ≥ <version> shipped; a staged rollout counts only with --allow-staged-rollout. A store that cannot be
        checked refuses the raise (fail closed) unless --unverified names it, recorded in the commit.
        RELCTL_APPSTORE_LOOKUP_URL, RELCTL_APP_STORE_CONNECT_URL and RELCTL_GOOGLE_PLAY_URL replace the services'
        URLs (https, or http to a loopback address).

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
        let opened = try Workspace.open(RepositoryLocation(arguments), context, locked: !dryRun, command: "gate raise-min")
        defer { opened.lock?.release() }
        let workspace = try GateArguments.projectWorkspace(arguments, context, opened, usage: usage)
        if GateDecisionPlanner.finishedAtOpen(.gateRaiseMin, version: version, context: context) { return }
        let loaded = try LoadedGateDocument.load(workspace.config, root: workspace.root)
        let platform = try GateArguments.platform(arguments, settings: loaded.settings, usage: usage)
        let decision = try GateDecisionPlanner(workspace: workspace, loaded: loaded, platform: platform)
            .raiseMin(to: version, confirmedLive: arguments.has("--confirm-live"), dryRun: dryRun,
                      environment: context.environment, liveOptions: try StoreLiveCheck.Options.parse(arguments, usage: usage),
                      warning: context.output.warning)
        try decision.record(workspace, context: context, dryRun: dryRun, json: arguments.has("--json"),
                                publish: try RemoteConfigSync.publishStep(arguments, workspace, command: "gate raise-min", dryRun: dryRun, context: context))
    }
}
