import RelctlCore
import RelctlFiles
import RelctlGit

/// Where `relctl adopt` puts the baseline tag: the commit that last set the version the files hold, found from the
/// history of the version files.
///
/// The first-parent chain from HEAD is walked back (the mainline, as `git log --first-parent -- <files>` shows it)
/// while every version file still holds its present marketing value; the first commit whose parent holds another
/// value in any of them (or no such file) is the one that set the version. A file is read and parsed only when its
/// blob changes between two commits, so the cost is a tree lookup per commit walked.
struct AdoptionBaseline {
    let commit: ObjectID
    let summary: CommitSummary
    /// The version file whose change to the version that commit made.
    let path: String

    static func find(files: [FileVersions], root: String, repository: Repository, head: ObjectID) throws -> AdoptionBaseline {
        struct Tracked {
            let file: FileVersions
            let gitPath: String
            let value: String
            var lastBlob: ObjectID?
        }
        var tracked: [Tracked] = []
        for file in files {
            guard let value = file.marketing,
                  let gitPath = LexicalPath.inRepository(file.entry.path, root: root) else { continue }
            tracked.append(Tracked(file: file, gitPath: gitPath, value: value))
        }
        guard let first = tracked.first else {
            throw Problem("no version file in the repository holds a literal marketing version, so relctl cannot find the commit that set it; list the app's version files in 'files' (relctl init)")
        }
        var commit = head
        var newer: ObjectID?
        while true {
            let blobs = try repository.blobIDs(at: tracked.map(\.gitPath), in: commit)
            var changedBy: Tracked?
            for i in tracked.indices {
                if let blob = blobs[i], blob == tracked[i].lastBlob { continue }
                guard let values = try blobs[i].flatMap({ try marketingValues(of: $0, in: tracked[i].file.entry, repository: repository) }),
                      values.contains(tracked[i].value) else {
                    changedBy = tracked[i]
                    break
                }
                tracked[i].lastBlob = blobs[i]
            }
            if let changedBy {
                let path = changedBy.file.entry.path
                guard let newer else {
                    throw Problem("\(path) holds \(changedBy.value) in the work tree but not in the last commit; commit the version change first, then run relctl adopt")
                }
                return AdoptionBaseline(commit: newer, summary: try repository.commitSummary(newer), path: path)
            }
            newer = commit
            let read = Result { () throws(GitError) in try repository.firstParent(of: commit) }
            if case .failure(let error) = read, error.kind == .shallowHistory {
                throw Problem("this is a shallow clone and its history ends before the commit that set \(first.value), so relctl cannot find where to tag it; \(Workspace.shallowFix)")
            }
            guard let parent = try read.get() else {
                // The first commit already held the version: it is the baseline.
                return AdoptionBaseline(commit: commit, summary: try repository.commitSummary(commit), path: first.file.entry.path)
            }
            commit = parent
        }
    }

    /// The literal marketing values a version file had in a blob; nil when it cannot be read as that format. All of
    /// them, not the first: a project.pbxproj may hold a setting no target reads (`MARKETING_VERSION = 1.0` of an
    /// extension whose Info.plist holds the version) before the one the app is built with.
    private static func marketingValues(of blob: ObjectID, in entry: FileEntry, repository: Repository) throws -> Set<String>? {
        let bytes = try repository.blobBytes(blob)
        let text = String(decoding: bytes, as: UTF8.self)
        guard Array(text.utf8) == bytes, let locations = try? entry.editor.read(text, path: entry.path) else { return nil }
        return Set(locations.filter { $0.field == .marketing && $0.indirection == nil }.map(\.value))
    }
}
