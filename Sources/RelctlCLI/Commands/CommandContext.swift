/// What every command gets: the environment, where to write, the folder it runs in, and the CI it runs under.
struct CommandContext {
    let environment: [String: String]
    let output: Output
    let currentDirectory: String
    /// The CI provider the environment names, detected once per run; nil outside CI.
    let ci: (any CIProvider)?
    /// What the run learns on the way that the error report needs: the repository root, once a command opened it.
    let run: RunState

    init(environment: [String: String], output: Output, currentDirectory: String) {
        self.environment = environment
        self.output = output
        self.currentDirectory = currentDirectory
        ci = CIProviders.detect(environment)
        // Every line relctl writes from here on is safe to the CI's log parser.
        output.logSafety = ci?.logSafety
        // and every warning is handed to it as an annotation (`Output.emit`).
        output.ci = ci
        run = RunState()
    }
}

/// Filled in while a command runs (a reference, so what a command learns reaches `RelctlCLI.run`).
final class RunState {
    /// The work tree root of the repository the command opened: paths in error messages are shown relative to it.
    var repositoryRoot: String?
    /// What the command found and did first, holding the lock: an interrupted transaction finished or rolled back.
    var recovered: TransactionRecovery.Outcome = .nothingInterrupted
}

extension RepositoryLocation {
    /// `--repo` and `--config` as the command was given them.
    init(_ arguments: ParsedArguments) {
        self.init(repo: arguments.value("--repo"), config: arguments.value("--config"))
    }
}
