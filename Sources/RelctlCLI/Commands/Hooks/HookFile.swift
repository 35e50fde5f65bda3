import Foundation
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore

/// The hook file as `hooks install` and `uninstall` touch it: never through a symbolic link that leads outside the
/// repository (a committed `.husky/commit-msg` link to `~/.bashrc`), never into a folder that does, and with
/// temporary files opened with `O_CREAT|O_EXCL|O_NOFOLLOW` under a fresh name (a committed
/// `commit-msg.relctl-tmp` link is never written through), renamed over the hook in one step.
struct HookFile {
    let hook: CommitMsgHook
    /// The file written: the hook, or what a link inside the repository leads to (the link stays a link).
    let target: String
    /// Whether `hook.path` is a symbolic link (to `target`).
    let isLink: Bool
    /// The text there, split into relctl's lines and the user's; nil when there is no file.
    let content: CommitMsgHook.Content?

    init(_ hook: CommitMsgHook) throws {
        self.hook = hook
        let roots = hook.allowedRoots.map(Self.resolvedLexically)
        var st = stat()
        if lstat(hook.path, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK {
            let written = Self.linkText(hook.path) ?? "an unreadable target"
            guard let resolved = Self.realPath(hook.path) else {
                throw Problem("\(hook.displayPath) is a symbolic link to \(written), which does not exist; left as it is (remove the link with 'rm \(hook.displayPath)' and rerun the command)")
            }
            guard roots.contains(where: { Self.isInside(resolved, $0) }) else {
                throw Problem("\(hook.displayPath) is a symbolic link to \(resolved), outside the repository; relctl does not write through it, so both are left as they are (remove the link with 'rm \(hook.displayPath)' and rerun the command, or call 'relctl lint --message-file \"$1\"' from \(resolved) yourself)")
            }
            target = resolved
            isLink = true
        } else {
            target = hook.path
            isLink = false
        }
        let folder = (target as NSString).deletingLastPathComponent
        let realFolder = Self.resolvedLexically(folder)
        guard roots.contains(where: { Self.isInside(realFolder, $0) }) else {
            let shown = CommitMsgHook.shown(folder, root: hook.root)
            throw Problem("\(shown) leads outside the repository (to \(realFolder)) through a symbolic link; relctl does not write a hook there (remove the link, or point core.hooksPath at a folder inside the repository)")
        }
        var targetStat = stat()
        if lstat(target, &targetStat) == 0 {
            guard (targetStat.st_mode & S_IFMT) == S_IFREG else {
                throw Problem("\(hook.displayPath) is not a regular file; left as it is (remove it and rerun the command)")
            }
            guard let data = FileManager.default.contents(atPath: target) else {
                throw Problem("\(hook.displayPath): cannot read the hook; check its permissions")
            }
            content = CommitMsgHook.Content(String(decoding: data, as: UTF8.self))
        } else {
            content = nil
        }
    }

    /// Writes `text` to the target: a fresh temporary file next to it (never an existing one, never through a
    /// link), executable, renamed over the target.
    func write(_ text: String) throws {
        let folder = (target as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw Problem("\(hook.displayPath): cannot create the folder (\(error.localizedDescription)); check the folder's permissions")
        }
        // The folders just made: still inside (nothing was swapped for a link on the way).
        let realFolder = Self.resolvedLexically(folder)
        guard hook.allowedRoots.map(Self.resolvedLexically).contains(where: { Self.isInside(realFolder, $0) }) else {
            throw Problem("\(CommitMsgHook.shown(folder, root: hook.root)) leads outside the repository (to \(realFolder)); relctl does not write a hook there")
        }
        var temporary = ""
        var fd: Int32 = -1
        for attempt in 0..<100 {
            temporary = target + ".relctl-tmp.\(getpid()).\(attempt).\(UInt32.random(in: 0...UInt32.max))"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o755)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw failure("cannot write the hook") }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let error = failure("cannot write the hook")
                close(fd)
                unlink(temporary)
                throw error
            }
            written += count
        }
        guard fchmod(fd, 0o755) == 0, fsync(fd) == 0 else {
            let error = failure("cannot write the hook")
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, target) == 0 else {
            let error = failure("cannot write the hook")
            unlink(temporary)
            throw error
        }
    }

    /// Removes the hook: the file (and, for a link inside the repository, the link too).
    func remove() throws {
        guard unlink(target) == 0 || errno == ENOENT else { throw failure("cannot remove the hook") }
        if isLink { unlink(hook.path) }
    }

    private func failure(_ what: String) -> Problem {
        Problem("\(hook.displayPath): \(what) (\(String(cString: strerror(errno)))); check the folder's permissions")
    }

    static func unterminated(_ hook: CommitMsgHook, command: String) -> String {
        "\(hook.displayPath) holds relctl's marker line but not the line that ends relctl's lines ('\(CommitMsgHook.endMarker)'), so relctl cannot tell its lines from yours; left as it is (delete relctl's lines from it and rerun 'relctl hooks \(command)'\(command == "install" ? ", or replace the whole file with 'relctl hooks install --force'" : ""))"
    }

    static func mixed(_ hook: CommitMsgHook, line: Int, command: String) -> String {
        "\(hook.displayPath):\(line) is a line of yours among relctl's (between its marker line and '\(CommitMsgHook.endMarker)'), which relctl would \(command == "install" ? "overwrite" : "delete"); left as it is (move your lines below relctl's, after '\(CommitMsgHook.endMarker)' or, in a hook from an older relctl, after its 'exec' line, and rerun 'relctl hooks \(command)'\(command == "install" ? ", or replace the whole file with 'relctl hooks install --force'" : ""))"
    }

    /// husky v9 regenerates `.husky/_/commit-msg` (a runner of `.husky/commit-msg`); a relctl before this one wrote
    /// its hook there in its place. That file is put back as husky writes it, so `.husky/commit-msg` runs again.
    static func restoreHuskyRunner(_ hook: CommitMsgHook) throws {
        guard case .huskyV9(let generated) = hook.layout else { return }
        var st = stat()
        guard lstat(generated, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG,
              let data = FileManager.default.contents(atPath: generated),
              case .relctls(_, _, 0) = CommitMsgHook.Content(String(decoding: data, as: UTF8.self)) else { return }
        let folder = (generated as NSString).deletingLastPathComponent
        // Every generated hook holds the same runner; copy a sibling's, else husky 9's.
        var runner = "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n"
        for sibling in ["pre-commit", "pre-push", "prepare-commit-msg", "post-merge"] {
            if let text = FileManager.default.contents(atPath: folder + "/" + sibling).map({ String(decoding: $0, as: UTF8.self) }),
               !text.contains(CommitMsgHook.marker), text.count < 512 {
                runner = text
                break
            }
        }
        let generatedHook = CommitMsgHook(path: generated, displayPath: CommitMsgHook.shown(generated, root: hook.root),
                                          layout: .plain, allowedRoots: hook.allowedRoots, root: hook.root)
        try HookFile(generatedHook).write(runner)
    }

    // MARK: Paths

    /// `path` with its longest existing part resolved through every link (`realpath`) and the rest appended as
    /// written: where a file there would really be.
    static func resolvedLexically(_ path: String) -> String {
        var existing = path
        var rest: [String] = []
        while !existing.isEmpty, existing != "/" {
            if let resolved = realPath(existing) {
                return rest.isEmpty ? resolved : LexicalPath.join(resolved, rest.reversed().joined(separator: "/"))
            }
            rest.append((existing as NSString).lastPathComponent)
            existing = (existing as NSString).deletingLastPathComponent
        }
        return path
    }

    static func isInside(_ path: String, _ root: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func linkText(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
