import Foundation
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore

/// A commit message as git hands it to the `commit-msg` hook, before git's own clean-up: with the comment lines
/// git strips after the hook has run (`#`, or `core.commentChar`) and, under `git commit -v`, the diff after the
/// scissors line. The lines kept are numbered as in the file, so a problem points at the line the author sees in
/// the editor.
struct CommitMessageFile {
    /// How git cleans the message up before it records it (`commit.cleanup`, `git commit --cleanup`).
    struct Cleanup: Equatable {
        /// Comment lines are removed (`strip`, and the default when git opened an editor).
        var stripsComments: Bool
        /// Everything from the scissors line on is removed (`strip`, `scissors`, when an editor was opened).
        var cutsAtScissors: Bool

        static let strip = Cleanup(stripsComments: true, cutsAtScissors: true)
        static let keep = Cleanup(stripsComments: false, cutsAtScissors: false)

        /// git's choice: `commit.cleanup` when set, else `strip` when it opened an editor and `whitespace` (comment
        /// lines are kept: `git commit -m "#12 fix"` records `#12 fix`) when not. git tells its hooks that no
        /// editor is opened with `GIT_EDITOR=:`; outside a hook the message is taken as an edited one.
        static func of(configured: String?, environment: [String: String]) -> Cleanup {
            let edited = environment["GIT_EDITOR"] != ":"
            switch configured?.lowercased() {
            case "strip"?: return .strip
            case "whitespace"?, "verbatim"?: return .keep
            case "scissors"?: return edited ? Cleanup(stripsComments: false, cutsAtScissors: true) : .keep
            default: return edited ? .strip : .keep
            }
        }
    }

    /// The message git will record (comments and scissors part removed, as `cleanup` says).
    let message: String
    /// For each line of `message` (from 0), its line number in the file (from 1).
    let fileLines: [Int]
    /// Whether every non-blank line (above the scissors line) is a comment line, whether or not `cleanup` strips them.
    let onlyComments: Bool

    init(_ text: String, commentString: String = "#", cleanup: Cleanup = .strip) {
        var kept: [Substring] = []
        var numbers: [Int] = []
        var onlyComments = true
        let scissors = commentString + " ------------------------ >8 ------------------------"
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let bare = line.hasSuffix("\r") ? line.dropLast() : line
            if cleanup.cutsAtScissors, bare == Substring(scissors) { break }
            let isComment = !commentString.isEmpty && bare.hasPrefix(commentString)
            if !isComment, !bare.allSatisfy({ $0 == " " || $0 == "\t" }) { onlyComments = false }
            if cleanup.stripsComments, isComment { continue }
            kept.append(line)
            numbers.append(index + 1)
        }
        message = kept.joined(separator: "\n")
        fileLines = numbers
        self.onlyComments = onlyComments
    }

    /// Whether nothing but blank lines is left: git aborts such a commit itself ("Aborting commit due to empty
    /// commit message"), so there is nothing for relctl to say.
    var isEmpty: Bool { message.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" } }

    /// The characters git's `core.commentChar = auto` picks from, in its order.
    static let autoCandidates: [Character] = ["#", ";", "@", "!", "$", "%", "^", "&", "|", ":"]

    /// The comment string git used in `text`: `core.commentString` or `core.commentChar` (`#` when unset). With
    /// `auto`, git picked the first candidate no line of the message starts with and wrote its own comment lines
    /// (and the scissors line) after the message: the scissors line's first character, else the first character of
    /// the last non-blank line when it is a candidate, else `#`.
    static func commentString(configured: String?, text: String) -> String {
        guard let configured, !configured.isEmpty else { return "#" }
        guard configured.lowercased() == "auto" else { return configured }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines {
            let bare = line.hasSuffix("\r") ? line.dropLast() : line
            if let first = bare.first, autoCandidates.contains(first),
               bare.dropFirst() == " ------------------------ >8 ------------------------" {
                return String(first)
            }
        }
        if let last = lines.last(where: { !$0.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" } }),
           let first = last.first, autoCandidates.contains(first) {
            return String(first)
        }
        return "#"
    }

    /// The file's line number of a message line (from 1).
    func fileLine(_ messageLine: Int) -> Int {
        fileLines.indices.contains(messageLine - 1) ? fileLines[messageLine - 1] : messageLine
    }
}

extension CommitMessageFile {
    /// `--message-file FILE` (relative to the current folder; `-` is stdin), with git's comment string and clean-up.
    static func read(_ file: String, workspace: Workspace, context: CommandContext) throws -> CommitMessageFile {
        let bytes: [UInt8]
        if file == "-" {
            guard let input = readStandardInput() else {
                throw Problem("--message-file -: cannot read the message from stdin; pipe it in (git log -1 --format=%B | relctl lint --message-file -) or pass a file")
            }
            bytes = input
        } else {
            let path = LexicalPath.join(context.currentDirectory, file)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Problem("\(file): cannot read the message file; check the path (the commit-msg hook passes \"$1\")")
            }
            bytes = Array(data)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let repository = workspace.repository
        let comment = commentString(configured: repository.configValue("core.commentString") ?? repository.configValue("core.commentChar"),
                                    text: text)
        return CommitMessageFile(text, commentString: comment,
                                 cleanup: .of(configured: repository.configValue("commit.cleanup"), environment: context.environment))
    }

    /// Whether `file` is the message of the commit that concludes a merge: git's own `MERGE_MSG` or
    /// `COMMIT_EDITMSG` while `MERGE_HEAD` says a merge is under way (`git merge`, `git pull`, and the `git commit`
    /// after a merge stopped on a conflict). relctl never counts a merge, whatever its message says.
    static func concludesMerge(_ file: String, workspace: Workspace, context: CommandContext) -> Bool {
        guard file != "-" else { return false }
        let path = LexicalPath.join(context.currentDirectory, file)
        let name = (path as NSString).lastPathComponent
        guard name == "COMMIT_EDITMSG" || name == "MERGE_MSG" else { return false }
        let gitDir = workspace.repository.gitDir
        guard let folder = realPath((path as NSString).deletingLastPathComponent), let realGitDir = realPath(gitDir),
              folder == realGitDir else { return false }
        return FileManager.default.fileExists(atPath: gitDir + "/MERGE_HEAD")
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// All of stdin; nil when it cannot be read (closed).
    private static func readStandardInput() -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }
}
