import Foundation
import RelctlCore
import RelctlFiles
import RelctlGit

/// The third phase of a release: write the planned files, commit them and tag the commit, all or nothing. Any
/// failure before the tag exists undoes everything (files, index, branch, folders it created). The release journal
/// (`ReleaseJournal`) is written before the first write and removed once the tag exists, so a run killed anywhere
/// in between is finished or rolled back by the next `relctl release` (`ReleaseRecovery`).
struct ReleaseTransaction {
    let plan: ReleasePlan
    /// Folders `apply` had to create, removed again on rollback.
    private var createdFolders: [String] = []

    init(_ plan: ReleasePlan) { self.plan = plan }

    /// What `apply` made: the release commit, on the branch HEAD names (`refs/heads/main`).
    struct Applied {
        let commit: ObjectID
        let branch: String
    }

    /// Writes, commits and tags.
    mutating func apply(repository: Repository, faults: FaultInjection) throws -> Applied {
        guard let identities = plan.identities, let branch = try repository.headReferenceName() else {
            throw CLIFailure(message: "preflight passed but HEAD or the identity changed; run relctl again")
        }
        let gitDir = repository.gitDir
        // A new changelog may live in a folder that does not exist yet (docs/CHANGES.md).
        var missingFolders: [String] = []
        for write in plan.writes where write.oldBytes == nil {
            var missing: [String] = []
            var folder = (write.path as NSString).deletingLastPathComponent
            while !folder.isEmpty, folder != plan.root, !FileManager.default.fileExists(atPath: folder),
                  !missingFolders.contains(folder) {
                missing.insert(folder, at: 0)
                folder = (folder as NSString).deletingLastPathComponent
            }
            missingFolders += missing
        }
        // The journal first: from here on, a crash leaves what a rerun needs to finish or roll back.
        var journal: ReleaseJournal
        do {
            journal = try ReleaseJournal(plan: plan, branch: branch, createdFolders: missingFolders, repository: repository)
            journal.record("planned")
            try journal.save(gitDir: gitDir)
        } catch {
            ReleaseJournal.remove(gitDir: gitDir)
            let reason = (error as? CLIFailure)?.message ?? (error as? GitError)?.description ?? "\(error)"
            throw CLIFailure(message: "cannot write the release journal: \(reason); nothing was changed")
        }
        faults.step("journal")
        createdFolders = []
        for folder in missingFolders {
            guard mkdir(folder, 0o755) == 0 else {
                let reason = String(cString: strerror(errno))
                removeCreatedFolders()
                ReleaseJournal.remove(gitDir: gitDir)
                throw CLIFailure(message: "cannot create folder \(folder): \(reason); nothing was changed")
            }
            createdFolders.append(folder)
            faults.step("mkdir-\(createdFolders.count)")
        }
        do {
            try TransactionalWriter.write(plan.writes, step: faults.step)
        } catch {
            removeCreatedFolders()
            ReleaseJournal.remove(gitDir: gitDir)
            throw CLIFailure(message: "\(error.description); nothing was changed")
        }
        var commit: ObjectID?
        var indexTouched = false
        do {
            try faults.check("after-write")
            journal.record("written")
            try journal.save(gitDir: gitDir)
            faults.step("journal-written")
            indexTouched = true
            let made = try repository.commit(paths: plan.changedPaths, message: plan.commitMessage, identities: identities,
                                             expectedParent: plan.head, beforeBranchMove: { faults.step("index") })
            commit = made
            faults.step("commit")
            try faults.check("after-commit")
            journal.commit = made.hex
            journal.record("committed")
            try journal.save(gitDir: gitDir)
            faults.step("journal-committed")
            try repository.createAnnotatedTag(plan.tag, target: made, message: plan.tagMessage, tagger: identities.committer)
            for extra in plan.additionalTags {
                try repository.createAnnotatedTag(extra.name, target: made, message: extra.message, tagger: identities.committer)
            }
            faults.step("tag")
            try faults.check("after-tag")
            ReleaseJournal.remove(gitDir: gitDir)
            return Applied(commit: made, branch: branch)
        } catch {
            // A commit refused because git's index is locked never wrote the index: nothing to restore there.
            if commit == nil, let gitError = error as? GitError, gitError.kind == .locked { indexTouched = false }
            let undone = rollback(repository: repository, branch: branch, commit: commit, indexTouched: indexTouched)
            let what = (error as? GitError)?.description ?? (error as? CLIFailure)?.message ?? "\(error)"
            throw CLIFailure(message: "release \(plan.version) failed: \(what); " + undone)
        }
    }

    /// Undoes a release made by `apply` that must not stand (its push lost the race to another release): the tag,
    /// the branch, the index and the files, each only where it is still what this run made. Returns what was done.
    mutating func undo(_ applied: Applied, repository: Repository) -> String {
        rollback(repository: repository, branch: applied.branch, commit: applied.commit, indexTouched: true,
                 journalKept: false)
    }

    /// Undoes a release in progress: the tag, the branch move, the index, and every written file that still holds
    /// what this run wrote (a file someone else changed since is left alone and named). The journal stays when
    /// something could not be undone, so a rerun tries again.
    /// `journalKept`: the journal is still there (the release had not finished), so a rerun can take over.
    private mutating func rollback(repository: Repository, branch: String, commit: ObjectID?, indexTouched: Bool,
                                   journalKept: Bool = true) -> String {
        var failures: [String] = []
        var branchRestored = true
        if let commit {
            for tag in [plan.tag] + plan.additionalTags.map(\.name) where (try? repository.referenceTarget("refs/tags/\(tag)")) != nil {
                // Only a tag this run made: its target is our new commit.
                if let tagCommit = try? repository.tag(named: tag).flatMap({ try repository.commit(of: $0) }),
                   tagCommit == commit {
                    if (try? repository.deleteReference("refs/tags/\(tag)")) == nil { failures.append("tag \(tag)") }
                }
            }
            do { try repository.moveReference(branch, to: plan.head, expecting: commit, message: "relctl: roll back release \(plan.version)") }
            catch { failures.append(branch); branchRestored = false }
        }
        if branchRestored, indexTouched, (try? repository.resetIndex(to: plan.head, paths: plan.changedPaths)) == nil {
            failures.append("the index")
        }
        var notOwned: [String] = []
        if branchRestored {
            let undone = TransactionalWriter.undoOwned(plan.writes)
            failures += undone.failed
            notOwned = undone.notOwned
            removeCreatedFolders()
        }
        if failures.isEmpty && notOwned.isEmpty { ReleaseJournal.remove(gitDir: repository.gitDir) }
        var text = failures.isEmpty
            ? "every file, the index and the branch were restored"
            : "could not restore \(failures.joined(separator: ", ")); "
                + (journalKept ? "rerun 'relctl release' to finish or roll back" : "check 'git status' and 'git log'")
        if !notOwned.isEmpty {
            text += " (left \(notOwned.joined(separator: ", ")) as it is: it changed since this run wrote it)"
        }
        return text
    }

    private func removeCreatedFolders() {
        for folder in createdFolders.reversed() { rmdir(folder) }
    }
}
