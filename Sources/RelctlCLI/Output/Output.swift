import Foundation
import RelctlCore

/// Where a command writes: results to stdout, messages to stderr. Tests capture both in memory.
package final class Output: @unchecked Sendable {
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void
    /// Whether stderr may carry ANSI colour (a terminal, and no `NO_COLOR`).
    package let colorErr: Bool

    package init(stdout: @escaping (String) -> Void, stderr: @escaping (String) -> Void, colorErr: Bool = false) {
        writeOut = stdout
        writeErr = stderr
        self.colorErr = colorErr
    }

    /// The process's own stdout and stderr (see `StandardStream`); `closed`: the descriptors that were closed at start.
    package static func standard(environment: [String: String], closed: Set<Int32> = []) -> Output {
        standard(noColor: !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb", closed: closed)
    }

    /// The same, told whether NO_COLOR (or TERM=dumb) turns colour off.
    package static func standard(noColor: Bool, closed: Set<Int32> = []) -> Output {
        let out = StandardStream(descriptor: 1, wasClosed: closed.contains(1))
        let err = StandardStream(descriptor: 2, wasClosed: closed.contains(2))
        let output = Output(stdout: out.write, stderr: err.write, colorErr: !noColor && isatty(2) == 1)
        output.standardOut = out
        output.standardErr = err
        return output
    }

    /// Under a CI provider, what its log parser must not read as its own syntax (`CILogSafety`): applied to every
    /// line below, after escaping. Set once, by `CommandContext`, before anything is written.
    var logSafety: CILogSafety?

    private func safe(_ text: String) -> String { logSafety?.safe(text) ?? text }

    /// The process's streams when this output writes to them (nil for a captured output).
    package private(set) var standardOut: StandardStream?
    package private(set) var standardErr: StandardStream?

    // Every line and text below passes through `TerminalText.escaped`: text from the repository (commit messages,
    // paths, tag names, file contents) never reaches the terminal or the CI log with a raw control character. The
    // only escape sequences written are relctl's own colours (`paint`, `coloredLines`), added after escaping.

    /// A result line on stdout.
    package func result(_ line: String) { writeOut(safe(TerminalText.escaped(line)) + "\n") }
    /// Text on stdout (a diff, a changelog), as is but for control characters.
    package func resultText(_ text: String) { writeOut(safe(TerminalText.escaped(text))) }
    /// A message line on stderr.
    package func message(_ line: String) { writeErr(safe(TerminalText.escaped(line)) + "\n") }

    package func error(_ text: String) { writeErr(paint("error:", .red) + " " + safe(TerminalText.escaped(text)) + "\n") }

    /// A warning: `warning: path:line: message (hint)` and, under a CI provider, its annotation. A thin wrapper
    /// that builds the diagnostic; `emit` writes it.
    package func warning(_ message: String, at location: DiagnosticLocation?, hint: String? = nil) {
        emit(Problem(message, at: location, hint: hint, severity: .warning))
    }

    /// A warning with no file and no hint of its own (a closure's type for the code that only says text).
    package func warning(_ message: String) { warning(message, at: nil) }

    /// The CI provider of the run (set once by `CommandContext`): every warning `emit` writes is also handed to it
    /// as an annotation, the one place annotations of warnings are made.
    var ci: (any CIProvider)?

    /// What a CI annotation says instead of the diagnostic's own text (the major-release reminder's title).
    package struct Annotation {
        package var title: String
        package var message: String
    }

    /// A diagnostic with its severity's label: `error: path:line: message (hint)`, `warning: …` or `note: …`.
    /// A warning is then handed to the run's CI provider (`annotation`, when given, replaces its title and text):
    /// GitHub Actions shows `::warning file=path,line=N,title=relctl::message (hint)` on the run. An error needs
    /// none (the job fails with it), a note is not worth one.
    package func emit(_ diagnostic: any Diagnostic, root: String? = nil, annotation: Annotation? = nil) {
        let text = diagnostic.rendered(relativeTo: root)
        let label: (String, Color) = switch diagnostic.severity {
        case .error: ("error:", .red)
        case .warning: ("warning:", .yellow)
        case .note: ("note:", .cyan)
        }
        writeErr(paint(label.0, label.1) + " " + safe(TerminalText.escaped(text)) + "\n")
        guard diagnostic.severity == .warning, let ci else { return }
        var location = diagnostic.location
        if let root, !root.isEmpty, let path = location?.path, path.hasPrefix(root + "/") {
            location?.path = String(path.dropFirst(root.count + 1))
        }
        let body = Problem(diagnostic.message, hint: diagnostic.hint).rendered()
        let said = annotation ?? Annotation(title: "relctl", message: body)
        if let line = ci.annotation(.warning, title: said.title, location: location, message: said.message) { message(line) }
    }

    package func note(_ text: String) { writeErr(paint("note:", .cyan) + " " + safe(TerminalText.escaped(text)) + "\n") }

    /// `place: label text` on stderr with `label` painted (`lint`'s `file:line: error: …`).
    package func labeled(_ place: String, _ label: String, _ color: Color, _ text: String) {
        writeErr(safe(TerminalText.escaped(place)) + ": " + paint(label, color) + " " + safe(TerminalText.escaped(text)) + "\n")
    }

    /// `text` on stderr, each line in `color` whether or not stderr is a terminal (the caller decides: a CI log may
    /// show colour), then a line feed, as `message` writes it.
    package func coloredLines(_ text: String, _ color: Color) {
        let body = text.hasSuffix("\n") ? String(text.dropLast()) : text
        let lines = safe(TerminalText.escaped(body)).split(separator: "\n", omittingEmptySubsequences: false)
        writeErr(lines.map { "\u{1B}[\(color.rawValue)m\($0)\u{1B}[0m" }.joined(separator: "\n") + (text.hasSuffix("\n") ? "\n" : "") + "\n")
    }

    package enum Color: String { case red = "31", yellow = "33", cyan = "36", bold = "1", boldRed = "1;31", boldYellow = "1;33" }

    package func paint(_ text: String, _ color: Color) -> String {
        colorErr ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }
}
