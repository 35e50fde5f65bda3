import Foundation
import RelctlCore

/// relctl's `commit-msg` hook: where git looks for it (or, under husky, where husky runs the user's hook from), the
/// script, and which lines of a file there are relctl's.
struct CommitMsgHook {
    /// The line that starts relctl's lines: `install` updates and `uninstall` removes only what lies between it and
    /// ``endMarker`` (or, in a hook an older relctl wrote, the `exec` line that ended it).
    static let marker = "# relctl commit-msg hook: written by 'relctl hooks install', removed by 'relctl hooks uninstall'"
    /// The line that ends relctl's lines; what follows is the user's and runs after a good message.
    static let endMarker = "# end of relctl's commit-msg hook"
    /// The last line of the hook relctl wrote before it kept the user's lines (it had no end marker).
    static let legacyEnd = "exec \"$relctl\" lint --message-file \"$1\""

    /// Where the hooks come from, as far as relctl must know.
    enum Layout: Equatable {
        /// git runs `commit-msg` from the hooks folder (or `core.hooksPath`) itself; husky v5–8 (`core.hooksPath`
        /// = `.husky`) is this too: the user's hooks are the files git runs.
        case plain
        /// husky v9: `core.hooksPath` is `.husky/_`, which husky fills with generated scripts (each runs `h`, which
        /// runs the user's `.husky/<hook>`); relctl writes the user's hook, never husky's generated one.
        case huskyV9(generated: String)
        /// husky v4: no `core.hooksPath`, husky's own runner in `.git/hooks/commit-msg`, the hooks in package.json.
        case huskyV4
    }

    /// The hook file (absolute): git's `commit-msg`, or husky v9's `.husky/commit-msg`.
    let path: String
    /// The same, as the messages show it: relative to the work tree root when inside it.
    let displayPath: String
    let layout: Layout
    /// The folders the hook (and its folder, through symbolic links) may lie in: the work tree, the repository's
    /// common folder, and a `core.hooksPath` the user set to an absolute or `~/` folder.
    let allowedRoots: [String]
    let root: String

    /// The folder git runs hooks from: `core.hooksPath` when set (`~/` is the home folder, a relative path is
    /// relative to the work tree root, as git runs hooks from there), else `hooks` in the repository's common
    /// folder, which every linked worktree shares.
    init(_ workspace: Workspace, home: String?) {
        var folder = workspace.repository.commonDir + "/hooks"
        var roots = [workspace.root, workspace.repository.commonDir]
        let configured = workspace.repository.configValue("core.hooksPath")
        if let configured {
            if configured.hasPrefix("~/"), let home {
                folder = LexicalPath.join(home, String(configured.dropFirst(2)))
            } else {
                folder = LexicalPath.join(workspace.root, configured)
            }
            folder = LexicalPath.normalize(folder) ?? folder
            // A folder the user's own config names outside the work tree (absolute, `~/`, `../hooks`) is theirs to
            // write in; a relative one inside the work tree must not lead out of it through a committed link.
            if !HookFile.isInside(folder, workspace.root) { roots.append(folder) }
        }
        let manager = FileManager.default
        let parent = (folder as NSString).deletingLastPathComponent
        if configured != nil, (folder as NSString).lastPathComponent == "_",
           manager.fileExists(atPath: folder + "/h") || (parent as NSString).lastPathComponent == ".husky" {
            layout = .huskyV9(generated: folder + "/commit-msg")
            folder = parent
        } else if configured == nil, Self.isHuskyV4Runner(folder + "/commit-msg") {
            layout = .huskyV4
        } else {
            layout = .plain
        }
        root = workspace.root
        allowedRoots = roots
        path = LexicalPath.join(folder, "commit-msg")
        displayPath = Self.shown(path, root: workspace.root)
    }

    init(path: String, displayPath: String, layout: Layout, allowedRoots: [String], root: String) {
        self.path = path
        self.displayPath = displayPath
        self.layout = layout
        self.allowedRoots = allowedRoots
        self.root = root
    }

    static func shown(_ path: String, root: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    /// husky v4's generated runner: `# husky` and `. "$(dirname "$0")/husky.sh"`.
    private static func isHuskyV4Runner(_ path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        let text = String(decoding: data.prefix(4096), as: UTF8.self)
        return text.contains("# husky") && text.contains("husky.sh")
    }

    /// relctl's lines: from the marker to the end marker, running the relctl that installed it, by absolute path
    /// (the build a developer just made, or the installed binary), else `relctl` on PATH (the binary moved or was
    /// upgraded); when neither runs, the commit goes through with a warning rather than being blocked by a
    /// missing tool. A message with errors stops the commit; a good one goes on to the user's lines below.
    static func block(executable: String) -> [String] {
        let quoted = "'" + executable.replacingOccurrences(of: "'", with: "'\\''") + "'"
        return [
            marker,
            "# Checks the message with 'relctl lint --message-file'; a message with errors stops the commit.",
            "relctl_installed=\(quoted)",
            "relctl=$relctl_installed",
            "if [ ! -x \"$relctl\" ]; then relctl=$(command -v relctl) || relctl=; fi",
            "if [ -n \"$relctl\" ]; then",
            "    \"$relctl\" lint --message-file \"$1\" || exit $?",
            "else",
            "    echo \"relctl commit-msg hook: relctl is neither at $relctl_installed nor on PATH; the message was not checked\" >&2",
            "fi",
            endMarker,
        ]
    }

    /// The whole hook file relctl writes when there is none.
    static func script(executable: String) -> String {
        (["#!/bin/sh"] + block(executable: executable)).joined(separator: "\n") + "\n"
    }

    /// A hook file's text, split into relctl's lines and the rest.
    enum Content: Equatable {
        /// No marker line: a hook relctl did not write.
        case foreign
        /// The marker with no end line after it: relctl cannot tell its lines from the user's.
        case unterminated
        /// Lines relctl never writes between the marker and the end line (the user's, added inside relctl's):
        /// `line` is the first, from 1.
        case mixed(line: Int)
        /// relctl's lines at `block` (line indices, end marker included); `userLines`: how many other non-blank
        /// lines there are (a first `#!` line does not count).
        case relctls(lines: [Substring], block: ClosedRange<Int>, userLines: Int)

        init(_ text: String) {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            func bare(_ line: Substring) -> Substring {
                var line = line
                while let last = line.last, last == " " || last == "\t" || last == "\r" { line.removeLast() }
                return line
            }
            guard let start = lines.firstIndex(where: { bare($0) == Substring(CommitMsgHook.marker) }) else {
                self = .foreign
                return
            }
            guard let end = lines[start...].firstIndex(where: {
                let line = bare($0).drop { $0 == " " || $0 == "\t" }
                return line == Substring(CommitMsgHook.endMarker) || line == Substring(CommitMsgHook.legacyEnd)
            }) else {
                self = .unterminated
                return
            }
            if let foreign = lines[start...end].firstIndex(where: { !CommitMsgHook.isRelctlsLine(bare($0)) }) {
                self = .mixed(line: foreign + 1)
                return
            }
            var user = 0
            for (index, line) in lines.enumerated() where !(start...end).contains(index) {
                if index == 0, line.hasPrefix("#!") { continue }
                if !bare(line).isEmpty { user += 1 }
            }
            self = .relctls(lines: lines, block: start...end, userLines: user)
        }
    }

    /// The lines relctl writes between its marker and end lines, now or in its earlier hook (without the
    /// `installed=` line, whose path varies), trimmed.
    private static let knownLines: Set<Substring> = {
        let legacy = [
            "# Checks the message with 'relctl lint --message-file'; a message with errors stops the commit.",
            "relctl=$installed", "if [ ! -x \"$relctl\" ]; then", "relctl=$(command -v relctl) || {",
            "echo \"relctl commit-msg hook: relctl is neither at $installed nor on PATH; the message was not checked\" >&2",
            "exit 0", "}", "fi", legacyEnd,
        ]
        return Set((block(executable: "") + legacy).map { trimmed(Substring($0)) })
    }()

    private static func trimmed(_ line: Substring) -> Substring {
        var line = line.drop { $0 == " " || $0 == "\t" }
        while let last = line.last, last == " " || last == "\t" || last == "\r" { line.removeLast() }
        return line
    }

    /// Whether a line between the marker and the end line is one relctl writes there.
    static func isRelctlsLine(_ line: Substring) -> Bool {
        let line = trimmed(line)
        return line.isEmpty || line.hasPrefix("relctl_installed='") || line.hasPrefix("installed='") || knownLines.contains(line)
    }

    /// The absolute path of the running relctl.
    static var runningExecutable: String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        if let path = Bundle.main.executablePath { return path }
        return CommandLine.arguments.first ?? "relctl"
    }
}
