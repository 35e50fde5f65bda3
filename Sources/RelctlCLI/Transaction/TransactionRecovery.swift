import Foundation
import RelctlCore
import RelctlFiles
import RelctlGit

/// What a run holding the repository lock does first: when a transaction (`RepositoryTransaction`: a release, a gate
/// decision, adopt) was interrupted (killed, or the machine stopped) its journal says exactly what was done, and this
/// finishes that same transaction (its commit is on the branch, or, making no commit, its first tag exists: the tags
/// are made as planned) or rolls it back (every file it wrote or deleted is put back, the index entries it staged
/// reset, the folders it made removed), and says which. Temporary files, the keeps and git lock files the killed run
/// left are removed (a lock file only when the journal proves relctl made it). `relctl release` recovers every
/// kind; every other command that takes the lock recovers every kind but a release (`recoverAtOpen`), which it
/// refuses instead, as before.
enum TransactionRecovery {
    enum Outcome: Equatable {
        case nothingInterrupted
        /// `what`: the journal's `what` (`release 1.3.0`, `gate raise-min 3.0.0`).
        case finished(what: String)
        case rolledBack(what: String)
    }

    /// What `Workspace.open` runs right after it takes the lock: an interrupted gate decision or adopt is finished or
    /// rolled back before the command reads anything; a release is left to `relctl release`.
    static func recoverAtOpen(root: String, repository: Repository, output: Output) throws -> Outcome {
        guard let journal = try TransactionJournal.load(gitDir: repository.gitDir) else {
            removeKeeps(gitDir: repository.gitDir)
            return .nothingInterrupted
        }
        guard journal.transactionKind != .release else { return .nothingInterrupted }
        return try recover(journal, folders: [root], root: root, repository: repository, output: output)
    }

    /// `relctl release`'s first step: any interrupted transaction, and the temporary files a killed run left beside
    /// the version files and the changelog.
    static func recover(workspace: Workspace, output: Output) throws -> Outcome {
        let repository = workspace.repository
        let root = workspace.root
        var folders = [root] + workspace.config.files.map { LexicalPath.join(root, $0.path) }
            .map { ($0 as NSString).deletingLastPathComponent }
        if let changelog = workspace.config.changelogPath {
            folders.append((LexicalPath.join(root, changelog) as NSString).deletingLastPathComponent)
        }
        guard let journal = try TransactionJournal.load(gitDir: repository.gitDir) else {
            reportRemoved(removeStaleTempFiles(in: folders, root: root), output: output)
            removeKeeps(gitDir: repository.gitDir)
            return .nothingInterrupted
        }
        return try recover(journal, folders: folders, root: root, repository: repository, output: output)
    }

    static func recover(_ journal: TransactionJournal, folders: [String], root: String, repository: Repository,
                        output: Output) throws -> Outcome {
        let gitDir = repository.gitDir
        var folders = folders
        let journalPath = TransactionJournal.path(gitDir: gitDir)
        // Untrusted input: nothing it names is touched before every path is known to stay in the work tree and every
        // object it names is in this repository.
        if let problem = journal.repositoryProblem(root: root, repository: repository) {
            throw TransactionJournal.unreadable(journalPath, problem)
        }
        folders += journal.files.map { (LexicalPath.join(root, $0.path) as NSString).deletingLastPathComponent }
        let what = journal.what
        let rerun = journal.rerunCommand
        let who = "pid \(journal.pid), stopped after step '\(journal.lastStep)'"
        guard let base = ObjectID(hex: journal.base) else {
            throw Problem("\(journalPath) names no valid start commit; check 'git status' and 'git log -1', put the files back as committed (git checkout -- .), then delete \(journalPath)")
        }
        var short: String?
        var committed: ObjectID?
        if journal.commitMessage != nil, let branch = journal.branch {
            let name = Publishing.shortBranch(branch)
            short = name
            let tip = try repository.referenceTarget(branch)
            committed = try tip.flatMap { try isReleaseCommit($0, of: journal, base: base, repository: repository) ? $0 : nil }
            if committed == nil && tip != base {
                throw Problem("the interrupted \(what) (\(journalPath), \(who)) can be neither finished nor rolled back: \(name) has moved since it started (\(tip.map { String($0.hex.prefix(12)) } ?? "deleted") now, \(journal.base.prefix(12)) then); check 'git log' and 'git status', put back any file it left (git checkout -- <file>), then delete \(journalPath)")
            }
            // The files to finish or put back are the work tree's: HEAD must still be the transaction's branch.
            let head = try repository.headReferenceName()
            if head != branch {
                throw Problem("the interrupted \(what) (\(journalPath), \(who)) was made on \(name), but HEAD is now \(head.map(Publishing.shortBranch) ?? "detached"); check out \(name) (git checkout \(name)) and rerun \(rerun) to finish or roll it back")
            }
        }
        // Before anything else: a lock file the killed run left blocks the very steps below.
        let locks = GitLockFiles.present(gitDir: gitDir, branch: journal.branch, tags: journal.tags.map(\.name))
        let lastStepTime = journal.steps.last?.time ?? journal.started
        let own = locks.filter { lock in
            guard let time = GitLockFiles.modified(lock) else { return false }
            // Made while the killed run was working, and that run is gone (this one holds the repository lock).
            return time >= journal.started - 1 && time <= lastStepTime + 30 && !processIsRunning(journal.pid)
        }
        if let foreign = locks.first(where: { !own.contains($0) }) {
            throw Problem(GitLockFiles.problem(foreign) + "; then \(rerun) finishes or rolls back the interrupted \(what)")
        }
        for lock in own {
            unlink(lock)
            output.note("removed \(lock), git's lock file left by the killed relctl (pid \(journal.pid))")
        }

        // Finished once its commit is on the branch; making no commit, once its first tag exists.
        var firstTagMade = false
        if journal.commitMessage == nil, let first = journal.tags.first { firstTagMade = try repository.tag(named: first.name) != nil }
        if committed != nil || firstTagMade {
            let made = try RepositoryTransaction.finishTags(of: journal, commit: committed, repository: repository)
            removeKeeps(gitDir: gitDir, of: journal.pid)
            reportRemoved(removeStaleTempFiles(in: folders, root: root), output: output)
            TransactionJournal.remove(gitDir: gitDir)
            var text = "finished the interrupted \(what) (\(who)): "
            if let commit = committed, let short {
                text += "its commit \(commit.hex.prefix(12)) is on \(short)"
                if let tag = journal.tags.first?.name {
                    text += made.contains(tag) ? "; tagged it \(tag)" : " and tagged \(tag)"
                }
            } else {
                text += "tagged \(journal.tags.map(\.name).joined(separator: ", "))"
            }
            output.note(text)
            return .finished(what: what)
        }

        // Not committed: roll back, but only files that hold what the transaction wrote (or, deleted, still miss).
        var restore: [(TransactionJournal.File, [UInt8]?)] = []
        var foreign: [String] = []
        for file in journal.files {
            let path = LexicalPath.join(root, file.path)
            let current = (try? Data(contentsOf: URL(fileURLWithPath: path))).map { Array($0) }
            let id = current.map { Repository.blobID(of: $0).hex }
            if id == file.after, id != file.before {
                restore.append((file, current))
            } else if id != file.before {
                foreign.append(file.path)
            }
        }
        if !foreign.isEmpty {
            let names = foreign.joined(separator: ", ")
            throw Problem("cannot roll back the interrupted \(what) (\(who)): \(names) \(foreign.count == 1 ? "holds" : "hold") neither the bytes from before the \(journal.transactionKind == .release ? "release" : "change") nor the ones it wrote (changed by hand since?); keep or discard that change (git checkout -- \(foreign.joined(separator: " "))), then rerun \(rerun)")
        }
        removeKeeps(gitDir: gitDir, of: journal.pid)
        var restored: [String] = []
        for (file, current) in restore.reversed() {
            try RepositoryTransaction.restore(file, current: current, root: root, repository: repository, what: what)
            restored.append(file.path)
        }
        // The index entries a commit in progress may have staged (the branch never moved).
        if journal.commitMessage != nil { try repository.resetIndex(to: base, paths: journal.files.map(\.path)) }
        // The killed run's temporary files first: a folder the transaction made may hold one.
        reportRemoved(removeStaleTempFiles(in: folders, root: root), output: output)
        for folder in journal.folders.reversed() { rmdir(LexicalPath.join(root, folder)) }
        TransactionJournal.remove(gitDir: gitDir)
        let done = restored.isEmpty ? "it had written no file" : "restored \(restored.reversed().joined(separator: ", "))"
        output.note("rolled back the interrupted \(what) (\(who)): \(done)\(journal.transactionKind == .release ? "; releasing again" : "")")
        return .rolledBack(what: what)
    }

    /// The keeps (`RepositoryTransaction.keepName`) in `.git` of `pid`, or of every relctl process that is gone:
    /// hard links, so removing them loses nothing; removed without a word.
    static func removeKeeps(gitDir: String, of pid: Int32? = nil) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: gitDir) else { return }
        for name in names where name.hasPrefix(RepositoryTransaction.keepPrefix) {
            let parts = name.dropFirst(RepositoryTransaction.keepPrefix.count).split(separator: "-")
            guard parts.count == 2, let owner = Int32(parts[0]), owner != getpid(),
                  owner == pid || !processIsRunning(owner) else { continue }
            unlink(gitDir + "/" + name)
        }
    }

    /// Whether `commit` is the one the journal describes: a child of its start commit with the planned message,
    /// holding exactly the bytes it planned in every file. Checked against the repository even when the journal
    /// names the commit: a journal edited to name any commit must not get that commit tagged as the release.
    static func isReleaseCommit(_ commit: ObjectID, of journal: TransactionJournal, base: ObjectID,
                                repository: Repository) throws -> Bool {
        guard commit != base, try repository.firstParent(of: commit) == base,
              try repository.commitMessage(commit) == journal.commitMessage else { return false }
        let blobs = try repository.blobIDs(at: journal.files.map(\.path), in: commit)
        return blobs.map { $0?.hex } == journal.files.map(\.after)
    }

    /// relctl's temporary files (`.app.json.relctl-<pid>-<n>.tmp`, written then renamed over the file) whose process
    /// is gone, in `folders`: removed. Returns their paths relative to `root`.
    static func removeStaleTempFiles(in folders: [String], root: String) -> [String] {
        var removed: [String] = []
        for folder in Set(folders).sorted() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names.sorted() where name.hasPrefix(".") && name.hasSuffix(".tmp") {
                guard let marker = name.range(of: ".relctl-", options: .backwards) else { continue }
                let parts = name[marker.upperBound...].dropLast(".tmp".count).split(separator: "-")
                guard parts.count == 2, let pid = Int32(parts[0]), UInt32(parts[1]) != nil, pid != getpid(),
                      !processIsRunning(pid) else { continue }
                let path = folder + "/" + name
                if unlink(path) == 0 { removed.append(LexicalPath.relative(path, to: root) ?? path) }
            }
        }
        return removed
    }

    static func reportRemoved(_ removed: [String], output: Output) {
        guard !removed.isEmpty else { return }
        output.note("removed \(removed.count) temporary file\(removed.count == 1 ? "" : "s") a killed relctl left behind: \(removed.joined(separator: ", "))")
    }

    static func processIsRunning(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno != ESRCH)
    }
}
