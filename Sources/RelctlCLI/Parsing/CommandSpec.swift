/// One command of the table: its words, its options, its help, and what it runs.
struct CommandSpec: Sendable {
    let name: String
    let summary: String
    let options: [OptionSpec]
    var positionals: [PositionalSpec] = []
    /// Paragraphs after the option list (behaviour, exit codes, examples).
    var discussion: String = ""
    let run: @Sendable (ParsedArguments, CommandContext) throws -> Void
    /// The subcommands of a command group (`relctl gate check`), each named with the group's name first
    /// (`gate check`); empty for a plain command.
    var subcommands: [CommandSpec] = []

    var usage: String {
        if !subcommands.isEmpty { return "relctl \(name) <subcommand> [options]" }
        var parts = ["relctl", name]
        for p in positionals { parts.append(p.optional ? "[<\(p.name)>]" : "<\(p.name)>") }
        for o in options { parts.append("[\(o.name)\(o.valueName.map { o.optionalValue ? " [\($0)]" : " " + $0 } ?? "")]") }
        return parts.joined(separator: " ")
    }

    var help: String {
        var text = "OVERVIEW: \(summary)\n\nUSAGE: \(usage)\n"
        if !subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            for sub in subcommands { text += Self.row(String(sub.name.dropFirst(name.count + 1)), sub.summary) }
            text += "\nSee 'relctl help \(name) <subcommand>' (or 'relctl \(name) <subcommand> --help') for its options.\n"
            if !discussion.isEmpty { text += "\n" + discussion + "\n" }
            let examples = CommandExamples.section(for: name)
            if !examples.isEmpty { text += "\n" + examples }
            return text
        }
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n"
            for p in positionals { text += Self.row("<\(p.name)>", p.help) }
        }
        text += "\nOPTIONS:\n"
        for o in options { text += Self.row(o.name + (o.valueName.map { o.optionalValue ? " [<\($0)>]" : " <\($0)>" } ?? ""), o.help) }
        text += Self.row("-h, --help", "Show help for this command.")
        if !discussion.isEmpty { text += "\n" + discussion + "\n" }
        let examples = CommandExamples.section(for: name)
        if !examples.isEmpty { text += "\n" + examples }
        return text
    }

    /// Where an option's description starts: after the two-space indent and a 24-column name.
    static let descriptionColumn = 26

    /// `  --name <V>   description`; a name too long for its column puts the description on the next line, at the
    /// same column.
    static func row(_ left: String, _ right: String) -> String {
        let room = descriptionColumn - 2 - left.count
        let pad = room > 0 ? String(repeating: " ", count: room) : "\n" + String(repeating: " ", count: descriptionColumn)
        return "  \(left)\(pad)\(right)\n"
    }
}
