/// Why a gate document could not be read: a JSON syntax error, or a value of the wrong type.
public struct GateDocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `"vendor_min_supported_version": expected a string, found a number`.
    public var message: String
    /// The 1-based line of a syntax error or of the value, `nil` when it cannot be told.
    public var line: Int?
    /// The 1-based column (in Unicode scalars) of a syntax error, `nil` for a problem with a value.
    public var column: Int?

    public init(_ message: String, line: Int? = nil, column: Int? = nil) {
        self.message = message
        self.line = line
        self.column = column
    }

    /// `line 3, column 1: unexpected '}': expected a string key`, `line 4: …`, or just the message when there is
    /// no line.
    public var description: String {
        guard let line else { return message }
        return column.map { "line \(line), column \($0): \(message)" } ?? "line \(line): \(message)"
    }
}
