import RelctlCore
import RelctlJSON

/// A JSON value for machine-readable output, with keys kept in the order written.
package indirect enum JSONOutput: Equatable {
    case object([(String, JSONOutput)])
    case array([JSONOutput])
    case string(String)
    case int(Int)
    case bool(Bool)
    case null

    package static func == (lhs: JSONOutput, rhs: JSONOutput) -> Bool { lhs.rendered() == rhs.rendered() }

    package static func optional(_ text: String?) -> JSONOutput { text.map { .string($0) } ?? .null }

    /// Compact, one line.
    package func rendered() -> String {
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

    /// A JSON string with no raw control character (C0, DEL, C1: `JSONDocument.quoteEscapingControls`), so no string
    /// of `--json` carries one to a terminal.
    static func escape(_ s: String, into out: inout String) {
        out += JSONDocument.quoteEscapingControls(s)
    }
}
