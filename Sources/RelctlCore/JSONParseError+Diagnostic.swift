import RelctlJSON

/// A JSON syntax error is reported like every other problem: in the file it names, at its line, the column as
/// the hint.
extension JSONParseError: Diagnostic {
    public var location: DiagnosticLocation? { path.map { DiagnosticLocation(path: $0, line: line) } }
    public var hint: String? { "column \(column)" }
}
