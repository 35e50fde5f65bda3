import Foundation
import RelctlCore
import RelctlFiles
import RelctlGit

/// The third phase of a release: write the planned files, commit them and tag the commit, all or nothing. Any
/// failure before the tag exists undoes everything (files, index, branch, folders it created).
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
        // A new changelog may live in a folder that does not exist yet (docs/CHANGES.md).
        createdFolders = []
        for write in plan.writes where write.oldBytes == nil {
            var missing: [String] = []
            var folder = (write.path as NSString).deletingLastPathComponent
            while !folder.isEmpty, folder != plan.root, !FileManager.default.fileExists(atPath: folder) {
                missing.insert(folder, at: 0)
                folder = (folder as NSString).deletingLastPathComponent
            }
            for folder in missing {
                guard mkdir(folder, 0o755) == 0 else {
                    removeCreatedFolders()
                    throw CLIFailure(message: "cannot create folder \(folder): \(String(cString: strerror(errno))); nothing was changed")
                }
                createdFolders.append(folder)
            }
        }
        do {
            try TransactionalWriter.write(plan.writes)
        } catch {
            removeCreatedFolders()
            throw CLIFailure(message: "\(error.description); nothing was changed")
        }
        var commit: ObjectID?
        var indexTouched = false
        do {
            try faults.check("after-write")
            indexTouched = true
            let made = try repository.commit(paths: plan.changedPaths, message: plan.commitMessage, identities: identities,
                                             expectedParent: plan.head)
            commit = made
            try faults.check("after-commit")
            try repository.createAnnotatedTag(plan.tag, target: made, message: plan.tagMessage, tagger: identities.committer)
            try faults.check("after-tag")
            return Applied(commit: made, branch: branch)
        } catch {
            // A commit refused because git's index is locked never wrote the index: nothing to restore there.
            if commit == nil, let gitError = error as? GitError, gitError.kind == .locked { indexTouched = false }
            let undone = rollback(repository: repository, branch: branch, commit: commit, indexTouched: indexTouched)
            let what = (error as? GitError)?.description ?? (error as? CLIFailure)?.message ?? "\(error)"
            throw CLIFailure(message: "release \(plan.version) failed: \(what); " + (undone.isEmpty
                ? "every file, the index and the branch were restored"
                : "could not restore \(undone.joined(separator: ", ")); check 'git status'"))
        }
    }

    /// Undoes a release in progress: the tag, the branch move, the index, and every written file.
    private mutating func rollback(repository: Repository, branch: String, commit: ObjectID?, indexTouched: Bool) -> [String] {
        var failures: [String] = []
        let tag = plan.tag
        if let commit {
            if (try? repository.referenceTarget("refs/tags/\(tag)")) != nil {
                // Only a tag this run made: its target is our new commit.
                if let tagCommit = try? repository.tag(named: tag).flatMap({ try repository.commit(of: $0) }),
                   tagCommit == commit {
                    if (try? repository.deleteReference("refs/tags/\(tag)")) == nil { failures.append("tag \(tag)") }
                }
            }
            do { try repository.moveReference(branch, to: plan.head, expecting: commit, message: "relctl: roll back release \(plan.version)") }
            catch { failures.append(branch) }
        }
        if indexTouched, (try? repository.resetIndex(to: plan.head, paths: plan.changedPaths)) == nil { failures.append("the index") }
        failures += TransactionalWriter.undo(plan.writes)
        removeCreatedFolders()
        return failures
    }

    private func removeCreatedFolders() {
        for folder in createdFolders.reversed() { rmdir(folder) }
    }
}
