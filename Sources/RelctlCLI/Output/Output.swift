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

    /// The process's own stdout and stderr.
    package static func standard(environment: [String: String]) -> Output {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
        return Output(
            stdout: { FileHandle.standardOutput.write(Data($0.utf8)) },
            stderr: { FileHandle.standardError.write(Data($0.utf8)) },
            colorErr: !noColor && isatty(2) == 1)
    }

    /// A result line on stdout.
    package func result(_ line: String) { writeOut(line + "\n") }
    /// Raw text on stdout (a diff, a changelog), written as is.
    package func resultText(_ text: String) { writeOut(text) }
    /// A message line on stderr.
    package func message(_ line: String) { writeErr(line + "\n") }

    package func error(_ text: String) { writeErr(paint("error:", .red) + " " + text + "\n") }
    package func warning(_ text: String) { writeErr(paint("warning:", .yellow) + " " + text + "\n") }
    package func note(_ text: String) { writeErr(paint("note:", .cyan) + " " + text + "\n") }

    package enum Color: String { case red = "31", yellow = "33", cyan = "36", bold = "1", boldRed = "1;31", boldYellow = "1;33" }

    package func paint(_ text: String, _ color: Color) -> String {
        colorErr ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }
}
