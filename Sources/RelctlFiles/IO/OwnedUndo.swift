import Foundation

/// The outcome of undoing writes only where the file still holds what was written.
package struct OwnedUndoResult: Sendable, Equatable {
    /// Paths (as shown in messages) put back as they were.
    package var restored: [String] = []
    /// Paths that hold something this run did not write (another process changed them since): left alone.
    package var notOwned: [String] = []
    /// Paths that could not be restored (an I/O error).
    package var failed: [String] = []
}

extension TransactionalWriter {
    /// Puts back what `writes` replaced, last first — but only a file that still holds exactly the bytes written
    /// (`newBytes`): a file holding `oldBytes` was never written, and a file holding anything else belongs to
    /// someone else now and is left as it is. A release's rollback never overwrites another run's work.
    package static func undoOwned(_ writes: [FileWrite]) -> OwnedUndoResult {
        var result = OwnedUndoResult()
        for w in writes.reversed() {
            let current = (try? Data(contentsOf: URL(fileURLWithPath: w.path))).map { Array($0) }
            if current == w.oldBytes { continue }
            guard current == w.newBytes else {
                result.notOwned.append(w.shownPath)
                continue
            }
            if let old = w.oldBytes {
                do { try replace(path: w.path, with: old); result.restored.append(w.shownPath) } catch { result.failed.append(w.shownPath) }
            } else if unlink(w.path) == 0 || errno == ENOENT {
                result.restored.append(w.shownPath)
            } else {
                result.failed.append(w.shownPath)
            }
        }
        return result
    }
}
