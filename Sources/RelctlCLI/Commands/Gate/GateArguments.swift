import VersionGate

/// The options and arguments the `relctl gate` subcommands share, read one way.
enum GateArguments {
    static let platform = OptionSpec.value(
        "--platform", "NAME", "ios or android (a platform of 'gate.platforms'): that platform's own value (its condition).",
        completion: .words(["ios", "android"]))

    /// `--project NAME`: the project whose gate (and major-release marker) a decision is about.
    static let project = OptionSpec(name: "--project", valueName: "NAME",
                                    help: "The project of the config's projects whose gate and major-release marker to use (default: the project whose folder holds the current folder).",
                                    repeatable: true)

    /// The workspace of the one project a gate command is about: `--project NAME`, else the project whose folder holds
    /// the current folder; at the root of a repository with several projects, a usage error listing them (exit 64).
    /// Without projects, the workspace itself.
    static func projectWorkspace(_ arguments: ParsedArguments, _ context: CommandContext, _ workspace: Workspace,
                                 usage: String) throws -> Workspace {
        if arguments.values("--project").count > 1 {
            throw UsageError(message: "a gate decision is about one project; give --project once (the projects are \(ProjectSelection.list(workspace.config.projects)))", usage: usage)
        }
        return try ProjectSelection.select(arguments, context, workspace: workspace, usage: usage, atRoot: .ask).workspaces[0]
    }

    /// `--platform`, checked against the gate's platforms; nil when not given.
    static func platform(_ arguments: ParsedArguments, settings: GateSettings, usage: String) throws -> GatePlatform? {
        guard let name = arguments.value("--platform") else { return nil }
        let platform = GatePlatform(name)
        guard settings.platforms.contains(where: { $0.platform == platform }) else {
            let names = settings.platformNames
            let near = GateCheck.nearest(platform.rawValue, among: names).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError(message: "'\(name)' is not a platform of the gate (\(names.joined(separator: ", ")))\(near)", usage: usage)
        }
        return platform
    }

    /// A version given on the command line: dot-separated numbers (`2.3.0`, `2.3`; a `+build` is allowed and
    /// ignored, as the app ignores it).
    static func version(_ text: String, _ what: String, usage: String) throws -> GateVersion {
        let version = GateVersion(text)
        guard version.isWellFormed, version.hasNumber else {
            throw UsageError(message: "\(what) '\(text)' is not a version; give dot-separated numbers like 2.3.0", usage: usage)
        }
        return version
    }

    /// A version as an app or a store reports it (`gate evaluate`'s installed version, `--dismissed`,
    /// `--store-version`): anything the app's library can compare, which is any text with a number in one of
    /// its dot-separated parts (`2.1.0-beta.1`, `2.4 (283)`, ` 3.6`); read as the library reads it.
    static func reportedVersion(_ text: String, _ what: String, usage: String) throws -> GateVersion {
        let version = GateVersion(text)
        guard version.hasNumber else {
            throw UsageError(message: "\(what) '\(text)' has no number in it; give the version the app reports, like 2.3.0", usage: usage)
        }
        return version
    }

    /// An optional reported version option (`--dismissed`, `--store-version`).
    static func reportedVersion(option name: String, _ arguments: ParsedArguments, usage: String) throws -> GateVersion? {
        try arguments.value(name).map { try reportedVersion($0, name, usage: usage) }
    }

    /// An optional version option (`--min`, `--latest`).
    static func version(option name: String, _ arguments: ParsedArguments, usage: String) throws -> GateVersion? {
        try arguments.value(name).map { try version($0, name, usage: usage) }
    }
}
