import RelctlCore

/// A version-file error is a diagnostic like any other: the command line shows it as `error: path:line: message (hint)`,
/// the path relative to the repository root.
extension FileEditError: Diagnostic {
    public var location: DiagnosticLocation? { DiagnosticLocation(path: path, line: line) }
}
