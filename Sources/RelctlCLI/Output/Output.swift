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
    package func warning(_ text: String) { writeErr(paint("warning:", .yellow) + " " + safe(TerminalText.escaped(text)) + "\n") }
    /// A diagnostic with its severity's label: `error: path:line: message (hint)`, `warning: …` or `note: …`.
    package func emit(_ diagnostic: any Diagnostic, root: String? = nil) {
        let text = diagnostic.rendered(relativeTo: root)
        switch diagnostic.severity {
        case .error: error(text)
        case .warning: warning(text)
        case .note: note(text)
        }
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
