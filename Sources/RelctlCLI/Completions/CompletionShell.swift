/// The shells `relctl completions` writes a script for, each generated from the command table the parser uses.
enum CompletionShell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    /// The script for this shell, for `commands` (the table) and the `help` pseudo-command.
    func script(for commands: [CommandSpec]) -> String {
        let table = CompletionTable(commands)
        switch self {
        case .bash: return BashCompletionScript(table).text
        case .zsh: return ZshCompletionScript(table).text
        case .fish: return FishCompletionScript(table).text
        }
    }

    /// Where `make install` puts the script, under the prefix (where each shell looks by default).
    var installPath: String {
        switch self {
        case .bash: return "share/bash-completion/completions/relctl"
        case .zsh: return "share/zsh/site-functions/_relctl"
        case .fish: return "share/fish/vendor_completions.d/relctl.fish"
        }
    }
}
