import Foundation
import RelctlCore
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

    /// The journal of the release in progress, if any. Throws when it exists but cannot be read.
    static func load(gitDir: String) throws -> ReleaseJournal? {
        let path = path(gitDir: gitDir)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return try JSONDecoder().decode(ReleaseJournal.self, from: data)
        } catch {
            throw CLIFailure(message: "cannot read the journal of an interrupted release, \(path): \(error.localizedDescription); check 'git status' and 'git log -1', put the files back as committed (git checkout -- .), then delete \(path)")
        }
    }

    /// Writes the journal atomically.
    func save(gitDir: String) throws(CLIFailure) {
        let path = Self.path(gitDir: gitDir)
        let temp = path + ".tmp"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else {
            throw CLIFailure(message: "cannot encode the release journal")
        }
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
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
        unlink(path(gitDir: gitDir) + ".tmp")
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
