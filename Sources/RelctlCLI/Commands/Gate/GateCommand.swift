import RelctlCore

/// `relctl gate`: the version gate's remote-config document — check it, preview it, and record the human
/// decisions that move it.
enum GateCommand {
    static let spec = CommandSpec(
        name: "gate",
        summary: "Check the app's version gate document and record the decisions on min_supported_version.",
        options: [],
        discussion: """
        The gate is the document the app reads at launch ("gate" in .relctl.json: a Firebase Remote Config
        template, or a plain JSON document your API serves): below the minimum the app is blocked, below the
        latest it offers the update, and when the document cannot be read it lets the user through (fails open).

        The decision after a major release:
          1. relctl release stops (or warns) on a major release and leaves .major-release-pending:
             min_supported_version is never raised automatically.
          2. relctl release --confirm-major makes the release; the stores review and publish the build.
          3. Once the build is live in both stores:  relctl gate plan --min <version>  (who it blocks), then
             relctl gate raise-min <version> --confirm-live  (edits the minimum, removes the marker, one commit),
             or, to keep the floor:  relctl gate keep-min --reason "<why>".
          4. Deploy the document (firebase deploy --only remoteconfig, or your API) and push the commit.

        EXIT CODES: 0 success, 1 failure (nothing written), 2 gate check found problems, 64 usage error.
        """,
        run: { _, _ in throw Problem.internalError("the gate group ran without a subcommand") },
        subcommands: [GateCheckCommand.spec, GateEvaluateCommand.spec, GatePlanCommand.spec, GateRaiseMinCommand.spec,
                      GateKeepMinCommand.spec, GateSetLatestCommand.spec, GatePullCommand.spec, GatePublishCommand.spec, GateStatusCommand.spec])
}
