import Foundation
import RelctlCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// All-or-nothing writes: each file is written to a temporary file in its own folder and renamed over
/// the original, keeping the file mode. If any write fails, every file already written is restored byte
/// for byte (the same way) and the error is rethrown. Before writing anything, every file is checked to
/// still hold `oldBytes`, so a concurrent edit aborts the whole write.
package enum TransactionalWriter {
    /// `step` is told each write-like step as it is done (`temp-1` once the first file's temporary file is written,
    /// `write-1` once it is renamed over the file, …): the crash tests stop the process at each one in turn.
    package static func write(_ writes: [FileWrite], step: (String) -> Void = { _ in }) throws(FileEditError) {
        for w in writes {
            // Renaming over a symbolic link would replace the link with a regular file and leave its target as it was.
            if let target = SymbolicLink.target(w.path) {
                throw FileEditError(path: w.shownPath, line: nil, message: "is a symbolic link to \(target)",
                                    hint: "point the files entry / changelog.path at the real file")
            }
            // The config's paths were checked at load; the tree can change since (a folder replaced by a link).
            if let root = w.confiningRoot, !RepositoryConfinement.folderIsInside(w.path, root: root) {
                throw FileEditError(path: w.shownPath, line: nil, message: "leads outside the repository through a symbolic link",
                                    hint: "relctl writes only inside the repository; replace the link with the folder itself")
            }
            let current = try? Data(contentsOf: URL(fileURLWithPath: w.path))
            if w.oldBytes == nil {
                guard !FileManager.default.fileExists(atPath: w.path) else {
                    throw FileEditError(path: w.shownPath, line: nil, message: "file appeared on disk since relctl looked",
                                        hint: "run the command again")
                }
                continue
            }
            guard let current, Array(current) == w.oldBytes else {
                throw FileEditError(path: w.shownPath, line: nil, message: "file changed on disk since it was read",
                                    hint: "run the command again")
            }
        }
        try writeWithoutCheck(writes, step: step)
    }

    /// The write/restore loop without the up-front content check (tests use it to fail midway).
    static func writeWithoutCheck(_ writes: [FileWrite], step: (String) -> Void = { _ in }) throws(FileEditError) {
        var done: [FileWrite] = []
        for w in writes {
            do {
                try replace(path: w.path, with: w.newBytes, beforeRename: { step("temp-\(done.count + 1)") })
                done.append(w)
                step("write-\(done.count)")
            } catch {
                let restoreFailures = undo(done)
                throw FileEditError(path: w.shownPath, line: nil, message: "cannot write: \(error.message)",
                                    hint: restoreFailures.isEmpty
                                        ? (done.isEmpty ? "no file was changed" : "restored \(done.count) file(s) already written")
                                        : "could not restore \(restoreFailures.joined(separator: ", "))")
            }
        }
    }

    /// Puts back what `writes` replaced (files that were created are removed), last first.
    /// Returns the paths (as shown in messages) that could not be restored.
    @discardableResult
    package static func undo(_ writes: [FileWrite]) -> [String] {
        var failures: [String] = []
        for w in writes.reversed() {
            if let old = w.oldBytes {
                do { try replace(path: w.path, with: old) } catch { failures.append(w.shownPath) }
            } else if unlink(w.path) != 0 && errno != ENOENT {
                failures.append(w.shownPath)
            }
        }
        return failures
    }


    static func replace(path: String, with bytes: [UInt8], beforeRename: () -> Void = {}) throws(Problem) {
        var st = stat()
        // lstat, not stat: a symbolic link must never be replaced by a regular file.
        if lstat(path, &st) != 0 {
            // A new file: regular, with the usual 0644 before the umask.
            guard errno == ENOENT else { throw Problem(String(cString: strerror(errno))) }
            st.st_mode = S_IFREG | 0o644
            let mask = umask(0)
            umask(mask)
            st.st_mode &= ~mask
        }
        guard (st.st_mode & S_IFMT) != S_IFLNK else { throw Problem("is a symbolic link; relctl does not replace links") }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw Problem("not a regular file") }
        let dir = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temp = (dir.isEmpty ? "." : dir) + "/.\(name).relctl-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL, mode_t(st.st_mode & 0o7777))
        guard fd >= 0 else { throw Problem("cannot create a temporary file in \(dir): \(String(cString: strerror(errno)))") }
        var ok = true
        var reason = ""
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { ok = false; reason = String(cString: strerror(errno)); return }
                offset += n
            }
        }
        if ok && fchmod(fd, st.st_mode & 0o7777) != 0 { ok = false; reason = String(cString: strerror(errno)) }
        if ok && fsync(fd) != 0 { ok = false; reason = String(cString: strerror(errno)) }
        close(fd)
        if ok { beforeRename() }
        if ok && rename(temp, path) != 0 { ok = false; reason = String(cString: strerror(errno)) }
        if !ok {
            unlink(temp)
            throw Problem(reason)
        }
    }
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, buffer, count)
    #else
    return Darwin.write(fd, buffer, count)
    #endif
}
