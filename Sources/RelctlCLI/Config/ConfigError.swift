import RelctlCore

/// A config mistake: `error: file:line: …` (how to fix it is part of the message), exit 1.
struct ConfigError: Diagnostic {
    let path: String
    let line: Int?
    let message: String

    var location: DiagnosticLocation? { DiagnosticLocation(path: path, line: line) }
}
