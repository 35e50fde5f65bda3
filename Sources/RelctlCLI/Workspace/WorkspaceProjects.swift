import RelctlCore
import RelctlGit

/// The folders of every project, diffed once per commit for all of them (`FolderChanges`), shared by the workspaces of
/// one run: `next --all` walks each project's range, and a commit two ranges share is diffed once.
final class ProjectFolderChanges {
    private var changes: FolderChanges?
    private(set) var folders: [String] = []

    func changes(_ repository: Repository, projects: [Project]) -> FolderChanges {
        if let changes { return changes }
        var folders: [String] = []
        for project in projects { for path in project.watchedPaths where !folders.contains(path) { folders.append(path) } }
        let made = FolderChanges(repository: repository, folders: folders)
        self.folders = folders
        changes = made
        return made
    }
}

extension Workspace {
    /// The same repository seen as one of its projects: the project's config (its tag format, files, changelog,
    /// build numbers, gate), its own caches, and its own major-release marker.
    func forProject(_ project: Project) -> Workspace {
        var workspace = Workspace(repository: repository, root: root, config: project.config)
        workspace.environment = environment
        workspace.requestedChannel = requestedChannel
        workspace.lock = lock
        workspace.project = project
        workspace.allProjects = config.projects.isEmpty ? allProjects : config.projects
        workspace.folderChanges = folderChanges
        workspace.tagListing = tagListing
        workspace.pendingMajor = PendingMajor.read(root: root, repository: repository, relativePath: project.markerPath)
        return workspace
    }

    /// The marker of a halted major release, root-relative: inside the project's folder for a project.
    var markerRelativePath: String { project?.markerPath ?? MajorReleaseMarker.fileName }

    /// Whether a commit of the range counts for this workspace's project: it changes a file under the project's
    /// folder or a folder of a project it depends on, or its scope names the project. Always true without a project
    /// (or for a project at the root).
    func counts(_ record: CommitRecord, _ commit: AnalyzedCommit) throws -> Bool {
        try counts(record, scope: commit.message?.scope)
    }

    /// Whether a commit counts for this workspace's project (as above), its scope read from its message.
    func counts(_ record: CommitRecord) throws -> Bool {
        guard let project, !project.watchedPaths.contains("") else { return true }
        return try counts(record, scope: project.scopes.isEmpty ? nil : ConventionalCommitParser.parse(record.message)?.scope)
    }

    private func counts(_ record: CommitRecord, scope: String?) throws -> Bool {
        guard let project, !project.watchedPaths.contains("") else { return true }
        if !project.scopes.isEmpty, let scope {
            let named = scope.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            if named.contains(where: project.scopes.contains) { return true }
        }
        let changes = folderChanges.changes(repository, projects: allProjects)
        let changed = try changes.changed(record.id, firstParent: record.parents.first)
        for i in changed.indices where changed[i] && project.watchedPaths.contains(changes.folders[i]) { return true }
        return false
    }

    /// The tag names of this workspace's format, without those another project's format claims (a longer literal
    /// part: `consumer-v1.0.0` is consumer's, not `v{version}`'s... nor `c{version}`'s).
    func ownTagNames(_ names: [String], format: TagFormat) -> [String] {
        guard project != nil else { return names }
        let others = allProjects.filter { $0.name != project?.name }.compactMap { try? TagFormat($0.tagFormat) }
            .filter { $0.prefix.count + $0.suffix.count > format.prefix.count + format.suffix.count }
        guard !others.isEmpty else { return names }
        return names.filter { name in !others.contains { $0.parts(fromTag: name) != nil } }
    }

    /// ` --project NAME` for advice naming a relctl command, when the workspace is a project's; "" otherwise.
    var projectOption: String { project.map { " --project \($0.name)" } ?? "" }

    /// `"apps/consumer"`, or `"apps/consumer (or packages/ui)"`: the folders whose changes count, for messages.
    var projectFoldersText: String {
        guard let project else { return "." }
        let paths = project.watchedPaths.map { $0.isEmpty ? "." : $0 }
        return paths.count == 1 ? paths[0] : "\(paths[0]) (or \(paths.dropFirst().joined(separator: ", ")))"
    }
}
