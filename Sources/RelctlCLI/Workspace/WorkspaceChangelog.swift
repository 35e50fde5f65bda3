#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore

/// The changelog of a release, computed in one place so that what `relctl changelog` prints is what
/// `relctl release` writes.
extension Workspace {
    /// The release `analysis` leads to, as the changelog tells it: commits, groups, and origin's links.
    func changelogRelease(version: String, tag: String, analysis: ReleaseAnalysis, date: String) -> ChangelogRelease {
        ChangelogRelease(version: version, previousTag: analysis.baseTag, tag: tag, date: date,
                         commits: analysis.commits.commits, settings: config.changelog,
                         links: repository.remoteURL("origin").flatMap(RemoteLinks.parse))
    }

    /// The text of the configured changelog; `nil` when there is none, or it cannot be read as UTF-8 (a
    /// release refuses such a file; a preview then shows relctl's own section).
    var changelogText: String? {
        guard let path = config.changelogPath,
              let data = FileManager.default.contents(atPath: root + "/" + path) else { return nil }
        return String(validating: Array(data), as: UTF8.self)
    }
}
