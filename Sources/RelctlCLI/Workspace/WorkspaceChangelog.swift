import Foundation
import RelctlCore
import RelctlFiles
import RelctlGit

/// The configured changelog as the run found it, read once with the one UTF-8 policy of the version files
/// (`TextFile.utf8Text`): `relctl changelog` previews from it, `release` plans its new section over it.
struct ChangelogText {
    /// Root-relative, as configured.
    let path: String
    let absolutePath: String
    /// The bytes on disk; nil when there is no such file.
    let bytes: [UInt8]?
    /// The text of `bytes`; nil when there is no file or it is not UTF-8 (a release refuses such a file; a preview
    /// then shows relctl's own section).
    let text: String?
    /// The path names a folder, not a file.
    let isFolder: Bool

    /// Whether the file exists and is not valid UTF-8.
    var isNotUTF8: Bool { bytes != nil && text == nil }

    /// The changelog `config` names under `root`; nil when none is configured.
    static func read(_ config: Config, root: String) -> ChangelogText? {
        guard let path = config.changelogPath else { return nil }
        let absolute = LexicalPath.join(root, path)
        var folder: ObjCBool = false
        let isFolder = FileManager.default.fileExists(atPath: absolute, isDirectory: &folder) && folder.boolValue
        let bytes = FileManager.default.contents(atPath: absolute).map { Array($0) }
        return ChangelogText(path: path, absolutePath: absolute, bytes: bytes, text: bytes.flatMap(TextFile.utf8Text),
                             isFolder: isFolder)
    }
}

/// The changelog of a release, computed in one place so that what `relctl changelog` prints is what
/// `relctl release` writes.
extension ChangelogRelease {
    /// The release `analysis` leads to, as the changelog tells it: commits, groups, and origin's links, under
    /// `config`'s changelog settings.
    static func of(_ analysis: ReleaseAnalysis, version: String, tag: String, date: String, config: Config,
                   repository: Repository, environment: [String: String]) -> ChangelogRelease {
        var release = ChangelogRelease(version: version, previousTag: analysis.baseTag, tag: tag, date: date,
                                       commits: analysis.commits.commits, settings: config.changelog,
                                       links: config.forgeLinks(remoteURL: repository.remoteURL("origin"), environment: environment))
        if release.links != nil { release.closedIssues = closedIssues(analysis.commits.commits, in: repository) }
        release.template = config.changelogTemplate?.template
        release.authors = ForgeAuthors.authors(of: release, head: analysis.headCommit, config: config, environment: environment)
        return release
    }

    /// The issues each listed commit closes (`Closes #12`): the walk keeps no bodies, so the messages of the
    /// commits a changelog can list are read again (only when origin gives links). An unreadable one closes none.
    static func closedIssues(_ commits: [AnalyzedCommit], in repository: Repository) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for commit in commits where commit.status == .counted || commit.status == .noReleaseType {
            guard let id = ObjectID(hex: commit.sha), let message = try? repository.commitMessage(id) else { continue }
            let issues = IssueReferences.closed(in: message)
            if !issues.isEmpty { result[commit.sha] = issues }
        }
        return result
    }
}
