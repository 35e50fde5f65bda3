/// Why a text is not JSON (or JSON5): the line and column, and what the parser found there.
/// (RelctlCore makes it a `Diagnostic`: its location is the file, its hint the column.)
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    /// 1-based column, counted in Unicode scalars.
    public var column: Int
    public var message: String
    /// The file the text came from, when the reader says so (``located(in:)``); the parser knows no file.
    public var path: String?

    public init(line: Int, column: Int, message: String, path: String? = nil) {
        self.line = line
        self.column = column
        self.message = message
        self.path = path
    }

    /// The same error, in the file at `path`.
    public func located(in path: String) -> JSONParseError {
        var located = self
        located.path = path
        return located
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}
