import Foundation
import RelctlCore

/// `relctl hooks install|uninstall`: the `commit-msg` hook that runs `relctl lint --message-file`.
enum HooksCommand {
    static let spec = CommandSpec(
        name: "hooks",
        summary: "Install or remove the commit-msg hook that checks each commit message with 'relctl lint'.",
        options: [
            .flag("--force", "install: replace a commit-msg hook that relctl did not write."),
            .repo, .config,
        ],
        positionals: [PositionalSpec(name: "install|uninstall", optional: false, help: "Write relctl's commit-msg hook, or remove it.")],
        discussion: """
        The hook goes where git runs hooks from: core.hooksPath when it is set (husky, lefthook; relative to the
        work tree root), else the repository's hooks folder, which every worktree shares. It runs the relctl
        that installed it, by absolute path, else 'relctl' on PATH; when neither is found it lets the commit
        through with a warning. A commit-msg hook relctl did not write is never replaced without --force, and
        'uninstall' removes only relctl's own.

        EXIT CODES: 0 done (or nothing to do), 1 failure, 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let action = arguments.positionals[0]
        guard action == "install" || action == "uninstall" else {
            throw UsageError(message: "unknown action '\(action)'; use 'relctl hooks install' or 'relctl hooks uninstall'", usage: spec.usage)
        }
        if action == "uninstall", arguments.has("--force") {
            throw UsageError(message: "--force is for install; uninstall never removes a hook relctl did not write", usage: spec.usage)
        }
        let workspace = try Workspace.open(arguments, context)
        let hook = CommitMsgHook(workspace, home: context.environment["HOME"])
        if action == "install" {
            try install(hook, force: arguments.has("--force"), context: context)
        } else {
            try uninstall(hook, context: context)
        }
    }

    private static func install(_ hook: CommitMsgHook, force: Bool, context: CommandContext) throws {
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
        context.output.result("\(verb) \(hook.displayPath): runs \(executable) lint --message-file (else relctl on PATH)")
    }

    private static func uninstall(_ hook: CommitMsgHook, context: CommandContext) throws {
        switch hook.isRelctls() {
        case nil:
            context.output.message("no commit-msg hook at \(hook.displayPath); nothing to remove")
        case false?:
            throw CLIFailure(message: "\(hook.displayPath) was not written by relctl; left as it is (remove it yourself if you mean to)")
        case true?:
            do {
                try FileManager.default.removeItem(atPath: hook.path)
            } catch {
                throw CLIFailure(message: "\(hook.displayPath): cannot remove the hook (\(error.localizedDescription)); check the folder's permissions")
            }
            context.output.result("removed \(hook.displayPath)")
        }
    }
}
