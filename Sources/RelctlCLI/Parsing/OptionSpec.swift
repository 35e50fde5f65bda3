/// A command-line option of a command: a flag (`--json`) or an option with a value (`--repo PATH`).
struct OptionSpec: Sendable {
    let name: String
    let valueName: String?
    let help: String
    /// What the shell completion scripts offer for the value.
    var completion: ValueCompletion = .none
    /// May be given several times (`--project a --project b`); the values are in `ParsedArguments.values(_:)`.
    var repeatable = false
    /// The value may be left out (`--confirm-major` or `--confirm-major consumer`): a flag when it is.
    var optionalValue = false

    static func flag(_ name: String, _ help: String) -> OptionSpec { OptionSpec(name: name, valueName: nil, help: help) }
    static func value(_ name: String, _ valueName: String, _ help: String, completion: ValueCompletion = .none) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, completion: completion)
    }

    static let repo = value("--repo", "PATH", "The repository, or a folder inside it (default: the current folder).",
                            completion: .directory)
    static let config = value("--config", "PATH", "The config file (default: .relctl.json at the repository root).",
                              completion: .file)
    static let json = flag("--json", "Print one JSON object on stdout instead of text.")
    static let prerelease = value("--prerelease", "CHANNEL", "Make a prerelease of CHANNEL (beta, alpha, rc …): X.Y.Z-CHANNEL.N.")
    static let dryRun = flag("--dry-run", "Show what would change; change nothing.")
    /// The projects of a repository holding several apps (`projects` in .relctl.json).
    static let project = OptionSpec(name: "--project", valueName: "NAME",
                                    help: "Act on project NAME of the config's projects (repeatable; default: the project whose folder holds the current folder).",
                                    repeatable: true)
    static let allProjects = flag("--all", "Act on every project of the config's projects.")
    static let projects = [project, allProjects]
}
