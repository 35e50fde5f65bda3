import Foundation
import RelctlCore

/// Where a command writes: results to stdout, messages to stderr. Tests capture both in memory.
public final class Output: @unchecked Sendable {
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void
    /// Whether stderr may carry ANSI colour (a terminal, and no `NO_COLOR`).
    public let colorErr: Bool

    public init(stdout: @escaping (String) -> Void, stderr: @escaping (String) -> Void, colorErr: Bool = false) {
        writeOut = stdout
        writeErr = stderr
        self.colorErr = colorErr
    }

    /// The process's own stdout and stderr.
    public static func standard(environment: [String: String]) -> Output {
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
        return Output(
            stdout: { FileHandle.standardOutput.write(Data($0.utf8)) },
            stderr: { FileHandle.standardError.write(Data($0.utf8)) },
            colorErr: !noColor && isatty(2) == 1)
    }

    /// A result line on stdout.
    public func result(_ line: String) { writeOut(line + "\n") }
    /// Raw text on stdout (a diff, a changelog), written as is.
    public func resultText(_ text: String) { writeOut(text) }
    /// A message line on stderr.
    public func message(_ line: String) { writeErr(line + "\n") }

    public func error(_ text: String) { writeErr(paint("error:", .red) + " " + text + "\n") }
    public func warning(_ text: String) { writeErr(paint("warning:", .yellow) + " " + text + "\n") }
    public func note(_ text: String) { writeErr(paint("note:", .cyan) + " " + text + "\n") }

    public enum Color: String { case red = "31", yellow = "33", cyan = "36", bold = "1", boldRed = "1;31", boldYellow = "1;33" }

    public func paint(_ text: String, _ color: Color) -> String {
        colorErr ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }
}

/// A JSON value for machine-readable output, with keys kept in the order written.
public indirect enum JSONOutput: Equatable {
    case object([(String, JSONOutput)])
    case array([JSONOutput])
    case string(String)
    case int(Int)
    case bool(Bool)
    case null

    public static func == (lhs: JSONOutput, rhs: JSONOutput) -> Bool { lhs.rendered() == rhs.rendered() }

    public static func optional(_ text: String?) -> JSONOutput { text.map { .string($0) } ?? .null }

    /// Compact, one line.
    public func rendered() -> String {
        var out = ""
        render(into: &out)
        return out
    }

    private func render(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .string(let s): JSONOutput.escape(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.render(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                JSONOutput.escape(key, into: &out)
                out += ":"
                value.render(into: &out)
            }
            out += "}"
        }
    }

    static func escape(_ s: String, into out: inout String) {
        out += JSONDocument.quote(s)
    }
}
