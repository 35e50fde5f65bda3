import Foundation

/// stdout or stderr of the process, written with write(2): a write that fails (a closed pipe, a full device) is
/// remembered, later writes to that stream are dropped, and the command goes on to finish or roll back its work as
/// it would otherwise. (FileHandle's write stops the process with a fatal error instead.) `RelctlCLI.run` turns the
/// failure into the exit code at the end.
package final class StandardStream: @unchecked Sendable {
    let descriptor: Int32
    /// The errno of the first failed write; nil while every write went through.
    package private(set) var failure: Int32?
    /// The descriptor was closed when relctl started (`>&-`): it now points at /dev/null and nothing is written.
    package let wasClosed: Bool

    init(descriptor: Int32, wasClosed: Bool) {
        self.descriptor = descriptor
        self.wasClosed = wasClosed
    }

    func write(_ text: String) {
        guard failure == nil, !wasClosed else { return }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                failure = n < 0 ? errno : EIO
                return
            }
            offset += n
        }
    }

    /// Makes sure descriptors 0, 1 and 2 are open, as git does (`sanitize_stdfds`): a closed one is pointed at
    /// /dev/null, so no file relctl opens (a lock, a temporary version file) can become "stdout" and receive its
    /// output. Returns which of them were closed.
    static func openClosedDescriptors() -> Set<Int32> {
        var closed: Set<Int32> = []
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            closed.insert(fd)
        }
        guard !closed.isEmpty else { return [] }
        while true {
            let fd = open("/dev/null", O_RDWR)
            if fd < 0 || fd > 2 {
                if fd > 2 { close(fd) }
                break
            }
        }
        return closed
    }
}
