/// What `relctl lint` accepts: the commit types, the longest header, and how severe each rule is.
package struct LintSettings: Sendable, Hashable {
    /// The Conventional Commits types (the Angular convention's list, as commitlint's config-conventional has it).
    package static let defaultTypes = ["build", "chore", "ci", "docs", "feat", "fix", "perf", "refactor", "revert", "style", "test"]
    package static let defaultHeaderMaxLength = 100

    /// Lowercased; compared case-insensitively, as the parser compares types.
    package var types: Set<String>
    package var headerMaxLength: Int
    /// Rules not listed are errors.
    package var severities: [LintRule: LintSeverity]

    package init(types: [String] = LintSettings.defaultTypes, headerMaxLength: Int = LintSettings.defaultHeaderMaxLength,
                 severities: [LintRule: LintSeverity] = [:]) {
        self.types = Set(types.map { $0.lowercased() })
        self.headerMaxLength = headerMaxLength
        self.severities = severities
    }

    package func severity(of rule: LintRule) -> LintSeverity { severities[rule] ?? .error }
}
