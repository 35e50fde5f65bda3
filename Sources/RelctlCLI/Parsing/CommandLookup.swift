import RelctlCore
/// Which command the words of a command line name: a command of the table, or a subcommand of a command group
/// (`relctl gate check`).
enum CommandLookup {
    /// The command `words` name (`["status"]`, `["gate", "check"]`), for `relctl help <words>`; nil when none.
    static func find(_ words: [String], in commands: [CommandSpec]) -> CommandSpec? {
        guard let first = words.first, let command = commands.first(where: { $0.name == first }) else { return nil }
        if words.count == 1 { return command }
        guard words.count == 2 else { return nil }
        return command.subcommands.first { $0.name == "\(command.name) \(words[1])" }
    }

    /// What follows a command group's name.
    enum Subcommand {
        /// A subcommand, and the arguments after its name.
        case found(CommandSpec, arguments: [String])
        /// `--help`, `-h`: the group's help.
        case groupHelp
        /// No subcommand, or one the group does not have.
        case failure(String)
    }

    static func subcommand(of group: CommandSpec, _ arguments: [String]) -> Subcommand {
        guard let word = arguments.first else {
            return .failure("'relctl \(group.name)' needs a subcommand: \(names(group).joined(separator: ", "))")
        }
        if word == "--help" || word == "-h" { return .groupHelp }
        if let sub = group.subcommands.first(where: { $0.name == "\(group.name) \(word)" }) {
            return .found(sub, arguments: Array(arguments.dropFirst()))
        }
        let known = names(group)
        if word.hasPrefix("-") {
            return .failure("'relctl \(group.name)' needs a subcommand before its options: \(known.joined(separator: ", "))")
        }
        let near = known.first { $0.hasPrefix(word) } ?? Spelling.nearest(word, among: known)
        return .failure("unknown subcommand '\(word)' of 'relctl \(group.name)'" + (near.map { "; did you mean '\($0)'?" }
            ?? "; known: \(known.joined(separator: ", "))"))
    }

    private static func names(_ group: CommandSpec) -> [String] {
        group.subcommands.map { String($0.name.dropFirst(group.name.count + 1)) }
    }
}
