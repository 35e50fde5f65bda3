/// One check of `relctl lint`, named as `.relctl.json`'s `lint.warnings` and `lint.off` name it.
package enum LintRule: String, CaseIterable, Sendable, Hashable {
    /// The header is not `type(scope)!: description` at all.
    case headerFormat = "header-format"
    /// The type is neither a Conventional Commits default, a `bumpRules` key nor a `lint.types` entry.
    case typeEnum = "type-enum"
    /// `feat:add` — no space after the colon, so the commit is not conventional.
    case colonSpace = "colon-space"
    /// `feat: ` — nothing after the colon.
    case subjectEmpty = "subject-empty"
    /// The header is longer than `lint.headerMaxLength` (default 100).
    case headerMaxLength = "header-max-length"
    /// `Breaking change:`, `BREAKING CHANGES:`, `BREAKING_CHANGE:`… — looks like a breaking footer, does not count.
    case breakingFooter = "breaking-footer"
    /// A `BREAKING CHANGE` footer whose value says nothing breaks (`none`, `n/a`), with or without `!`.
    case breakingContradiction = "breaking-contradiction"
    /// Footers with no blank line before them: read as body text (or as part of the subject).
    case footerLeadingBlank = "footer-leading-blank"
    /// A `fixup!`/`squash!`/`amend!` commit on a release branch: it would stay in the history for good.
    case fixup = "fixup"
}
