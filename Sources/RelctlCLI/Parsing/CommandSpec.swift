/// One command of the table: its words, its options, its help, and what it runs.
struct CommandSpec: Sendable {
    let name: String
    let summary: String
    let options: [OptionSpec]
    var positionals: [PositionalSpec] = []
    /// Paragraphs after the option list (behaviour, exit codes, examples).
    var discussion: String = ""
    let run: @Sendable (ParsedArguments, CommandContext) throws -> Void

    var usage: String {
        var parts = ["relctl", name]
        for p in positionals { parts.append(p.optional ? "[<\(p.name)>]" : "<\(p.name)>") }
        for o in options { parts.append("[\(o.name)\(o.valueName.map { " " + $0 } ?? "")]") }
        return parts.joined(separator: " ")
    }

    var help: String {
        var text = "OVERVIEW: \(summary)\n\nUSAGE: \(usage)\n"
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n"
            for p in positionals { text += Self.row("<\(p.name)>", p.help) }
        }
        text += "\nOPTIONS:\n"
        for o in options { text += Self.row(o.name + (o.valueName.map { " <\($0)>" } ?? ""), o.help) }
        text += Self.row("-h, --help", "Show help for this command.")
        if !discussion.isEmpty { text += "\n" + discussion + "\n" }
        return text
    }

    static func row(_ left: String, _ right: String) -> String {
        let pad = left.count < 24 ? String(repeating: " ", count: 24 - left.count) : "\n" + String(repeating: " ", count: 26)
        return "  \(left)\(pad)\(right)\n"
    }
}
