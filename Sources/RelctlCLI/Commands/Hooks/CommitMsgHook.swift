import Foundation
import RelctlCore

/// relctl's `commit-msg` hook: where git looks for it, the script, and whether a file there is relctl's.
struct CommitMsgHook {
    /// The line that marks a hook relctl wrote: `install` replaces and `uninstall` removes only such a file.
    static let marker = "# relctl commit-msg hook: written by 'relctl hooks install', removed by 'relctl hooks uninstall'"

    /// The hook file (absolute).
    let path: String
    /// The same, as the messages show it: relative to the work tree root when inside it.
    let displayPath: String

    /// The folder git runs hooks from: `core.hooksPath` when set (`~/` is the home folder, a relative path is
    /// relative to the work tree root, as git runs hooks from there), else `hooks` in the repository's common
    /// folder, which every linked worktree shares.
    init(_ workspace: Workspace, home: String?) {
        var folder = workspace.repository.commonDir + "/hooks"
        if let configured = workspace.repository.configValue("core.hooksPath") {
            if configured.hasPrefix("~/"), let home {
                folder = LexicalPath.join(home, String(configured.dropFirst(2)))
            } else {
                folder = LexicalPath.join(workspace.root, configured)
            }
        }
        path = LexicalPath.join(folder, "commit-msg")
        displayPath = path.hasPrefix(workspace.root + "/") ? String(path.dropFirst(workspace.root.count + 1)) : path
    }

    /// The script: the relctl that installed it, by absolute path (the build a developer just made, or the
    /// installed binary), else `relctl` on PATH (the binary moved or was upgraded); when neither runs, the commit
    /// goes through with a warning rather than being blocked by a missing tool.
    static func script(executable: String) -> String {
        let quoted = "'" + executable.replacingOccurrences(of: "'", with: "'\\''") + "'"
        return """
        #!/bin/sh
        \(marker)
        # Checks the message with 'relctl lint --message-file'; a message with errors stops the commit.
        installed=\(quoted)
        relctl=$installed
        if [ ! -x "$relctl" ]; then
            relctl=$(command -v relctl) || {
                echo "relctl commit-msg hook: relctl is neither at $installed nor on PATH; the message was not checked" >&2
                exit 0
            }
        fi
        exec "$relctl" lint --message-file "$1"

        """
    }

    /// Whether the file there is a hook relctl wrote; nil when there is no file.
    func isRelctls() -> Bool? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").contains { $0 == Substring(Self.marker) }
    }

    /// The absolute path of the running relctl.
    static var runningExecutable: String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        if let path = Bundle.main.executablePath { return path }
        return CommandLine.arguments.first ?? "relctl"
    }
}
