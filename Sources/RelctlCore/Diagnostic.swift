/// Where a problem is: a file (relative to the repository root, or absolute until the command line shows it)
/// and, when known, a line (and a column in characters, shown as `path:line:column`).
public struct DiagnosticLocation: Sendable, Hashable {
    public var path: String
    public var line: Int?
    public var column: Int?

    public init(path: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }
}

/// How much a diagnostic weighs: an error stops the command (exit code non-zero), a warning is said and the
/// command goes on, a note adds what the user should know. The command line prints each with its label
/// (`error:`, `warning:`, `note:`), and under CI the provider turns errors and warnings into annotations.
public enum Severity: String, Sendable, Hashable, CaseIterable {
    case error, warning, note
}

/// A problem the user can fix: where it is, what happened, and how to fix it. Every error relctl shows
/// conforms, and the command line prints each one the same way: `error: path:line: message (hint)`.
public protocol Diagnostic: Error, CustomStringConvertible {
    /// Error (the default), warning or note.
    var severity: Severity { get }
    /// The file (and line) the problem is in; nil when it is about no one file.
    var location: DiagnosticLocation? { get }
    /// What happened, in one line.
    var message: String { get }
    /// How to fix it, shown in parentheses after the message.
    var hint: String? { get }
}

extension Diagnostic {
    public var severity: Severity { .error }
    public var location: DiagnosticLocation? { nil }
    public var hint: String? { nil }

    public var description: String { rendered() }

    /// `path:line: message (hint)`, each part only when there is one. An absolute path inside `root` is shown
    /// relative to it, as git names the file.
    public func rendered(relativeTo root: String? = nil) -> String {
        var text = ""
        if let location {
            var path = location.path
            if let root, !root.isEmpty, path.hasPrefix(root + "/") { path = String(path.dropFirst(root.count + 1)) }
            text = path + (location.line.map { ":\($0)" } ?? "") + (location.column.map { ":\($0)" } ?? "") + ": "
        }
        text += message
        if let hint { text += " (\(hint))" }
        return text
    }
}

/// A problem with no type of its own: a location, a message, a hint and a severity (an error unless said), and
/// the kind a caller tests when it must tell one problem from another. Planning returns a list of them, so a
/// preflight reports every problem at once.
public struct Problem: Diagnostic, Sendable, Hashable {
    /// What a caller that handles some problems apart from the rest tests, rather than a type of their own.
    public enum Kind: Sendable, Hashable {
        /// Any problem: said as it is.
        case general
        /// A push that found the remote branch moved by another release: nothing of this release was published,
        /// and the caller undoes the local release (or says to pull).
        case pushLostRace
        /// A forge (GitHub, GitLab) that refused a request or could not be reached: the message is the whole line,
        /// saying what exists already and how to finish.
        case forge
        /// A major release stopped by `"onMajor": "halt"`: the command ends with its own exit code (3).
        case haltedForMajor
    }

    public var severity: Severity
    public var location: DiagnosticLocation?
    public var message: String
    public var hint: String?
    public var kind: Kind

    public init(
        _ message: String, at location: DiagnosticLocation? = nil, hint: String? = nil, severity: Severity = .error,
        kind: Kind = .general
    ) {
        self.severity = severity
        self.location = location
        self.message = message
        self.hint = hint
        self.kind = kind
    }

    /// `diagnostic` with `clause` added to its message after a semicolon (`; nothing was changed`), its place, hint
    /// and severity kept: what a caller adds to an error it passes on, without flattening it to text.
    public init(_ diagnostic: any Diagnostic, adding clause: String) {
        self.init(diagnostic.message + "; " + clause, at: diagnostic.location, hint: diagnostic.hint, severity: diagnostic.severity)
    }

    /// Any diagnostic as a problem with the same severity, place, message and hint.
    public init(_ diagnostic: any Diagnostic) {
        self.init(diagnostic.message, at: diagnostic.location, hint: diagnostic.hint, severity: diagnostic.severity)
    }

    /// A state relctl's own logic should never reach (a commit made but not recorded, a value checked a line before
    /// and gone): said to be a bug in relctl, instead of a crash. `what`: what was found, in relctl's terms.
    package static func internalError(_ what: String) -> Problem {
        Problem("internal error: \(what)", hint: "this is a bug in relctl; please report it with the command that was run and this message")
    }
}
