#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// One relctl release at a time per repository: an exclusive `flock` on `.git/relctl.lock`, a file that is never
/// deleted, so taking the lock is one atomic step however many processes try at once. The kernel drops the lock
/// when its process ends, killed or not: a crashed run never leaves a lock to take over. The file holds the pid
/// of the last holder, for the message another run prints.
final class RepositoryLock {
    let path: String
    private var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    static func acquire(gitDir: String) throws(CLIFailure) -> RepositoryLock {
        let path = gitDir + "/relctl.lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CLIFailure(message: "cannot open the lock \(path): \(String(cString: strerror(errno)))")
        }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let reason = errno
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(fd, &buffer, buffer.count, 0)
            close(fd)
            guard reason == EWOULDBLOCK else {
                throw CLIFailure(message: "cannot lock \(path): \(String(cString: strerror(reason)))")
            }
            // The holder writes its pid right after it takes the lock: until then the file may be empty or hold
            // an earlier holder's pid, which is only named while that process runs.
            let firstLine = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n").first : nil
            let owner = firstLine.flatMap { Int32($0.trimmingCharacters(in: .whitespaces)) }
                .flatMap { $0 > 0 && (kill($0, 0) == 0 || errno != ESRCH) ? $0 : nil }
            let who = owner.map { " (pid \($0))" } ?? ""
            throw CLIFailure(message: "another relctl release is running on this repository\(who); wait for it to finish (its lock on \(path) ends with that process)")
        }
        // Ours now: record the pid for the message above (an old relctl's pid file is simply overwritten).
        // Written over the old one, then cut to length: the file is never empty once a pid was in it.
        let text = Array("\(getpid())\n".utf8)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        _ = ftruncate(fd, off_t(text.count))
        return RepositoryLock(path: path, descriptor: fd)
    }

    /// Whether a process holds the lock of the repository at `gitDir` right now (read only: `relctl status`).
    static func isHeld(gitDir: String) -> Bool {
        let fd = open(gitDir + "/relctl.lock", O_RDONLY | O_CLOEXEC)
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
