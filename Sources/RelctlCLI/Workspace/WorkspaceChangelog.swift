#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore
import RelctlGit

/// The changelog of a release, computed in one place so that what `relctl changelog` prints is what
/// `relctl release` writes.
extension Workspace {
    /// The release `analysis` leads to, as the changelog tells it: commits, groups, and origin's links.
    func changelogRelease(version: String, tag: String, analysis: ReleaseAnalysis, date: String) -> ChangelogRelease {
        var release = ChangelogRelease(version: version, previousTag: analysis.baseTag, tag: tag, date: date,
                                       commits: analysis.commits.commits, settings: config.changelog,
                                       links: config.forgeLinks(remoteURL: repository.remoteURL("origin"), environment: environment))
        if release.links != nil { release.closedIssues = closedIssues(analysis.commits.commits) }
        release.template = config.changelogTemplate?.template
        release.authors = ForgeAuthors.authors(of: release, head: analysis.headCommit, config: config, environment: environment)
        return release
    }

    /// The issues each listed commit closes (`Closes #12`): the walk keeps no bodies, so the messages of the
    /// commits a changelog can list are read again (only when origin gives links). An unreadable one closes none.
    func closedIssues(_ commits: [AnalyzedCommit]) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for commit in commits where commit.status == .counted || commit.status == .noReleaseType {
            guard let id = ObjectID(hex: commit.sha), let message = try? repository.commitMessage(id) else { continue }
            let issues = IssueReferences.closed(in: message)
            if !issues.isEmpty { result[commit.sha] = issues }
        }
        return result
    }

    /// The text of the configured changelog; `nil` when there is none, or it cannot be read as UTF-8 (a
    /// release refuses such a file; a preview then shows relctl's own section).
    var changelogText: String? {
        guard let path = config.changelogPath,
              let data = FileManager.default.contents(atPath: root + "/" + path) else { return nil }
        return String(validating: Array(data), as: UTF8.self)
    }
}
