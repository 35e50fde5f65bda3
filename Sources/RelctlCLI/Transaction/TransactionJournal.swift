import Foundation
import RelctlCore
import RelctlFiles
import RelctlGit

/// The record of a `RepositoryTransaction` in progress, `.git/relctl-release.json`: written before its first write
/// and removed once its last step is done. It holds what a later run needs after a crash to finish that same
/// transaction or roll it back: what it is (`kind`: a release, a gate decision, adopt; its version), the branch and
/// the commit it started from, the commit message, the tags with their messages and the tagger, every file with the
/// git blob of its bytes before (kept in the object database) and after (none: the file is deleted), the folders it
/// created, and the steps done so far. Each update replaces the file atomically (temp file, fsync, rename). The
/// file name and the keys of a release are the ones relctl always wrote.
struct TransactionJournal: Codable, Equatable {
    struct File: Codable, Equatable {
        /// Relative to the repository root.
        var path: String
        /// The blob of the bytes before the transaction (stored in the object database); nil: the file did not exist.
        var before: String?
        /// The blob id of the bytes the transaction writes; nil: it deletes the file.
        var after: String?
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

    /// A tag after the first (`tag`): several projects released in one commit, a tag each.
    struct Tag: Codable, Equatable {
        var name: String
        var message: String
        /// The commit it is made on; nil: the transaction's own commit.
        var target: String?
    }

    var schemaVersion = 1
    var pid: Int32
    /// What the transaction is (`Kind`); absent: a release (the journals relctl wrote before other kinds existed).
    var kind: String?
    /// The release's version; for another kind, what it is about (`gate raise-min 3.0.0`: `3.0.0`).
    var version: String
    /// The first tag (the release's) and its message; absent: the transaction makes no tag.
    var tag: String?
    var tagMessage: String?
    /// The commit `tag` is made on; absent: the transaction's own commit (`adopt` tags an older one).
    var tagTarget: String?
    /// More tags, made after `tag` (see `Tag`).
    var moreTags: [Tag]?
    /// The full branch name (`refs/heads/main`); absent only when the transaction makes no commit.
    var branch: String?
    /// The commit the transaction started from (its commit's parent).
    var base: String
    /// Absent: the transaction makes no commit (`adopt` only tags).
    var commitMessage: String?
    var tagger: Tagger?
    var files: [File]
    /// Folders the transaction creates (relative to the root), outermost first.
    var folders: [String]
    var steps: [Step] = []
    /// The transaction's commit, once made.
    var commit: String?

    /// The kinds of transaction relctl journals: `kind` holds the raw value (a release leaves it out).
    enum Kind: String, CaseIterable {
        case release
        case gateRaiseMin = "gate raise-min"
        case gateSetLatest = "gate set-latest"
        case gateKeepMin = "gate keep-min"
        case adopt
    }

    var transactionKind: Kind { kind.flatMap(Kind.init(rawValue:)) ?? .release }

    /// What the messages call it: `release 1.3.0`, `gate raise-min 3.0.0`, `adopt v2.43.0`.
    var what: String { "\(transactionKind.rawValue) \(version)" }

    /// Every tag, in the order they are made.
    var tags: [Tag] {
        (tag.map { [Tag(name: $0, message: tagMessage ?? "", target: tagTarget)] } ?? []) + (moreTags ?? [])
    }

    /// What to do about an interrupted transaction of this kind: a release is finished or rolled back by the next
    /// `relctl release`; any other by the next command that takes the lock (`Workspace.open`).
    var rerunAdvice: String {
        transactionKind == .release ? "rerun 'relctl release' to finish or roll it back" : Self.advice(for: transactionKind)
    }

    static func advice(for kind: Kind) -> String {
        kind == .release ? "rerun 'relctl release' to finish or roll back"
            : "the next relctl command that writes (release, sync, adopt or a gate decision, not a dry run) finishes or rolls it back first"
    }

    /// The command a message tells to rerun once a problem is fixed.
    var rerunCommand: String {
        transactionKind == .release ? "'relctl release'" : "relctl (any command that writes: release, sync, adopt, a gate decision)"
    }

    static let fileName = "relctl-release.json"

    static func path(gitDir: String) -> String { gitDir + "/" + fileName }

    /// The last step recorded.
    var lastStep: String { steps.last?.name ?? "planned" }

    /// When the release started.
    var started: Double { steps.first?.time ?? 0 }

    mutating func record(_ step: String) {
        steps.append(Step(name: step, time: Date().timeIntervalSince1970))
    }

    /// The journal of the transaction in progress, if any. Throws when it exists but cannot be read, or when what it
    /// holds is not what relctl writes (`checkContents`): the journal is untrusted input, a file anyone with write
    /// access to `.git` can edit. Never read through a symbolic link.
    static func load(gitDir: String) throws -> TransactionJournal? {
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
        let journal: TransactionJournal
        do {
            journal = try JSONDecoder().decode(TransactionJournal.self, from: Data(bytes))
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
    static func unreadable(_ path: String, _ why: String) -> Problem {
        Problem("cannot use the journal of an interrupted release, \(path): \(why); check 'git status' and 'git log -1', put the files back as committed (git checkout -- .), then delete it (rm \(path)) and rerun")
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
            if let after = file.after, ObjectID(hex: after) == nil { return "\(file.path): 'after' is not a blob id" }
            if file.before == nil && file.after == nil { return "\(file.path): neither 'before' nor 'after' is set" }
        }
        if let kind, Kind(rawValue: kind) == nil { return "the kind \"\(TerminalText.escaped(kind))\" is not one this relctl knows" }
        guard ObjectID(hex: base) != nil else { return "'base' is not a commit id" }
        if let commit, ObjectID(hex: commit) == nil || commitMessage == nil { return "'commit' is not a commit id" }
        for tag in tags {
            guard Repository.isValidReferenceName("refs/tags/" + tag.name) else { return "the tag \"\(tag.name)\" is not a valid tag name" }
            if let target = tag.target, ObjectID(hex: target) == nil { return "the target of the tag \(tag.name) is not a commit id" }
            if tag.target == nil && commitMessage == nil { return "the tag \(tag.name) names no commit" }
        }
        if tag == nil && tagMessage != nil { return "'tagMessage' is set without a tag" }
        if let branch {
            guard branch.hasPrefix("refs/heads/"), Repository.isValidReferenceName(branch) else {
                return "the branch \"\(branch)\" is not a branch (refs/heads/…)"
            }
        } else if commitMessage != nil {
            return "it names no branch for its commit"
        }
        func hasControl(_ text: String) -> Bool {
            text.unicodeScalars.contains { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }
        }
        guard !version.isEmpty, !hasControl(version) else { return "the version is not one relctl writes" }
        guard let tagger else { return tags.isEmpty ? nil : "it names no tagger for its tags" }
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
        for tag in tags {
            guard let target = tag.target else { continue }
            guard let id = ObjectID(hex: target), (try? repository.resolveCommit(id.hex)) == id else {
                return "the tag \(tag.name) names \(target.prefix(12)), which is not a commit of this repository"
            }
        }
        return nil
    }

    /// Writes the journal atomically: a temp file beside it, created fresh (never through a link: a `.tmp` that is
    /// a symbolic link or anything but a regular file is refused), fsynced, renamed over the journal.
    func save(gitDir: String) throws(Problem) {
        let path = Self.path(gitDir: gitDir)
        let temp = path + ".tmp"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else {
            throw Problem("cannot encode the journal")
        }
        var st = stat()
        if lstat(temp, &st) == 0 {
            // A killed run's temp file is removed; a link (or anything else) someone put there is not written through.
            guard (st.st_mode & S_IFMT) == S_IFREG, st.st_nlink == 1 else {
                throw Problem("\(temp) is \((st.st_mode & S_IFMT) == S_IFLNK ? "a symbolic link" : (st.st_mode & S_IFMT) == S_IFREG ? "a hard link" : "not a regular file"), not relctl's temporary journal; relctl writes no file through a link: delete it (rm \(temp)) and rerun")
            }
            unlink(temp)
        }
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Problem("cannot write \(temp): \(String(cString: strerror(errno)))") }
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
            throw Problem("cannot write \(path): \(reason)")
        }
    }

    static func remove(gitDir: String) {
        unlink(path(gitDir: gitDir))
        // The temporary journal only when it is relctl's: a link someone put there stays, for the message that names it.
        let temp = path(gitDir: gitDir) + ".tmp"
        var st = stat()
        if lstat(temp, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_nlink == 1 { unlink(temp) }
    }

    /// The identity the tag is made with, as planned (a rerun finishing the release makes the very same tag).
    var taggerIdentity: Identity? {
        tagger.map { Identity(name: $0.name, email: $0.email, time: ($0.seconds, $0.offsetMinutes)) }
    }
}

/// The journal's name before it journaled more than the release (`sync` names it so).
typealias ReleaseJournal = TransactionJournal
