#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
import RelctlCore
#endif

/// One relctl release at a time per repository: an exclusive `flock` on `.git/relctl.lock`, a file that is never
/// deleted, so taking the lock is one atomic step however many processes try at once. The kernel drops the lock
/// when its process ends, killed or not: a crashed run never leaves a lock to take over. The file holds the pid
/// of the last holder and, on a second line, its command (`release`, `sync`, `gate raise-min`), for the message
/// another run prints. Every command that writes (`release`, `sync`, `adopt`, the gate's decisions) takes it before
/// it reads anything; a dry run takes none.
final class RepositoryLock {
    let path: String
    private var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// `command`: the relctl command taking the lock, named to another run that finds it held.
    static func acquire(gitDir: String, command: String = "release") throws(Problem) -> RepositoryLock {
        let path = gitDir + "/relctl.lock"
        // Never through a link: a symbolic link (dangling or not) fails with ELOOP, and what was opened must be a
        // regular file of this user with one name, or a hard link would have relctl write its pid into another file.
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = errno
            var st = stat()
            if lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK {
                throw notALockFile(path, "is a symbolic link")
            } else if lstat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG {
                throw notALockFile(path, "is not a regular file")
            }
            throw Problem("cannot open the lock \(path): \(String(cString: strerror(reason)))")
        }
        if let problem = lockFileProblem(fd) {
            close(fd)
            throw notALockFile(path, problem)
        }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let reason = errno
            var buffer = [UInt8](repeating: 0, count: 96)
            let count = pread(fd, &buffer, buffer.count, 0)
            close(fd)
            guard reason == EWOULDBLOCK else {
                throw Problem("cannot lock \(path): \(String(cString: strerror(reason)))")
            }
            // The holder writes its pid (and command) right after it takes the lock: until then the file may be
            // empty or hold an earlier holder's, which is only named while that process runs.
            let lines = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n") : []
            let owner = lines.first.flatMap { Int32($0.trimmingCharacters(in: .whitespaces)) }
                .flatMap { $0 > 0 && (kill($0, 0) == 0 || errno != ESRCH) ? $0 : nil }
            let who = owner.map { " (pid \($0))" } ?? ""
            // The command is named only with its live pid, and only when it is one of relctl's.
            let named = lines.dropFirst().first.map(String.init).flatMap { lockingCommands.contains($0) ? $0 : nil }
            let holder = owner == nil ? nil : named
            throw Problem("another relctl \(holder ?? "command") is running on this repository\(who); wait for it to finish (its lock on \(path) ends with that process)")
        }
        // Ours now: record the pid and command for the message above (an old relctl's pid file is simply
        // overwritten). Written over the old one, then cut to length: the file is never empty once a pid was in it.
        let text = Array("\(getpid())\n\(command)\n".utf8)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        _ = ftruncate(fd, off_t(text.count))
        return RepositoryLock(path: path, descriptor: fd)
    }

    /// Why the open file `fd` is not a lock file relctl may write its pid into; nil when it is one.
    static func lockFileProblem(_ fd: Int32) -> String? {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return "cannot be examined (\(String(cString: strerror(errno))))" }
        if (st.st_mode & S_IFMT) != S_IFREG { return "is not a regular file" }
        if st.st_nlink > 1 { return "is a hard link (\(st.st_nlink) names for one file)" }
        if st.st_uid != geteuid() { return "is owned by another user (uid \(st.st_uid))" }
        return nil
    }

    static func notALockFile(_ path: String, _ problem: String) -> Problem {
        var st = stat()
        let folder = lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
        return Problem("the lock \(path) \(problem), not the file relctl keeps there; relctl writes no file through a link or into another user's file: delete it (rm \(folder ? "-r " : "")\(path)) and rerun")
    }

    /// The commands that take the lock, as the lock file names them.
    static let lockingCommands: Set<String> = ["release", "sync", "adopt", "gate", "gate raise-min", "gate keep-min", "gate set-latest"]

    /// Whether a process holds the lock of the repository at `gitDir` right now (read only: `relctl status`).
    static func isHeld(gitDir: String) -> Bool {
        let fd = open(gitDir + "/relctl.lock", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
