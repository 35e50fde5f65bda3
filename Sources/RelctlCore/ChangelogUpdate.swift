/// What a release does to its changelog file.
public struct ChangelogUpdate: Hashable, Sendable {
    /// The whole file after the release.
    public var text: String
    /// The release's section as it stands in ``text``, with `\n` line endings and one blank line at
    /// the end: what `relctl changelog` prints and the release notes are made from.
    public var section: String

    public init(text: String, section: String) {
        self.text = text
        self.section = section
    }
}

extension ChangelogFile {
    /// `existing` (`nil`: no file yet) with the section of `release`.
    ///
    /// A Keep a Changelog file (an `## [Unreleased]` heading above its releases, see ``KeepAChangelog``)
    /// gets the release where its Unreleased section stands, with the hand-written entries and the link
    /// definitions brought up to date. Any other file gets relctl's own section prepended
    /// (``prepend(section:to:)``), byte for byte as before.
    ///
    /// Check ``containsVersion(_:in:)`` first: this function does not look for duplicates.
    public static func update(_ existing: String?, with release: ChangelogRelease) -> ChangelogUpdate {
        if let existing, let file = KeepAChangelog(existing) {
            return file.releasing(release)
        }
        let section = release.section
        return ChangelogUpdate(text: prepend(section: section, to: existing), section: section)
    }

    /// The Unreleased section as it reads with the commits of `release` in it (`relctl changelog
    /// --unreleased`): a Keep a Changelog file's own `## [Unreleased]` heading and hand-written entries
    /// with the generated entries merged as a release would merge them; otherwise relctl's own section.
    public static func unreleasedSection(_ existing: String?, with release: ChangelogRelease) -> String {
        if let existing, let file = KeepAChangelog(existing) {
            return file.unreleasedPreview(release)
        }
        return release.section
    }
}
