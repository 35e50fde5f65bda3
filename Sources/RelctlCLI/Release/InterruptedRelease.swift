import Foundation
import RelctlCore

/// A transaction whose journal is in `.git` (`TransactionJournal`: a release, a gate decision, adopt), as
/// `relctl status` shows it: interrupted (killed, its process gone) or still running (its process holds the
/// repository lock).
struct InterruptedRelease {
    let journal: TransactionJournal
    let running: Bool

    /// `holdingLock`: this process holds the repository lock, so no release can be running (the lock's own
    /// descriptor would make `isHeld` say one is).
    /// Throws when a journal is there but cannot be used (empty, truncated, edited): never silent about it.
    static func find(gitDir: String, holdingLock: Bool = false) throws -> InterruptedRelease? {
        guard let journal = try TransactionJournal.load(gitDir: gitDir) else { return nil }
        return InterruptedRelease(journal: journal, running: !holdingLock && RepositoryLock.isHeld(gitDir: gitDir))
    }

    var isRelease: Bool { journal.transactionKind == .release }

    var advice: String {
        running ? "a relctl \(journal.transactionKind.rawValue) (pid \(journal.pid)) is making it now" : journal.rerunAdvice
    }

    var text: String {
        let state = running ? "in progress" : "interrupted"
        let line = isRelease ? "release:       \(journal.version) (\(journal.tag ?? "")) \(state)"
                             : (running ? "in progress:   " : "interrupted:   ") + journal.what
        return line + ", after step '\(journal.lastStep)'\n" + "               \(advice)\n"
    }

    var json: JSONOutput {
        .object((isRelease ? [] : [("kind", JSONOutput.string(journal.transactionKind.rawValue))]) + [
            ("version", .string(journal.version)), ("tag", .optional(journal.tag)),
            ("branch", .optional(journal.branch.map(Publishing.shortBranch))), ("step", .string(journal.lastStep)),
            ("pid", .int(Int(journal.pid))), ("running", .bool(running)), ("advice", .string(advice)),
        ])
    }

    /// Other commands that commit or tag (`adopt`, `gate raise-min`, …) refuse to build on half a release: the
    /// release must be finished or rolled back first. The caller holds the repository lock, so no release is running
    /// (and `Workspace.open` finished or rolled back any other kind of transaction).
    static func refuse(gitDir: String) throws {
        guard let journal = try TransactionJournal.load(gitDir: gitDir) else { return }
        throw Problem("\(journal.what) was interrupted (\(TransactionJournal.path(gitDir: gitDir)), stopped after step '\(journal.lastStep)'); \(journal.rerunAdvice) first")
    }
}
