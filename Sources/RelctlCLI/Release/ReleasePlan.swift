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
    /// File writes in order: version files, changelog, marker.
    let writes: [FileWrite]
    let changelogSection: String?
    let commitMessage: String
    let tagMessage: String
    let notice: MajorReleaseNotice?
    let identities: Identities?
    /// The store-rule or file problem found while planning, reported by preflight.
    let fileProblem: String?
    /// Why the identity could not be read (an unreadable GIT_*_DATE, say), reported by preflight.
    let identityProblem: String?

    /// Paths relative to the root of every file the release commit holds, as git names them.
    var changedPaths: [String] { writes.map(relativePath) }

    /// A write's path relative to the root, normalised (`./app.json` in .relctl.json is `app.json` to git).
    func relativePath(_ write: FileWrite) -> String {
        LexicalPath.relative(write.path, to: root) ?? String(write.path.dropFirst(root.count + 1))
    }
}
