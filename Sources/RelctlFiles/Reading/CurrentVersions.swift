import RelctlCore

/// `relctl current`: every configured file's values, and where they disagree. Read once per run and shared by the
/// commands that need it (`current`, `sync`, `release`'s floor and plan), so each file is opened once.
package struct CurrentVersions: Sendable {
    package var files: [FileVersions]
    package var drift: [VersionDrift]
    /// The project the files were read from (its other files are read through it too, each once).
    package var project: ProjectFiles

    /// The project root the paths are relative to.
    package var root: String { project.root }

    package init(files: [FileVersions], project: ProjectFiles) {
        self.files = files
        self.drift = VersionDrift.find(in: files)
        self.project = project
    }

    /// Files read for their values only, with no drift check: a release tag's copies, of which only the build
    /// numbers count.
    package init(valuesOf files: [FileVersions], project: ProjectFiles) {
        self.files = files
        self.drift = []
        self.project = project
    }

    /// The highest iOS / Android build numbers across files (input for `BuildNumberPolicy.next`).
    package var highestIOSBuild: String? { BuildNumberPolicy.highest(files.compactMap(\.iosBuild)) }
    package var highestAndroidBuild: String? { BuildNumberPolicy.highest(files.compactMap(\.androidBuild)) }

    /// Reads and parses every entry through `project`. Throws the first missing/unparsable/ambiguous file.
    package static func read(_ entries: [FileEntry], from project: ProjectFiles) throws(FileEditError) -> CurrentVersions {
        var files: [FileVersions] = []
        for entry in entries { files.append(try FileVersions.load(entry, from: project)) }
        return CurrentVersions(files: files, project: project)
    }

    /// Reads every entry (relative to `root`). Throws the first missing/unparsable/ambiguous file.
    package static func read(root: String, entries: [FileEntry]) throws(FileEditError) -> CurrentVersions {
        try read(entries, from: ProjectFiles(root: root))
    }

    /// The files as `plan` leaves them, parsed from its new texts without touching the disk.
    package func afterWriting(_ plan: SyncPlan) throws(FileEditError) -> CurrentVersions {
        var written: [String: String] = [:]
        for change in plan.changes where change.isChanged { written[change.path] = change.newText }
        return try Self.read(files.map(\.entry), from: project.overlaid(with: written))
    }

    /// `020903` and `20903` are the same build.
    package static func normalizeBuild(_ s: String) -> String {
        if let n = Int(s) { return String(n) }
        return s
    }
}
