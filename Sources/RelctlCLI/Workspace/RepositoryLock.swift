#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// One relctl release at a time per repository: `.git/relctl.lock`, created exclusively, holding the pid.
/// A lock left by a process that no longer runs is taken over.
final class RepositoryLock {
    let path: String
    private var held = true

    private init(path: String) { self.path = path }

    static func acquire(gitDir: String) throws(CLIFailure) -> RepositoryLock {
        let path = gitDir + "/relctl.lock"
        for _ in 0..<2 {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            if fd >= 0 {
                let text = "\(getpid())\n"
                _ = text.withCString { write(fd, $0, strlen($0)) }
                close(fd)
                return RepositoryLock(path: path)
            }
            guard errno == EEXIST else {
                throw CLIFailure(message: "cannot create the lock \(path): \(String(cString: strerror(errno)))")
            }
            let owner = (try? String(contentsOfFile: path, encoding: .utf8))
                .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if let owner, owner > 0, kill(owner, 0) != 0 && errno == ESRCH {
                unlink(path)   // its process is gone: a crash left it behind
                continue
            }
            let who = owner.map { " (pid \($0))" } ?? ""
            throw CLIFailure(message: "another relctl release is running on this repository\(who); wait for it, or if none is running delete \(path)")
        }
        throw CLIFailure(message: "cannot take the lock \(path); delete it if no relctl is running")
    }

    func release() {
        if held { unlink(path); held = false }
    }

    deinit { release() }
}
