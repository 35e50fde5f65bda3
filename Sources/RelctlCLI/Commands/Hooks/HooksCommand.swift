import Foundation
import RelctlCore

/// `relctl hooks install|uninstall`: the `commit-msg` hook that runs `relctl lint --message-file`. A command
/// group, like `relctl gate`: each subcommand has its own options and help.
enum HooksCommand {
    static let discussion = """
        The hook goes where git runs hooks from: core.hooksPath when it is set (husky v5-8, lefthook; relative to
        the work tree root), else the repository's hooks folder, which every worktree shares. Under husky v9
        (core.hooksPath .husky/_, husky's generated scripts) it is .husky/commit-msg, which husky runs; under
        husky v4 add "commit-msg": "relctl lint --message-file $HUSKY_GIT_PARAMS" to package.json instead. It
        runs the relctl that installed it, by absolute path, else 'relctl' on PATH; when neither is found it lets
        the commit through with a warning. relctl's lines sit between its marker line and '# end of relctl's
        commit-msg hook': install updates them and uninstall removes them, keeping any other line of the file
        (the file goes only when nothing else is left). A commit-msg hook relctl did not write is never replaced
        without --force. relctl never writes through a symbolic link that leads outside the repository.
        --json prints {"schemaVersion":1,"hook","action","executable"} (action: installed, updated, replaced,
        removed or none; executable null for uninstall).

        EXIT CODES: 0 done (or nothing to do), 1 failure, 64 usage error.
        """

    static let spec = CommandSpec(
        name: "hooks",
        summary: "Install or remove the commit-msg hook that checks each commit message with 'relctl lint'.",
        options: [],
        discussion: discussion,
        run: { _, _ in throw Problem.internalError("the hooks group ran without a subcommand") },
        subcommands: [installSpec, uninstallSpec])

    static let installSpec = CommandSpec(
        name: "hooks install",
        summary: "Write relctl's commit-msg hook (relctl lint --message-file) where git runs hooks from.",
        options: [.flag("--force", "Replace a commit-msg hook that relctl did not write."), .json, .repo, .config],
        discussion: discussion,
        run: { arguments, context in
            let workspace = try Workspace.open(RepositoryLocation(arguments), context)
            try install(CommitMsgHook(workspace, home: context.environment["HOME"]), force: arguments.has("--force"),
                        json: arguments.has("--json"), context: context)
        })

    static let uninstallSpec = CommandSpec(
        name: "hooks uninstall",
        summary: "Remove relctl's commit-msg hook (never one relctl did not write).",
        options: [.json, .repo, .config],
        discussion: discussion,
        run: { arguments, context in
            let workspace = try Workspace.open(RepositoryLocation(arguments), context)
            try uninstall(CommitMsgHook(workspace, home: context.environment["HOME"]), json: arguments.has("--json"), context: context)
        })

    /// The `--json` object: what happened to which hook.
    private static func json(_ hook: CommitMsgHook, action: String, executable: String?) -> String {
        JSONOutput.object([("schemaVersion", .int(1)), ("hook", .string(hook.displayPath)), ("action", .string(action)),
                           ("executable", .optional(executable))]).rendered()
    }

    private static func install(_ hook: CommitMsgHook, force: Bool, json: Bool, context: CommandContext) throws {
        let file = try HookFile(hook)
        let executable = CommitMsgHook.runningExecutable
        let block = CommitMsgHook.block(executable: executable)
        let text: String
        let action: String
        let verb: String
        switch file.content {
        case nil:
            text = CommitMsgHook.script(executable: executable)
            action = "installed"
            verb = "installed \(hook.displayPath)"
        case .foreign? where force, .unterminated? where force:
            text = CommitMsgHook.script(executable: executable)
            action = "replaced"
            verb = "replaced the hook in \(hook.displayPath)"
        case .foreign?:
            if hook.layout == .huskyV4 {
                throw Problem("\(hook.displayPath) is husky v4's runner, not written by relctl; left as it is (add \"commit-msg\": \"relctl lint --message-file $HUSKY_GIT_PARAMS\" to \"husky\": {\"hooks\": {…}} in package.json, or replace it with 'relctl hooks install --force')")
            }
            throw Problem("\(hook.displayPath) exists and was not written by relctl; left as it is (call 'relctl lint --message-file \"$1\"' from it, or replace it with 'relctl hooks install --force')")
        case .unterminated?:
            throw Problem(HookFile.unterminated(hook, command: "install"))
        case .mixed? where force:
            text = CommitMsgHook.script(executable: executable)
            action = "replaced"
            verb = "replaced the hook in \(hook.displayPath)"
        case .mixed(let at)?:
            throw Problem(HookFile.mixed(hook, line: at, command: "install"))
        case .relctls(let lines, let range, let userLines)?:
            action = "updated"
            if userLines == 0 {
                text = CommitMsgHook.script(executable: executable)
                verb = "updated \(hook.displayPath)"
            } else {
                text = (lines[..<range.lowerBound] + block.map { Substring($0) } + lines[(range.upperBound + 1)...]).joined(separator: "\n")
                verb = "updated relctl's lines in \(hook.displayPath) (kept your \(userLines) other line\(userLines == 1 ? "" : "s"))"
            }
        }
        try file.write(text)
        try HookFile.restoreHuskyRunner(hook)
        var line = "\(verb): runs \(executable) lint --message-file (else relctl on PATH)"
        if case .huskyV9(let generated) = hook.layout {
            line += "; husky runs it from \(CommitMsgHook.shown(generated, root: hook.root))"
        }
        if json {
            context.output.result(Self.json(hook, action: action, executable: executable))
            context.output.message(line)
        } else {
            context.output.result(line)
        }
        if case .huskyV9(let generated) = hook.layout, !FileManager.default.fileExists(atPath: generated) {
            let shown = CommitMsgHook.shown(generated, root: hook.root)
            context.output.message("note: \(shown), husky's runner of \(hook.displayPath), does not exist yet, so git runs nothing; run 'npx husky' (npm install runs it through the \"prepare\" script)")
        }
    }

    private static func uninstall(_ hook: CommitMsgHook, json: Bool, context: CommandContext) throws {
        let file = try HookFile(hook)
        let line: String
        switch file.content {
        case nil:
            try HookFile.restoreHuskyRunner(hook)
            if json { context.output.result(Self.json(hook, action: "none", executable: nil)) }
            context.output.message("no commit-msg hook at \(hook.displayPath); nothing to remove")
            return
        case .foreign?:
            throw Problem("\(hook.displayPath) was not written by relctl; left as it is (remove it yourself if you mean to)")
        case .unterminated?:
            throw Problem(HookFile.unterminated(hook, command: "uninstall"))
        case .mixed(let at)?:
            throw Problem(HookFile.mixed(hook, line: at, command: "uninstall"))
        case .relctls(_, _, 0)?:
            try file.remove()
            line = "removed \(hook.displayPath)"
        case .relctls(let lines, let range, let userLines)?:
            var rest = Array(lines[..<range.lowerBound]) + Array(lines[(range.upperBound + 1)...])
            // One blank line where relctl's lines were, not two.
            let joint = range.lowerBound
            if joint > 0, joint < rest.count, rest[joint - 1].isEmpty, rest[joint].isEmpty { rest.remove(at: joint) }
            try file.write(rest.joined(separator: "\n"))
            line = "removed relctl's lines from \(hook.displayPath) (kept your \(userLines) other line\(userLines == 1 ? "" : "s"))"
        }
        try HookFile.restoreHuskyRunner(hook)
        if json {
            context.output.result(Self.json(hook, action: "removed", executable: nil))
            context.output.message(line)
        } else {
            context.output.result(line)
        }
    }
}
