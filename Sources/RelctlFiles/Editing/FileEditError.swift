/// An error in one file: `path:line: message (hint)`, the path relative to the project root. The command line
/// prints it after its own `error: `, so the description carries no `error:` of its own. The version-file layer's
/// typed error (`throws(FileEditError)` through every editor), which the release planner tells from other errors
/// to list it among the plan's problems; it has `Problem`'s shape and is a `Diagnostic` (FileEditErrorDiagnostic).
package struct FileEditError: Error, Sendable, Hashable, CustomStringConvertible {
    package var path: String
    package var line: Int?
    package var message: String
    package var hint: String?

    package init(path: String, line: Int? = nil, message: String, hint: String? = nil) {
        self.path = path
        self.line = line
        self.message = message
        self.hint = hint
    }

    package var description: String {
        var s = path
        if let line { s += ":\(line)" }
        s += ": \(message)"
        if let hint { s += " (\(hint))" }
        return s
    }
}
