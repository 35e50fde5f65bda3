import RelctlCore

extension JSONOutput {
    /// Pretty JSON: 2-space indentation, `"key": value`, a newline at the end.
    func prettyRendered() -> String {
        var out = ""
        renderPretty(into: &out, indent: "")
        return out + "\n"
    }

    private func renderPretty(into out: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += inner
                item.renderPretty(into: &out, indent: inner)
                out += i < items.count - 1 ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            for (i, (key, value)) in members.enumerated() {
                out += inner
                JSONOutput.escape(key, into: &out)
                out += ": "
                value.renderPretty(into: &out, indent: inner)
                out += i < members.count - 1 ? ",\n" : "\n"
            }
            out += indent + "}"
        default:
            out += rendered()
        }
    }
}
