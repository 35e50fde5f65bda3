import RelctlCore

/// A CI system relctl runs under: how it is recognised from the environment, how it marks a warning in the job log,
/// where a step's outputs and summary go, whether the log shows ANSI colour, and which variables hold the token it
/// gives a job for HTTPS pushes. One file per provider; `CIProviders.all` lists them.
protocol CIProvider: Sendable {
    /// The provider, when the environment of the run says the job runs under it.
    init?(environment: [String: String])
    /// A log line the CI shows as an annotation of `severity` on the run, on the file and line of `location` when
    /// there is one (a path relative to the repository root); nil when it has no such syntax. `Output.emit` asks
    /// this for every warning a command says, so a warning becomes an annotation in this one place.
    func annotation(_ severity: Severity, title: String?, location: DiagnosticLocation?, message: String) -> String?
    /// Hands `outputs` (name and value, in order) to the later steps of the job.
    func publish(outputs: [(name: String, value: String)], output: Output)
    /// Adds Markdown to the job's summary page.
    func publish(summary: String, output: Output)
    /// Whether the job log renders ANSI colour although stderr is not a terminal.
    var logShowsColor: Bool { get }
    /// What this provider's log parser must not find in relctl's output (`CILogSafety`); `Output` applies it to
    /// every line.
    var logSafety: CILogSafety { get }
    /// The environment variables that hold the job's token for HTTPS pushes, in the order they are tried after
    /// `RELCTL_GIT_TOKEN` (RelctlGit's `RemoteCredentials` reads them).
    var tokenVariables: [String] { get }
}

extension CIProvider {
    /// A warning annotation with a title and no file.
    func warningAnnotation(title: String, message: String) -> String? {
        annotation(.warning, title: title, location: nil, message: message)
    }

    /// An error annotation with a title and no file.
    func errorAnnotation(title: String, message: String) -> String? {
        annotation(.error, title: title, location: nil, message: message)
    }
}

/// The CI providers relctl knows. A new provider is one file and one entry in `all`.
enum CIProviders {
    /// In the order they are tried: the first that recognises the environment is the run's provider.
    static let all: [any CIProvider.Type] = [GitHubActions.self, GitLabCI.self]

    /// The provider of this run; nil outside CI. `CommandContext` calls this once per run.
    static func detect(_ environment: [String: String]) -> (any CIProvider)? {
        for provider in all {
            if let found = provider.init(environment: environment) { return found }
        }
        return nil
    }
}
