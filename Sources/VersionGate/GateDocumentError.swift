/// Why a gate document could not be read: a JSON syntax error, or a value of the wrong type.
public struct GateDocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `"vendor_min_supported_version": expected a string, found a number`.
    public var message: String
    /// The 1-based line of a syntax error, `nil` for a problem with a value.
    public var line: Int?

    public init(_ message: String, line: Int? = nil) {
        self.message = message
        self.line = line
    }

    /// `line 3: unexpected '}' (expected a JSON value)`, or just the message when there is no line.
    public var description: String {
        line.map { "line \($0): \(message)" } ?? message
    }
}
