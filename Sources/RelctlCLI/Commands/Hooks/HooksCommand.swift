import Foundation
import RelctlCore

/// `relctl hooks install|uninstall`: the `commit-msg` hook that runs `relctl lint --message-file`. A command
/// group, like `relctl gate`: each subcommand has its own options and help.
enum HooksCommand {
    static let discussion = """
        The hook goes where git runs hooks from: core.hooksPath when it is set (husky, lefthook; relative to the
        work tree root), else the repository's hooks folder, which every worktree shares. It runs the relctl
        that installed it, by absolute path, else 'relctl' on PATH; when neither is found it lets the commit
        through with a warning. A commit-msg hook relctl did not write is never replaced without --force, and
        'uninstall' removes only relctl's own. --json prints {"schemaVersion":1,"hook","action","executable"}
        (action: installed, updated, replaced, removed or none; executable null for uninstall).

        EXIT CODES: 0 done (or nothing to do), 1 failure, 64 usage error.
        """

    static let spec = CommandSpec(
        name: "hooks",
        summary: "Install or remove the commit-msg hook that checks each commit message with 'relctl lint'.",
        options: [],
        discussion: discussion,
        run: { _, _ in throw InternalError("the hooks group ran without a subcommand") },
        subcommands: [installSpec, uninstallSpec])

    static let installSpec = CommandSpec(
        name: "hooks install",
        summary: "Write relctl's commit-msg hook (relctl lint --message-file) where git runs hooks from.",
        options: [.flag("--force", "Replace a commit-msg hook that relctl did not write."), .json, .repo, .config],
        discussion: discussion,
        run: { arguments, context in
            let workspace = try Workspace.open(arguments, context)
            try install(CommitMsgHook(workspace, home: context.environment["HOME"]), force: arguments.has("--force"),
                        json: arguments.has("--json"), context: context)
        })

    static let uninstallSpec = CommandSpec(
        name: "hooks uninstall",
        summary: "Remove relctl's commit-msg hook (never one relctl did not write).",
        options: [.json, .repo, .config],
        discussion: discussion,
        run: { arguments, context in
            let workspace = try Workspace.open(arguments, context)
            try uninstall(CommitMsgHook(workspace, home: context.environment["HOME"]), json: arguments.has("--json"), context: context)
        })

    /// The `--json` object: what happened to which hook.
    private static func json(_ hook: CommitMsgHook, action: String, executable: String?) -> String {
        JSONOutput.object([("schemaVersion", .int(1)), ("hook", .string(hook.displayPath)), ("action", .string(action)),
                           ("executable", .optional(executable))]).rendered()
    }

    private static func install(_ hook: CommitMsgHook, force: Bool, json: Bool, context: CommandContext) throws {
        let existing = hook.isRelctls()
        if existing == false, !force {
            throw CLIFailure(message: "\(hook.displayPath) exists and was not written by relctl; left as it is (call 'relctl lint --message-file \"$1\"' from it, or replace it with 'relctl hooks install --force')")
        }
        let executable = CommitMsgHook.runningExecutable
        let folder = (hook.path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let temporary = hook.path + ".relctl-tmp"
            try Data(CommitMsgHook.script(executable: executable).utf8).write(to: URL(fileURLWithPath: temporary))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: temporary)
            guard rename(temporary, hook.path) == 0 else {
                try? FileManager.default.removeItem(atPath: temporary)
                throw CLIFailure(message: "\(hook.displayPath): cannot write the hook (\(String(cString: strerror(errno)))); check the folder's permissions")
            }
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure(message: "\(hook.displayPath): cannot write the hook (\(error.localizedDescription)); check the folder's permissions")
        }
        let verb = existing == true ? "updated" : existing == false ? "replaced the hook in" : "installed"
        let line = "\(verb) \(hook.displayPath): runs \(executable) lint --message-file (else relctl on PATH)"
        if json {
            context.output.result(Self.json(hook, action: existing == true ? "updated" : existing == false ? "replaced" : "installed",
                                             executable: executable))
            context.output.message(line)
        } else {
            context.output.result(line)
        }
    }

    private static func uninstall(_ hook: CommitMsgHook, json: Bool, context: CommandContext) throws {
        switch hook.isRelctls() {
        case nil:
            if json { context.output.result(Self.json(hook, action: "none", executable: nil)) }
            context.output.message("no commit-msg hook at \(hook.displayPath); nothing to remove")
        case false?:
            throw CLIFailure(message: "\(hook.displayPath) was not written by relctl; left as it is (remove it yourself if you mean to)")
        case true?:
            do {
                try FileManager.default.removeItem(atPath: hook.path)
            } catch {
                throw CLIFailure(message: "\(hook.displayPath): cannot remove the hook (\(error.localizedDescription)); check the folder's permissions")
            }
            if json {
                context.output.result(Self.json(hook, action: "removed", executable: nil))
                context.output.message("removed \(hook.displayPath)")
            } else {
                context.output.result("removed \(hook.displayPath)")
            }
        }
    }
}
