/// How a changelog writes its release headings, read from its newest one so the next follows it:
/// `## [1.2.0] - 2024-01-02` gives `## [1.3.0] - 2026-11-30`, `## v1.2.0 (2024-01-02)` gives
/// `## v1.3.0 (2026-11-30)`, `## [1.2.0](…compare/v1.1.0...v1.2.0)` gives an inline compare link.
struct ReleaseHeadingStyle: Hashable, Sendable {
    var bracketed: Bool
    /// Written before the version (`v` for `[v1.2.0]`).
    var labelPrefix: String
    /// `[1.3.0](compare URL)` rather than `[1.3.0]` with a link definition at the bottom.
    var inlineLink: Bool
    /// What comes between the label and the date (` - `, ` – `, ` (`); `nil`: no date.
    var dateSeparator: String?
    /// What follows the date (`)` after ` (`).
    var dateClosing: String

    /// Keep a Changelog's own: `## [1.3.0] - 2026-11-30` (or `## 1.3.0 - 2026-11-30` without brackets).
    static func keepAChangelog(bracketed: Bool, inlineLink: Bool) -> ReleaseHeadingStyle {
        ReleaseHeadingStyle(bracketed: bracketed, labelPrefix: "", inlineLink: bracketed && inlineLink,
                            dateSeparator: " - ", dateClosing: "")
    }

    /// The style of `heading`, a release heading (its ``ChangelogHeading/versionPrefix`` is not `nil`).
    /// Text after the date (` [YANKED]`) is not carried over; a date that is not `YYYY-MM-DD` becomes one.
    init(of heading: ChangelogHeading) {
        bracketed = heading.bracketed
        labelPrefix = heading.versionPrefix ?? ""
        inlineLink = heading.link != nil
        dateClosing = ""
        if let date = heading.isoDate {
            let before = String(date.before)
            let trimmed = before.filter { $0 != " " && $0 != "\t" }
            if before.count <= 12, trimmed.count <= 2, !trimmed.contains(where: { $0.isLetter || $0.isNumber || $0 == "[" || $0 == "]" }) {
                dateSeparator = before.isEmpty ? " " : before
                if trimmed.hasSuffix("(") { dateClosing = ")" }
            } else {
                dateSeparator = " - "
            }
        } else {
            dateSeparator = heading.rest.allSatisfy({ $0 == " " || $0 == "\t" }) ? nil : " - "
        }
    }

    init(bracketed: Bool, labelPrefix: String, inlineLink: Bool, dateSeparator: String?, dateClosing: String) {
        self.bracketed = bracketed
        self.labelPrefix = labelPrefix
        self.inlineLink = inlineLink
        self.dateSeparator = dateSeparator
        self.dateClosing = dateClosing
    }

    /// The label of `version`: `1.3.0`, `v1.3.0`.
    func label(_ version: String) -> String { labelPrefix + version }

    /// The heading line (no line ending). `link` is used only by an inline-link style.
    func heading(version: String, date: String, link: String?) -> String {
        var out = "## "
        if bracketed {
            out += "[" + label(version) + "]"
            if inlineLink, let link { out += "(" + link + ")" }
        } else {
            out += label(version)
        }
        if let dateSeparator { out += dateSeparator + date + dateClosing }
        return out
    }
}
