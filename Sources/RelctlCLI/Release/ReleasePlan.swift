import RelctlCore
import RelctlFiles
import RelctlGit

/// Everything a release will write, computed in memory before anything is touched (see `ReleasePlanner`).
struct ReleasePlan {
    let root: String
    let version: String
    let previousVersion: String?
    let bump: Bump
    let tag: String
    let branch: String?
    let head: ObjectID
    /// File writes in order: version files, changelog, store notes, marker, then the config (`--include-config`, its own bytes).
    var writes: [FileWrite]
    /// What HEAD holds (nil: nothing) at the absolute paths whose work-tree bytes differ from it: only relctl's own
    /// `.major-release-pending` left by a halt can, and the uncommitted config `--include-config` commits. The dry-run diff is against these, as `git diff` would show it.
    var committedBytes: [String: [UInt8]?] = [:]
    let changelogSection: String?
    var commitMessage: String
    let tagMessage: String
    let notice: MajorReleaseNotice?
    let identities: Identities?
    /// Every problem found while planning, in the order preflight shows them: the committer identity (none, or
    /// unreadable: a bad GIT_*_DATE), then each store-rule, version-file, changelog and store-notes problem. All of
    /// them, not the first: preflight reports every one in the same run.
    let problems: [Problem]
    /// The branch's track: a prerelease's channel, a maintenance branch's range (see ReleaseTrack.swift).
    var track = ReleaseTrack()
    /// The counter of a prerelease: 2 in `1.3.0-beta.2`.
    var prereleaseNumber: UInt64?
    /// A prerelease of a major release: no marker and no halt now; the final release will be major.
    var majorLater = false
    /// The highest build numbers the release tags hold, when `increment` counted from them.
    var releasedBuilds: ReleasedBuildNumbers?
    /// Said when `releasedBuilds` is above the files (another branch released higher build numbers).
    var buildNote: String?
    /// The build numbers the release's files hold (new, or kept): nil for a store no file carries one for.
    var iosBuild: String?
    var androidBuild: String?
    /// The store release notes the release writes (`storeNotes`), also among `writes`.
    var storeNotes: [StoreNotesFile] = []
    /// Tags made on the same commit after `tag`: the other projects' of one `release --all` (ProjectReleases.swift).
    var additionalTags: [(name: String, message: String)] = []
    /// The marker's path relative to the root (inside the project's folder for a project).
    var markerRelativePath = MajorReleaseMarker.fileName

    /// The bytes a write's diff starts from: what HEAD holds there.
    func diffBase(_ write: FileWrite) -> [UInt8]? {
        if let committed = committedBytes[write.path] { return committed }
        return write.oldBytes
    }

    /// The major-release marker's write; nil when the release is not a major one.
    var markerWrite: FileWrite? {
        writes.first { relativePath($0) == markerRelativePath }
    }

    /// Paths relative to the root of every file the release commit holds, as git names them.
    var changedPaths: [String] { writes.map(relativePath) }

    /// A write's path relative to the root, normalised (`./app.json` in .relctl.json is `app.json` to git).
    func relativePath(_ write: FileWrite) -> String {
        LexicalPath.relative(write.path, to: root) ?? String(write.path.dropFirst(root.count + 1))
    }
}

extension ReleasePlan {
    /// The release as a `RepositoryTransaction`: its writes, its commit and its tag, journaled as a release.
    var transaction: RepositoryTransaction {
        var transaction = RepositoryTransaction(
            .init(kind: .release, subject: version, failed: "release \(version) failed",
                  restored: "every file, the index and the branch were restored"),
            root: root, head: head, identities: identities)
        transaction.writes = writes
        transaction.commitMessage = commitMessage
        // One tag per project of a `release --all`, all on the one commit (the journal records every one).
        transaction.tags = [.init(name: tag, message: tagMessage)] + additionalTags.map { .init(name: $0.name, message: $0.message) }
        return transaction
    }
}
