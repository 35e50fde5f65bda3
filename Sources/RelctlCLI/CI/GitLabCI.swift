import RelctlCore

/// GitLab CI: its job log renders ANSI colour although stderr is not a terminal; it has no warning syntax, step
/// outputs or summary relctl writes to; `GITLAB_TOKEN` or the job's `CI_JOB_TOKEN` for pushes.
struct GitLabCI: CIProvider {
    init?(environment: [String: String]) {
        guard environment["GITLAB_CI"] == "true" else { return nil }
    }

    /// Section markers fold the job log: none reaches it from relctl's text.
    let logSafety = CILogSafety(.gitlabSections)
    var logShowsColor: Bool { true }
    var tokenVariables: [String] { ["GITLAB_TOKEN", "CI_JOB_TOKEN"] }

    /// GitLab's job log has no annotation syntax: a warning is its `warning:` line alone.
    func annotation(_ severity: Severity, title: String?, location: DiagnosticLocation?, message: String) -> String? { nil }
    func publish(outputs: [(name: String, value: String)], output: Output) {}
    func publish(summary: String, output: Output) {}
}
