import Foundation
import RelctlCore
import RelctlFiles
import RelctlGit

/// Every write-and-commit relctl makes, all or nothing: the release, the halt's marker, the gate's decisions and
/// `adopt`'s tag. It takes file writes, deletions, a commit message (or none), the tags to make (each on the new
/// commit or on a given one: one release or several projects in one commit, a tag each) and a `Label` for its journal
/// and its messages. `apply` writes the journal (`TransactionJournal`) first, then the files, the commit and the
/// tags, and removes the journal once the last tag exists; any failure before that undoes everything (files, index,
/// branch, folders it created) and a run killed anywhere in between is finished or rolled back by the next run that
/// takes the lock (`TransactionRecovery`). This is the one file that writes files, commits and tags.
struct RepositoryTransaction {
    /// What the journal records and the messages say: the kind, what it is about, and the words of its failures.
    struct Label {
        let kind: TransactionJournal.Kind
        /// The release's version; for another kind what it is about (`3.0.0`, `v2.43.0`).
        let subject: String
        /// "release 1.3.0 failed", "the decision could not be committed": what a failure message starts with.
        let failed: String
        /// "every file, the index and the branch were restored": what a complete rollback says.
        let restored: String
        /// What a failed rollback advises while the journal is kept, and once it is gone.
        var keptAdvice = "rerun 'relctl release' to finish or roll back"
        var checkAdvice = "check 'git status' and 'git log'"
    }

    /// A file the transaction deletes: its absolute path and its bytes (put back on rollback).
    struct Deletion {
        let path: String
        let bytes: [UInt8]
    }

    struct Tag {
        let name: String
        let message: String
        /// The commit it is made on; nil: the transaction's own commit.
        var target: ObjectID?
    }

    let label: Label
    let root: String
    var writes: [FileWrite] = []
    var deletions: [Deletion] = []
    /// nil: no commit (the halt writes only; `adopt` only tags).
    var commitMessage: String?
    var tags: [Tag] = []
    /// The commit the transaction builds on (the commit's expected parent).
    let head: ObjectID
    let identities: Identities?
    /// Folders `apply` had to create, removed again on rollback.
    private var createdFolders: [String] = []
    /// The bytes before each write and deletion, and the index, kept under a second name (a hard link) while the
    /// transaction runs: a rollback on a full disk is then renames, which need no data block.
    private var keeps: [String: String] = [:]

    init(_ label: Label, root: String, head: ObjectID, identities: Identities?) {
        self.label = label
        self.root = root
        self.head = head
        self.identities = identities
    }

    /// What `apply` made: the commit (nil when it made none), on the branch HEAD names (`refs/heads/main`).
    struct Applied {
        let commit: ObjectID?
        let branch: String?
    }

    /// Root-relative paths of every file the commit changes, as git names them.
    var changedPaths: [String] { writes.map { relative($0.path) } + deletions.map { relative($0.path) } }

    func relative(_ path: String) -> String {
        LexicalPath.relative(path, to: root) ?? String(path.dropFirst(root.count + 1))
    }

    // MARK: Apply

    /// Writes, deletes, commits and tags.
    mutating func apply(repository: Repository, faults: FaultInjection) throws -> Applied {
        // Nothing to commit, tag or delete (the halt's marker): the files are written (each atomically, all or
        // nothing) and that is all, with no journal; a temporary file a killed run left is removed by the next release.
        if commitMessage == nil && tags.isEmpty && deletions.isEmpty {
            do {
                try TransactionalWriter.write(writes, step: faults.step)
            } catch {
                throw Problem(error, adding: "nothing was changed")
            }
            return Applied(commit: nil, branch: nil)
        }
        let branch = try repository.headReferenceName()
        guard let identities, commitMessage == nil || branch != nil else {
            throw Problem("preflight passed but HEAD or the identity changed; run relctl again")
        }
        let gitDir = repository.gitDir
        // A new file may live in a folder that does not exist yet (docs/CHANGES.md).
        var missingFolders: [String] = []
        for write in writes where write.oldBytes == nil {
            var missing: [String] = []
            var folder = (write.path as NSString).deletingLastPathComponent
            while !folder.isEmpty, folder != root, !FileManager.default.fileExists(atPath: folder),
                  !missingFolders.contains(folder) {
                missing.insert(folder, at: 0)
                folder = (folder as NSString).deletingLastPathComponent
            }
            missingFolders += missing
        }
        // The journal first: from here on, a crash leaves what a rerun needs to finish or roll back.
        var journal: TransactionJournal
        do {
            journal = try makeJournal(branch: branch, identities: identities, createdFolders: missingFolders,
                                      repository: repository)
            journal.record("planned")
            try journal.save(gitDir: gitDir)
        } catch {
            TransactionJournal.remove(gitDir: gitDir)
            let reason = ErrorReport.reason(error)
            throw Problem("cannot write the \(label.kind == .release ? "release" : label.kind.rawValue) journal: \(reason); nothing was changed")
        }
        faults.step("journal")
        createdFolders = []
        for folder in missingFolders {
            guard mkdir(folder, 0o755) == 0 else {
                let reason = String(cString: strerror(errno))
                removeCreatedFolders()
                TransactionJournal.remove(gitDir: gitDir)
                throw Problem("cannot create folder \(folder): \(reason); nothing was changed")
            }
            createdFolders.append(folder)
            faults.step("mkdir-\(createdFolders.count)")
        }
        makeKeeps(gitDir: gitDir)
        do {
            try TransactionalWriter.write(writes, step: faults.step)
        } catch {
            removeCreatedFolders()
            discardKeeps()
            TransactionJournal.remove(gitDir: gitDir)
            throw Problem(error, adding: "nothing was changed")
        }
        var commit: ObjectID?
        var indexTouched = false
        var madeTags: [String] = []
        do {
            for (index, deletion) in deletions.enumerated() {
                // Its bytes stay in the journal's blob and under the keep.
                if unlink(deletion.path) != 0 && errno != ENOENT {
                    throw Problem("cannot remove \(relative(deletion.path)): \(String(cString: strerror(errno)))")
                }
                faults.step("delete-\(index + 1)")
            }
            try faults.check("after-write")
            if let message = commitMessage, branch != nil {
                journal.record("written")
                try journal.save(gitDir: gitDir)
                faults.step("journal-written")
                indexTouched = true
                let made = try repository.commit(paths: changedPaths, message: message, identities: identities,
                                                 expectedParent: head, beforeBranchMove: { faults.step("index") })
                commit = made
                faults.step("commit")
                try faults.check("after-commit")
                journal.commit = made.hex
                journal.record("committed")
                // Best effort: a rerun knows the commit from the branch, and a full disk must not undo a commit made.
                try? journal.save(gitDir: gitDir)
                faults.step("journal-committed")
            }
            for (index, tag) in tags.enumerated() {
                guard let target = tag.target ?? commit else { throw Problem.internalError("a tag without a commit") }
                try repository.createAnnotatedTag(tag.name, target: target, message: tag.message, tagger: identities.committer)
                madeTags.append(tag.name)
                faults.step(tags.count == 1 ? "tag" : "tag-\(index + 1)")
            }
            if !tags.isEmpty { try faults.check("after-tag") }
            discardKeeps()
            TransactionJournal.remove(gitDir: gitDir)
            return Applied(commit: commit, branch: branch)
        } catch {
            // A commit refused because git's index is locked never wrote the index: nothing to restore there.
            if commit == nil, let gitError = error as? GitError, gitError.kind == .locked { indexTouched = false }
            let undone = rollback(repository: repository, branch: branch, commit: commit, tagsMade: madeTags,
                                  indexTouched: indexTouched)
            let what = ErrorReport.reason(error)
            throw Problem("\(label.failed): \(what); " + undone)
        }
    }

    /// Undoes a transaction `apply` made that must not stand (a release whose push lost the race to another
    /// release): the tags, the branch, the index and the files, each only where it is still what this run made.
    /// Returns what was done.
    mutating func undo(_ applied: Applied, repository: Repository) -> String {
        rollback(repository: repository, branch: applied.branch, commit: applied.commit, tagsMade: tags.map(\.name),
                 indexTouched: true, journalKept: false)
    }

    /// Undoes a transaction in progress: the tags it made, the branch move, the index, every written file that still
    /// holds what this run wrote (a file someone else changed since is left alone and named) and every deleted file
    /// still absent. The journal stays when something could not be undone, so a rerun tries again.
    /// `journalKept`: the journal is still there (the transaction had not finished), so a rerun can take over.
    private mutating func rollback(repository: Repository, branch: String?, commit: ObjectID?, tagsMade: [String],
                                   indexTouched: Bool, journalKept: Bool = true) -> String {
        var failures: [String] = []
        for tag in tags where tagsMade.contains(tag.name) {
            // Only a tag this run made: its target is the commit it was made on.
            let target = tag.target ?? commit
            if let tagCommit = try? repository.tag(named: tag.name).flatMap({ try repository.commit(of: $0) }), tagCommit == target,
               (try? repository.deleteReference("refs/tags/\(tag.name)")) == nil {
                failures.append("tag \(tag.name)")
            }
        }
        var branchRestored = true
        if let commit, let branch {
            do { try repository.moveReference(branch, to: head, expecting: commit, message: "relctl: roll back \(label.kind.rawValue) \(label.subject)") }
            catch { failures.append(branch); branchRestored = false }
        }
        if branchRestored, indexTouched {
            let indexPath = repository.gitDir + "/index"
            let renamed = keeps[indexPath].map { rename($0, indexPath) == 0 } ?? false
            if !renamed, (try? repository.resetIndex(to: head, paths: changedPaths)) == nil { failures.append("the index") }
        }
        var notOwned: [String] = []
        if branchRestored {
            // Written files: put back by renaming the keep over them (no data block needed), else by writing.
            var rest: [FileWrite] = []
            for write in writes {
                let current = (try? Data(contentsOf: URL(fileURLWithPath: write.path))).map { Array($0) }
                if current == write.newBytes, write.oldBytes != nil, let keep = keeps[write.path], rename(keep, write.path) == 0 {
                    continue
                }
                rest.append(write)
            }
            let undone = TransactionalWriter.undoOwned(rest)
            failures += undone.failed
            notOwned = undone.notOwned
            for deletion in deletions.reversed() where !FileManager.default.fileExists(atPath: deletion.path) {
                if let keep = keeps[deletion.path], rename(keep, deletion.path) == 0 { continue }
                if (try? Data(deletion.bytes).write(to: URL(fileURLWithPath: deletion.path))) == nil {
                    failures.append(relative(deletion.path))
                }
            }
            removeCreatedFolders()
        }
        discardKeeps()
        if failures.isEmpty && notOwned.isEmpty { TransactionJournal.remove(gitDir: repository.gitDir) }
        var text = failures.isEmpty
            ? label.restored
            : "could not restore \(failures.joined(separator: ", ")); "
                + (journalKept ? label.keptAdvice : label.checkAdvice)
        if !notOwned.isEmpty {
            text += " (left \(notOwned.joined(separator: ", ")) as it is: it changed since this run wrote it)"
        }
        return text
    }

    private func removeCreatedFolders() {
        for folder in createdFolders.reversed() { rmdir(folder) }
    }

    // MARK: Keeps

    /// Hard links to every file the transaction replaces or deletes, and to git's index, taken before anything
    /// changes. A link that cannot be made is simply missing: the rollback then writes the bytes instead.
    private mutating func makeKeeps(gitDir: String) {
        for path in writes.filter({ $0.oldBytes != nil }).map(\.path) + deletions.map(\.path)
                + (commitMessage == nil ? [] : [gitDir + "/index"]) {
            let keep = Self.keepName(gitDir: gitDir)
            if link(path, keep) == 0 { keeps[path] = keep }
        }
    }

    private mutating func discardKeeps() {
        for (_, keep) in keeps { unlink(keep) }
        keeps = [:]
    }

    /// A second name for a file, in `.git` (`relctl-keep-<pid>-<n>`: git ignores it, and `git status` never shows
    /// it); a run recovering this one's journal, or any later run once this process is gone, removes it
    /// (`TransactionRecovery.removeKeeps`).
    static func keepName(gitDir: String) -> String {
        gitDir + "/" + keepPrefix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    static let keepPrefix = "relctl-keep-"

    // MARK: The journal

    private func makeJournal(branch: String?, identities: Identities, createdFolders: [String],
                             repository: Repository) throws -> TransactionJournal {
        let tagger = identities.committer
        let time = tagger.time ?? (Int64(Date().timeIntervalSince1970), Int32(TimeZone.current.secondsFromGMT() / 60))
        let first = tags.first
        var files = try writes.map { write in
            TransactionJournal.File(path: relative(write.path), before: try write.oldBytes.map { try repository.writeBlob($0).hex },
                                    after: Repository.blobID(of: write.newBytes).hex)
        }
        files += try deletions.map { TransactionJournal.File(path: relative($0.path), before: try repository.writeBlob($0.bytes).hex, after: nil) }
        return TransactionJournal(
            pid: getpid(), kind: label.kind == .release ? nil : label.kind.rawValue, version: label.subject,
            tag: first?.name, tagMessage: first?.message, tagTarget: first?.target?.hex,
            moreTags: tags.count > 1 ? tags.dropFirst().map { .init(name: $0.name, message: $0.message, target: $0.target?.hex) } : nil,
            branch: commitMessage == nil ? nil : branch, base: head.hex, commitMessage: commitMessage,
            tagger: tags.isEmpty ? nil : .init(name: tagger.name, email: tagger.email, seconds: time.seconds, offsetMinutes: time.offsetMinutes),
            files: files, folders: createdFolders.map { LexicalPath.relative($0, to: root) ?? $0 })
    }

    // MARK: What a recovery does (`TransactionRecovery` decides, this file writes)

    /// Makes the journal's tags that are missing, on its commit (or their own target). Returns the names made.
    /// Throws, with the fix, when a tag of that name points elsewhere.
    static func finishTags(of journal: TransactionJournal, commit: ObjectID?, repository: Repository) throws -> [String] {
        var made: [String] = []
        for tag in journal.tags {
            guard let target = tag.target.flatMap(ObjectID.init(hex:)) ?? commit, let tagger = journal.taggerIdentity else {
                throw TransactionJournal.unreadable(TransactionJournal.path(gitDir: repository.gitDir), "the tag \(tag.name) names no commit or tagger")
            }
            if let existing = try repository.tag(named: tag.name) {
                guard try repository.commit(of: existing) == target else {
                    let fix = journal.transactionKind == .release ? "rerun 'relctl release' to tag the release" : "rerun relctl to make the tag"
                    throw Problem("the interrupted \(journal.what) made its commit, but the tag \(tag.name) points elsewhere (\(existing.target.hex.prefix(12))); check it with 'git show \(tag.name)', delete it if it is wrong (git tag -d \(tag.name)), and \(fix)")
                }
                continue
            }
            try repository.createAnnotatedTag(tag.name, target: target, message: tag.message, tagger: tagger)
            made.append(tag.name)
        }
        return made
    }

    /// Puts one journal file back as it was before the transaction: `before`'s bytes, or no file.
    static func restore(_ file: TransactionJournal.File, current: [UInt8]?, root: String, repository: Repository,
                        what: String) throws {
        let path = LexicalPath.join(root, file.path)
        if let before = file.before {
            guard let id = ObjectID(hex: before) else { return }
            let bytes = try repository.blobBytes(id)
            do {
                if let current {
                    try TransactionalWriter.write([FileWrite(path: path, oldBytes: current, newBytes: bytes, displayPath: file.path)])
                } else {
                    // A file the transaction deleted.
                    try TransactionalWriter.write([FileWrite(path: path, oldBytes: nil, newBytes: bytes, displayPath: file.path)])
                }
            } catch {
                throw Problem("cannot roll back the interrupted \(what): \(error.description)")
            }
        } else if unlink(path) != 0 && errno != ENOENT {
            throw Problem("cannot roll back the interrupted \(what): cannot remove \(file.path): \(String(cString: strerror(errno)))")
        }
    }
}
