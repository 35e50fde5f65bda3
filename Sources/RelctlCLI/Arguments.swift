/// A command-line option of a command: a flag (`--json`) or an option with a value (`--repo PATH`).
struct OptionSpec: Sendable {
    let name: String
    let valueName: String?
    let help: String

    static func flag(_ name: String, _ help: String) -> OptionSpec { OptionSpec(name: name, valueName: nil, help: help) }
    static func value(_ name: String, _ valueName: String, _ help: String) -> OptionSpec { OptionSpec(name: name, valueName: valueName, help: help) }

    static let repo = value("--repo", "PATH", "The repository, or a folder inside it (default: the current folder).")
    static let config = value("--config", "PATH", "The config file (default: .relctl.json at the repository root).")
    static let json = flag("--json", "Print one JSON object on stdout instead of text.")
    static let dryRun = flag("--dry-run", "Show what would change; change nothing.")
}

/// A positional argument.
struct PositionalSpec: Sendable {
    let name: String
    let optional: Bool
    let help: String
}

/// One command of the table: its words, its options, its help, and what it runs.
struct CommandSpec: Sendable {
    let name: String
    let summary: String
    let options: [OptionSpec]
    var positionals: [PositionalSpec] = []
    /// Paragraphs after the option list (behaviour, exit codes, examples).
    var discussion: String = ""
    let run: @Sendable (ParsedArguments, CommandContext) throws -> Int32

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

/// What the parser found.
struct ParsedArguments {
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var positionals: [String] = []
    var wantsHelp = false

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func value(_ name: String) -> String? { values[name] }
}

/// A mistake in the command line: exit 64, the message and the usage line on stderr.
struct UsageError: Error {
    let message: String
    let usage: String
}

enum ArgumentParser {
    static func parse(_ arguments: [String], for command: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var i = 0
        var onlyPositionals = false
        func fail(_ message: String) -> UsageError { UsageError(message: message, usage: command.usage) }
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            if argument == "-h" || argument == "--help" { parsed.wantsHelp = true; continue }
            var name = argument
            var inlineValue: String?
            if let eq = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<eq])
                inlineValue = String(argument[argument.index(after: eq)...])
            }
            guard let spec = command.options.first(where: { $0.name == name }) else {
                throw fail("unknown option '\(name)' for 'relctl \(command.name)'")
            }
            if spec.valueName == nil {
                if inlineValue != nil { throw fail("option '\(name)' takes no value") }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard i < arguments.count, !arguments[i].hasPrefix("--") else {
                    throw fail("option '\(name)' needs a value <\(spec.valueName!)>")
                }
                value = arguments[i]
                i += 1
            }
            if value.isEmpty { throw fail("option '\(name)' needs a non-empty value") }
            if parsed.values[name] != nil { throw fail("option '\(name)' given twice") }
            parsed.values[name] = value
        }
        if parsed.wantsHelp { return parsed }
        let required = command.positionals.filter { !$0.optional }.count
        if parsed.positionals.count < required {
            throw fail("missing argument <\(command.positionals[parsed.positionals.count].name)>")
        }
        if parsed.positionals.count > command.positionals.count {
            throw fail("unexpected argument '\(parsed.positionals[command.positionals.count])'")
        }
        return parsed
    }
}
