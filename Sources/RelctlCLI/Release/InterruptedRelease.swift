import Foundation

/// A release whose journal is in `.git` (`ReleaseJournal`), as `relctl status` shows it: interrupted (killed, its
/// process gone) or still running (its process holds the repository lock).
struct InterruptedRelease {
    let journal: ReleaseJournal
    let running: Bool

    /// `holdingLock`: this process holds the repository lock, so no release can be running (the lock's own
    /// descriptor would make `isHeld` say one is).
    /// Throws when a journal is there but cannot be used (empty, truncated, edited): never silent about it.
    static func find(gitDir: String, holdingLock: Bool = false) throws -> InterruptedRelease? {
        guard let journal = try ReleaseJournal.load(gitDir: gitDir) else { return nil }
        return InterruptedRelease(journal: journal, running: !holdingLock && RepositoryLock.isHeld(gitDir: gitDir))
    }

    var advice: String {
        running ? "a relctl release (pid \(journal.pid)) is making it now"
                : "rerun 'relctl release' to finish or roll it back"
    }

    var text: String {
        let state = running ? "in progress" : "interrupted"
        return "release:       \(journal.version) (\(journal.tag)) \(state), after step '\(journal.lastStep)'\n"
            + "               \(advice)\n"
    }

    var json: JSONOutput {
        .object([
            ("version", .string(journal.version)), ("tag", .string(journal.tag)),
            ("branch", .string(Publishing.shortBranch(journal.branch))), ("step", .string(journal.lastStep)),
            ("pid", .int(Int(journal.pid))), ("running", .bool(running)), ("advice", .string(advice)),
        ])
    }

    /// Other commands that commit or tag (`adopt`, `gate raise-min`, …) refuse to build on half a release: the
    /// release must be finished or rolled back first. The caller holds the repository lock, so no release is running.
    static func refuse(gitDir: String) throws {
        guard let journal = try ReleaseJournal.load(gitDir: gitDir) else { return }
        throw CLIFailure(message: "release \(journal.version) was interrupted (\(ReleaseJournal.path(gitDir: gitDir)), stopped after step '\(journal.lastStep)'); rerun 'relctl release' to finish or roll it back first")
    }
}
