import Foundation
import RelctlCore
import RelctlFiles
import RelctlGit

/// The record of a release in progress, `.git/relctl-release.json`: written before the release's first write and
/// removed once its tag exists. It holds what a rerun needs after a crash to finish that same release or roll it
/// back: the planned version and tag, the branch and the commit it started from, the commit and tag messages and the
/// tagger, every file with the git blob of its bytes before (kept in the object database) and after, the folders
/// the release created, and the steps done so far. Each update replaces the file atomically (temp file, fsync,
/// rename).
struct ReleaseJournal: Codable, Equatable {
    struct File: Codable, Equatable {
        /// Relative to the repository root.
        var path: String
        /// The blob of the bytes before the release (stored in the object database); nil: the file did not exist.
        var before: String?
        /// The blob id of the bytes the release writes.
        var after: String
    }

    struct Tagger: Codable, Equatable {
        var name: String
        var email: String
        var seconds: Int64
        var offsetMinutes: Int32
    }

    struct Step: Codable, Equatable {
        var name: String
        /// Seconds since the epoch.
        var time: Double
    }

    var schemaVersion = 1
    var pid: Int32
    var version: String
    var tag: String
    /// The full branch name (`refs/heads/main`).
    var branch: String
    /// The commit the release started from (its commit's parent).
    var base: String
    var commitMessage: String
    var tagMessage: String
    var tagger: Tagger
    var files: [File]
    /// Folders the release creates (relative to the root), outermost first.
    var folders: [String]
    var steps: [Step] = []
    /// The release commit, once made.
    var commit: String?

    static let fileName = "relctl-release.json"

    static func path(gitDir: String) -> String { gitDir + "/" + fileName }

    /// The last step recorded.
    var lastStep: String { steps.last?.name ?? "planned" }

    /// When the release started.
    var started: Double { steps.first?.time ?? 0 }

    mutating func record(_ step: String) {
        steps.append(Step(name: step, time: Date().timeIntervalSince1970))
    }

    /// The journal of the release in progress, if any. Throws when it exists but cannot be read, or when what it
    /// holds is not what relctl writes (`checkContents`): the journal is untrusted input, a file anyone with write
    /// access to `.git` can edit. Never read through a symbolic link.
    static func load(gitDir: String) throws -> ReleaseJournal? {
        let path = path(gitDir: gitDir)
        var st = stat()
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return nil }
            throw unreadable(path, String(cString: strerror(errno)))
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw unreadable(path, (st.st_mode & S_IFMT) == S_IFLNK ? "it is a symbolic link, not the file relctl writes" : "it is not a regular file")
        }
        guard st.st_size <= maximumSize else { throw unreadable(path, "it is \(st.st_size) bytes, more than a journal ever holds") }
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw unreadable(path, String(cString: strerror(errno))) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &chunk, chunk.count)
            if n < 0 { if errno == EINTR { continue }; throw unreadable(path, String(cString: strerror(errno))) }
            if n == 0 { break }
            bytes += chunk[0..<n]
            if bytes.count > maximumSize { throw unreadable(path, "it is larger than a journal ever is") }
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw unreadable(path, "it is empty (a crash while it was written?)")
        }
        let journal: ReleaseJournal
        do {
            journal = try JSONDecoder().decode(ReleaseJournal.self, from: Data(bytes))
        } catch {
            throw unreadable(path, "it is not the JSON relctl writes (truncated, or edited by hand?)")
        }
        if let problem = journal.contentsProblem() { throw unreadable(path, problem) }
        return journal
    }

    /// A journal is a few kilobytes (paths, blob ids, two messages); anything far larger is not one.
    static let maximumSize = 4 << 20

    /// The one message for a journal relctl cannot use, with the fix (which works whatever the journal holds: the
    /// release, if any, is rolled back by hand and the journal deleted).
    static func unreadable(_ path: String, _ why: String) -> CLIFailure {
        CLIFailure(message: "cannot use the journal of an interrupted release, \(path): \(why); check 'git status' and 'git log -1', put the files back as committed (git checkout -- .), then delete it (rm \(path)) and rerun")
    }

    /// What in the journal's own text is not what relctl writes: a path that is absolute, climbs out with `..`, names
    /// `.git` or holds a control character; a blob id that is not one; a tag or branch that is not a valid reference
    /// name (a branch that is not under `refs/heads/`). Nil when it all fits.
    func contentsProblem() -> String? {
        guard schemaVersion == 1 else { return "schemaVersion \(schemaVersion) is not one this relctl knows" }
        guard pid > 0 else { return "pid \(pid) is not a process id" }
        for (key, path) in files.map({ ("file", $0.path) }) + folders.map({ ("folder", $0) }) {
            if let problem = Self.pathProblem(path) {
                return "the \(key) \"\(TerminalText.escaped(path).replacingOccurrences(of: "\n", with: "\\012"))\" \(problem)"
            }
        }
        for file in files {
            if let before = file.before, ObjectID(hex: before) == nil { return "\(file.path): 'before' is not a blob id" }
            if ObjectID(hex: file.after) == nil { return "\(file.path): 'after' is not a blob id" }
        }
        guard ObjectID(hex: base) != nil else { return "'base' is not a commit id" }
        if let commit, ObjectID(hex: commit) == nil { return "'commit' is not a commit id" }
        guard Repository.isValidReferenceName("refs/tags/" + tag) else { return "the tag \"\(tag)\" is not a valid tag name" }
        guard branch.hasPrefix("refs/heads/"), Repository.isValidReferenceName(branch) else {
            return "the branch \"\(branch)\" is not a branch (refs/heads/…)"
        }
        func hasControl(_ text: String) -> Bool {
            text.unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }
        }
        guard !version.isEmpty, !hasControl(version) else { return "the version is not one relctl writes" }
        // The tagger goes into the tag object's header: a line break or an angle bracket would forge header lines.
        for field in [tagger.name, tagger.email] where field.isEmpty || hasControl(field) || field.contains("<") || field.contains(">") {
            let shown = TerminalText.escaped(field).replacingOccurrences(of: "\n", with: "\\012")
            return "the tagger \"\(shown)\" is not a name or email git accepts"
        }
        return nil
    }

    /// Why `path` (from the journal) is not a file of the work tree, judged on its text: nil when it is.
    static func pathProblem(_ path: String) -> String? {
        if path.hasPrefix("/") { return "is an absolute path" }
        guard let normalized = LexicalPath.normalize(path), !normalized.isEmpty else { return "is outside the work tree" }
        guard normalized == path else { return "is not a plain path inside the work tree" }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "holds a control character" }
        if path.split(separator: "/").contains(where: { $0.lowercased() == ".git" }) { return "is inside .git" }
        return nil
    }

    /// What the journal names that the repository does not hold as the journal says: a path leading out of the work
    /// tree through a symbolic link, a start commit that is not a commit, a 'before' blob missing from the object
    /// database. Nil when it all fits.
    func repositoryProblem(root: String, repository: Repository) -> String? {
        for path in files.map(\.path) + folders {
            if let escape = RepositoryConfinement.escapingLink(path, root: root) {
                return "\"\(path)\" leads outside the work tree: \(escape.link) is a symbolic link to \(escape.target)"
            }
        }
        guard let base = ObjectID(hex: base), (try? repository.resolveCommit(base.hex)) == base else {
            return "the start commit \(self.base.prefix(12)) is not a commit of this repository"
        }
        for file in files {
            guard let before = file.before else { continue }
            guard let id = ObjectID(hex: before), (try? repository.contains(id)) == true else {
                return "\(file.path): the blob of its bytes before the release (\(before.prefix(12))) is not in this repository"
            }
        }
        return nil
    }

    /// Writes the journal atomically: a temp file beside it, created fresh (never through a link: a `.tmp` that is
    /// a symbolic link or anything but a regular file is refused), fsynced, renamed over the journal.
    func save(gitDir: String) throws(CLIFailure) {
        let path = Self.path(gitDir: gitDir)
        let temp = path + ".tmp"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else {
            throw CLIFailure(message: "cannot encode the release journal")
        }
        var st = stat()
        if lstat(temp, &st) == 0 {
            // A killed run's temp file is removed; a link (or anything else) someone put there is not written through.
            guard (st.st_mode & S_IFMT) == S_IFREG, st.st_nlink == 1 else {
                throw CLIFailure(message: "\(temp) is \((st.st_mode & S_IFMT) == S_IFLNK ? "a symbolic link" : (st.st_mode & S_IFMT) == S_IFREG ? "a hard link" : "not a regular file"), not relctl's temporary journal; relctl writes no file through a link: delete it (rm \(temp)) and rerun")
            }
            unlink(temp)
        }
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CLIFailure(message: "cannot write \(temp): \(String(cString: strerror(errno)))") }
        var ok = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        if ok && fsync(fd) != 0 { ok = false }
        let reason = String(cString: strerror(errno))
        close(fd)
        guard ok, rename(temp, path) == 0 else {
            unlink(temp)
            throw CLIFailure(message: "cannot write \(path): \(reason)")
        }
    }

    static func remove(gitDir: String) {
        unlink(path(gitDir: gitDir))
        // The temporary journal only when it is relctl's: a link someone put there stays, for the message that names it.
        let temp = path(gitDir: gitDir) + ".tmp"
        var st = stat()
        if lstat(temp, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_nlink == 1 { unlink(temp) }
    }

    /// The journal for `plan` about to be applied on `branch`: stores the bytes each write replaces as blobs.
    init(plan: ReleasePlan, branch: String, createdFolders: [String], repository: Repository) throws {
        guard let identities = plan.identities else { throw CLIFailure(message: "no committer identity") }
        let tagger = identities.committer
        let time = tagger.time ?? (Int64(Date().timeIntervalSince1970), Int32(TimeZone.current.secondsFromGMT() / 60))
        pid = getpid()
        version = plan.version
        tag = plan.tag
        self.branch = branch
        base = plan.head.hex
        commitMessage = plan.commitMessage
        tagMessage = plan.tagMessage
        self.tagger = Tagger(name: tagger.name, email: tagger.email, seconds: time.seconds, offsetMinutes: time.offsetMinutes)
        files = try plan.writes.map { write in
            File(path: plan.relativePath(write), before: try write.oldBytes.map { try repository.writeBlob($0).hex },
                 after: Repository.blobID(of: write.newBytes).hex)
        }
        folders = createdFolders.map { LexicalPath.relative($0, to: plan.root) ?? $0 }
    }

    /// The identity the tag is made with, as planned (a rerun finishing the release makes the very same tag).
    var taggerIdentity: Identity {
        Identity(name: tagger.name, email: tagger.email, time: (tagger.seconds, tagger.offsetMinutes))
    }
}
