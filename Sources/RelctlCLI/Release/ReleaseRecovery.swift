import Foundation
import RelctlCore
import RelctlFiles
import RelctlGit

/// What a release does first, holding the repository lock: when a release was interrupted (killed, or the machine
/// stopped) its journal says exactly what was done, and this finishes that same release (its commit is on the
/// branch: the tag is made as planned) or rolls it back (no commit yet: every file it wrote is put back, the index
/// entries it staged reset, the folders it made removed), and says which. Temporary files and git lock files the
/// killed run left are removed (a lock file only when the journal proves relctl made it).
enum ReleaseRecovery {
    enum Outcome: Equatable {
        case nothingInterrupted
        case finished(version: String)
        case rolledBack(version: String)
    }

    static func recover(workspace: Workspace, output: Output) throws -> Outcome {
        let repository = workspace.repository
        let gitDir = repository.gitDir
        let root = workspace.root
        var folders = [root] + workspace.config.files.map { LexicalPath.join(root, $0.path) }
            .map { ($0 as NSString).deletingLastPathComponent }
        if let changelog = workspace.config.changelogPath {
            folders.append((LexicalPath.join(root, changelog) as NSString).deletingLastPathComponent)
        }
        guard let journal = try ReleaseJournal.load(gitDir: gitDir) else {
            reportRemoved(removeStaleTempFiles(in: folders, root: root), output: output)
            return .nothingInterrupted
        }
        let journalPath = ReleaseJournal.path(gitDir: gitDir)
        // Untrusted input: nothing it names is touched before every path is known to stay in the work tree and every
        // object it names is in this repository.
        if let problem = journal.repositoryProblem(root: root, repository: repository) {
            throw ReleaseJournal.unreadable(journalPath, problem)
        }
        folders += journal.files.map { (LexicalPath.join(root, $0.path) as NSString).deletingLastPathComponent }
        let who = "pid \(journal.pid), stopped after step '\(journal.lastStep)'"
        guard let base = ObjectID(hex: journal.base) else {
            throw CLIFailure(message: "\(journalPath) names no valid start commit; check 'git status' and 'git log -1', put the files back as committed (git checkout -- .), then delete \(journalPath)")
        }
        let short = Publishing.shortBranch(journal.branch)
        let tip = try repository.referenceTarget(journal.branch)
        let releaseCommit = try tip.flatMap { try isReleaseCommit($0, of: journal, base: base, repository: repository) ? $0 : nil }

        if releaseCommit == nil && tip != base {
            throw CLIFailure(message: "the interrupted release \(journal.version) (\(journalPath), \(who)) can be neither finished nor rolled back: \(short) has moved since it started (\(tip.map { String($0.hex.prefix(12)) } ?? "deleted") now, \(journal.base.prefix(12)) then); check 'git log' and 'git status', put back any file it left (git checkout -- <file>), then delete \(journalPath)")
        }
        // The files to finish or put back are the work tree's: HEAD must still be the release's branch.
        let head = try repository.headReferenceName()
        if head != journal.branch {
            throw CLIFailure(message: "the interrupted release \(journal.version) (\(journalPath), \(who)) was made on \(short), but HEAD is now \(head.map(Publishing.shortBranch) ?? "detached"); check out \(short) (git checkout \(short)) and rerun 'relctl release' to finish or roll it back")
        }
        // Before anything else: a lock file the killed run left blocks the very steps below.
        let locks = GitLockFiles.present(gitDir: gitDir, branch: journal.branch, tag: journal.tag)
        let lastStepTime = journal.steps.last?.time ?? journal.started
        let own = locks.filter { lock in
            guard let time = GitLockFiles.modified(lock) else { return false }
            // Made while the killed run was working, and that run is gone (this one holds the repository lock).
            return time >= journal.started - 1 && time <= lastStepTime + 30 && !processIsRunning(journal.pid)
        }
        if let foreign = locks.first(where: { !own.contains($0) }) {
            throw CLIFailure(message: GitLockFiles.problem(foreign) + "; then 'relctl release' finishes or rolls back the interrupted release \(journal.version)")
        }
        for lock in own {
            unlink(lock)
            output.note("removed \(lock), git's lock file left by the killed relctl (pid \(journal.pid))")
        }

        if let commit = releaseCommit {
            var made = false
            if let existing = try repository.tag(named: journal.tag) {
                guard try repository.commit(of: existing) == commit else {
                    throw CLIFailure(message: "the interrupted release \(journal.version) made its commit, but the tag \(journal.tag) points elsewhere (\(existing.target.hex.prefix(12))); check it with 'git show \(journal.tag)', delete it if it is wrong (git tag -d \(journal.tag)), and rerun 'relctl release' to tag the release")
                }
            } else {
                try repository.createAnnotatedTag(journal.tag, target: commit, message: journal.tagMessage,
                                                  tagger: journal.taggerIdentity)
                made = true
            }
            reportRemoved(removeStaleTempFiles(in: folders, root: root), output: output)
            ReleaseJournal.remove(gitDir: gitDir)
            output.note("finished the interrupted release \(journal.version) (\(who)): its commit \(commit.hex.prefix(12)) is on \(short)\(made ? "; tagged it \(journal.tag)" : " and tagged \(journal.tag)")")
            return .finished(version: journal.version)
        }

        // No release commit on the branch: roll back, but only files that hold what the release wrote.
        var restore: [(ReleaseJournal.File, [UInt8])] = []
        var foreign: [String] = []
        for file in journal.files {
            let path = LexicalPath.join(root, file.path)
            let current = (try? Data(contentsOf: URL(fileURLWithPath: path))).map { Array($0) }
            let id = current.map { Repository.blobID(of: $0).hex }
            if let current, id == file.after, id != file.before {
                restore.append((file, current))
            } else if id != file.before {
                foreign.append(file.path)
            }
        }
        if !foreign.isEmpty {
            let names = foreign.joined(separator: ", ")
            throw CLIFailure(message: "cannot roll back the interrupted release \(journal.version) (\(who)): \(names) \(foreign.count == 1 ? "holds" : "hold") neither the bytes from before the release nor the ones it wrote (changed by hand since?); keep or discard that change (git checkout -- \(foreign.joined(separator: " "))), then rerun 'relctl release'")
        }
        var restored: [String] = []
        for (file, current) in restore.reversed() {
            let path = LexicalPath.join(root, file.path)
            if let before = file.before {
                guard let id = ObjectID(hex: before) else { continue }
                let bytes = try repository.blobBytes(id)
                do {
                    try TransactionalWriter.write([FileWrite(path: path, oldBytes: current, newBytes: bytes, displayPath: file.path)])
                } catch {
                    throw CLIFailure(message: "cannot roll back the interrupted release \(journal.version): \(error.description)")
                }
            } else if unlink(path) != 0 && errno != ENOENT {
                throw CLIFailure(message: "cannot roll back the interrupted release \(journal.version): cannot remove \(file.path): \(String(cString: strerror(errno)))")
            }
            restored.append(file.path)
        }
        // The index entries a commit in progress may have staged (the branch never moved).
        try repository.resetIndex(to: base, paths: journal.files.map(\.path))
        // The killed run's temporary files first: a folder the release made may hold one.
        reportRemoved(removeStaleTempFiles(in: folders, root: root), output: output)
        for folder in journal.folders.reversed() { rmdir(LexicalPath.join(root, folder)) }
        ReleaseJournal.remove(gitDir: gitDir)
        output.note("rolled back the interrupted release \(journal.version) (\(who)): \(restored.isEmpty ? "it had written no file" : "restored \(restored.reversed().joined(separator: ", "))"); releasing again")
        return .rolledBack(version: journal.version)
    }

    /// Whether `commit` is the release the journal describes: a child of its start commit with the planned message,
    /// holding exactly the bytes it planned in every file. Checked against the repository even when the journal
    /// names the commit: a journal edited to name any commit must not get that commit tagged as the release.
    static func isReleaseCommit(_ commit: ObjectID, of journal: ReleaseJournal, base: ObjectID,
                                repository: Repository) throws -> Bool {
        guard commit != base, try repository.firstParent(of: commit) == base,
              try repository.commitMessage(commit) == journal.commitMessage else { return false }
        let blobs = try repository.blobIDs(at: journal.files.map(\.path), in: commit)
        return blobs.map { $0?.hex } == journal.files.map { Optional($0.after) }
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
