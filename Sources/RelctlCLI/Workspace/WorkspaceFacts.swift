import RelctlCore
import RelctlFiles
import RelctlGit

/// The facts of a run that the phases share, each read once per run and per project (a project's workspace has its
/// own, `forProject`): the release tags (`releaseTags`, one listing), the configured version files
/// (`readVersions`) and their floor; the pending major-release marker is read at open (`Workspace.pendingMajor`),
/// the changelog through `ChangelogText`. The phases are handed these values; the rules over them are functions of
/// the values (VersionFilePlan, BaseCheck, ReleaseTags, LastSyncedVersion…), not members of `Workspace`.
///
/// The configured version files of one command run, read and parsed once: `current`, `sync`, `adopt`, the version
/// floor of `next` and `status`, and `release` (its floor, then its plan) all ask `Workspace.readVersions`, which
/// reads each file (and each file an Xcode project refers to) once per run. The one deliberate second read is
/// `TransactionalWriter`'s check right before it writes.
final class VersionFileCache {
    fileprivate var read: Result<CurrentVersions, Problem>?
    /// The work tree's files as that read found them (each read once).
    fileprivate var project: ProjectFiles?
}

extension Workspace {
    /// The release tags of `tagFormat` and `versionScheme`, listed and parsed once per run (`ReleaseTags`): a
    /// project's, without the tags another project's format claims.
    func releaseTags() throws -> ReleaseTags {
        if let tags = releaseTagsCache.tags { return tags }
        let format = try TagFormat(config.tagFormat)
        let tags = ReleaseTags(listed: ownTagNames(try tagListing.names(repository), format: format), format: format,
                               scheme: config.versionScheme)
        releaseTagsCache.tags = tags
        return tags
    }

    /// The floor of the configured files; nil when none is configured or a file cannot be read (the command that
    /// writes reports that itself).
    func versionFloor() -> VersionFloor? {
        guard !config.files.isEmpty, let current = try? readVersions() else { return nil }
        return VersionFloor(current)
    }

    var configDisplayPath: String { config.displayPath }

    /// The configured version files; none is an error pointing at `relctl init`.
    func versionFileEntries() throws -> [FileEntry] {
        guard !config.files.isEmpty else {
            if config.path == nil {
                throw Problem("no \(Config.fileName) in \(root), so relctl does not know the app's version files; run 'relctl init' to detect them")
            }
            throw Problem("\(configDisplayPath) lists no version files ('files' is missing or empty); run 'relctl init' in a fresh checkout or add entries by hand (see 'relctl help sync')")
        }
        return config.files
    }

    /// Every configured file, read and parsed on first use (`VersionFileCache`).
    func readVersions() throws -> CurrentVersions {
        let entries = try versionFileEntries()
        if let read = versionFiles.read { return try read.get() }
        let project = ProjectFiles(root: root)
        versionFiles.project = project
        let read = Result { () throws(Problem) -> CurrentVersions in
            do throws(FileEditError) {
                return try CurrentVersions.read(entries, from: project)
            } catch {
                throw error.failure(root: root)
            }
        }
        versionFiles.read = read
        return try read.get()
    }

    /// The versions of `readVersions` when a release tag holds exactly the work tree's text of every configured file
    /// (`texts`, by root-relative path; the common case for the last release, whose files relctl wrote): the same
    /// files read the same way, so not parsed a second time. Nil when any file differs or is missing.
    func versionsIfWorkTree(_ texts: [String: String], paths: [String?]) -> CurrentVersions? {
        guard !paths.isEmpty, let current = try? readVersions(), let project = versionFiles.project else { return nil }
        for path in paths {
            guard let path, let text = texts[path], project.readableText(path) == text else { return nil }
        }
        return current
    }
}
