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
    /// The issues each commit closes (`Closes #12` in its body or footers), by sha: linked after the commit's entry
    /// when ``links`` is set. The analysis keeps no bodies, so the workspace reads them again (``IssueReferences``).
    public var closedIssues: [String: [Int]] = [:]
    /// The forge accounts (`alice`, written `@alice`) of each commit's author, by sha, when the forge's API told them
    /// (GitHub's commits API; asked only when a template or `"changelog": {"authors": true}` uses them). Empty: none
    /// known, and the section is as without them.
    public var authors: [String: [String]] = [:]
    /// `changelog.template`: relctl's own section rendered with this template instead of
    /// ``TemplateData/defaultChangelogTemplate`` (a Keep a Changelog file keeps its own layout).
    public var template: Template?

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
        if let template { return template.render(TemplateData.changelog(self)) }
        if settings.authors, !authors.isEmpty { return TemplateData.changelogTemplateWithAuthors.render(TemplateData.changelog(self)) }
        return ChangelogRenderer.section(version: version, previousTag: previousTag, tag: tag, date: date,
                                  commits: commits, settings: settings, links: links, closedIssues: closedIssues)
    }
}
