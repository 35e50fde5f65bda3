/// `relctl completions bash|zsh|fish`: the shell completion script, generated from the command table.
enum CompletionsCommand {
    static let spec: CommandSpec = CommandSpec(
        name: "completions",
        summary: "Print the shell completion script for bash, zsh or fish.",
        options: [],
        positionals: [PositionalSpec(name: "shell", optional: false, help: "bash, zsh or fish.",
                                     completion: .words(CompletionShell.allCases.map(\.rawValue)))],
        discussion: """
        The script completes commands, subcommands, options, option values (--platform ios|android, files for
        --config and --message-file, folders for --repo, git remotes for --remote) from the same table the parser
        uses. 'make install' installs all three; to try one in the current shell:

          source <(relctl completions bash)      # bash
          source <(relctl completions zsh)       # zsh, after compinit
          relctl completions fish | source       # fish

        EXIT CODES: 0 printed, 64 usage error.
        """,
        run: { arguments, context in
            let name = arguments.positionals[0]
            guard let shell = CompletionShell(rawValue: name) else {
                throw UsageError(message: "unknown shell '\(name)'; give bash, zsh or fish", usage: "relctl completions <shell>")
            }
            context.output.resultText(shell.script(for: RelctlCLI.commands))
        })
}
