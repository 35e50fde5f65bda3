/// One release as its changelog tells it: what ``ChangelogRenderer`` renders and
/// ``ChangelogFile/update(_:with:)`` writes into a changelog file.
public struct ChangelogRelease: Hashable, Sendable {
    /// The version written in the heading (`1.3.0`; `Unreleased` for a preview).
    public var version: String
    /// The tag of the release before, for compare links; `nil` for a first release.
    public var previousTag: String?
    /// The tag of this release (`HEAD` for a preview).
    public var tag: String
    /// `YYYY-MM-DD`.
    public var date: String
    /// Newest first, as ``CommitAnalysis/commits``.
    public var commits: [AnalyzedCommit]
    public var settings: ChangelogSettings
    /// Commit and compare links; `nil` when `origin` is not on GitHub or GitLab.
    public var links: RemoteLinks?

    public init(version: String, previousTag: String?, tag: String, date: String, commits: [AnalyzedCommit],
                settings: ChangelogSettings, links: RemoteLinks?) {
        self.version = version
        self.previousTag = previousTag
        self.tag = tag
        self.date = date
        self.commits = commits
        self.settings = settings
        self.links = links
    }

    /// relctl's own section for this release (the one prepended to a changelog that is not in the
    /// Keep a Changelog style).
    public var section: String {
        ChangelogRenderer.section(version: version, previousTag: previousTag, tag: tag, date: date,
                                  commits: commits, settings: settings, links: links)
    }
}
