import Foundation
import RelctlCore

/// Test hooks. `RELCTL_TEST_FAULT=after-write|after-commit|after-tag|before-push` makes the release fail there, so
/// tests can prove the rollback leaves the repository as it was. `RELCTL_TEST_CRASH=<step>` kills the process
/// with SIGKILL at that write-like step (`journal`, `temp-1`, `write-1`, …, `index`, `commit`, `tag`, `push-branch`,
/// …), as an operator's `kill -9` would, so tests can prove a rerun finishes or rolls back; `RELCTL_TEST_STEPS=FILE`
/// appends the name of every step the run passes to FILE, so the tests learn the steps instead of listing them.
struct FaultInjection {
    let point: String?
    let crash: String?
    let stepLog: String?

    init(_ environment: [String: String]) {
        point = environment["RELCTL_TEST_FAULT"]
        crash = environment["RELCTL_TEST_CRASH"]
        stepLog = environment["RELCTL_TEST_STEPS"]
    }

    func check(_ here: String) throws {
        if point == here { throw Problem("injected fault at \(here)") }
    }

    /// A write-like step is done: recorded, and the process killed there when the test asks for it.
    func step(_ name: String) {
        if let stepLog {
            let fd = open(stepLog, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            if fd >= 0 {
                let line = Array((name + "\n").utf8)
                _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
            }
        }
        if crash == name { kill(getpid(), SIGKILL) }
    }
}
