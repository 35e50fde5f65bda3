/// The command table as the completion scripts see it: every command a user types (a command group's
/// subcommands by their full words), with its options, positionals and the help shown beside each.
struct CompletionTable {
    /// A command as typed: `["next"]`, `["gate", "check"]`.
    struct Entry {
        let words: [String]
        let summary: String
        let options: [OptionSpec]
        let positionals: [PositionalSpec]
        /// The subcommand names of a command group (`check`, `evaluate`…), with their summaries.
        let subcommands: [(name: String, summary: String)]

        var key: String { words.joined(separator: " ") }
        var isGroup: Bool { !subcommands.isEmpty }
    }

    /// The help option every command takes.
    static let help = OptionSpec.flag("--help", "Show help for this command.")
    /// The options of `relctl` itself, before any command.
    static let topLevelOptions = [OptionSpec.flag("--help", "Show help."), OptionSpec.flag("--version", "Print relctl's version.")]
    /// `relctl help --man`.
    static let manOption = OptionSpec.flag("--man", "Print the man page (roff) instead of the help.")

    let commands: [CommandSpec]
    /// The top-level commands and every subcommand, in table order (a group before its subcommands).
    let entries: [Entry]

    init(_ commands: [CommandSpec]) {
        self.commands = commands
        var entries: [Entry] = []
        for command in commands {
            entries.append(Entry(words: [command.name], summary: command.summary, options: command.options,
                                 positionals: command.positionals,
                                 subcommands: command.subcommands.map { (Self.lastWord($0.name), $0.summary) }))
            for sub in command.subcommands {
                entries.append(Entry(words: [command.name, Self.lastWord(sub.name)], summary: sub.summary,
                                     options: sub.options, positionals: sub.positionals, subcommands: []))
            }
        }
        self.entries = entries
    }

    /// The top-level words: every command, then `help`.
    var topLevel: [(name: String, summary: String)] {
        commands.map { ($0.name, $0.summary) } + [("help", "Show the help of relctl or of a command (--man: the man page).")]
    }

    /// The help text's first sentence, for the one-line descriptions shells show beside a candidate.
    static func shortHelp(_ text: String) -> String {
        var result = ""
        var previous: Character = " "
        for character in text {
            if previous == ".", character == " " { break }
            result.append(character)
            previous = character
        }
        if result.hasSuffix(".") { result.removeLast() }
        return result
    }

    private static func lastWord(_ name: String) -> String {
        String(name.split(separator: " ").last ?? Substring(name))
    }
}
