/// One problem `relctl lint` found in a commit message.
package struct LintProblem: Sendable, Hashable {
    package var rule: LintRule
    package var severity: LintSeverity
    /// The line of the message it is on, from 1 (the header's line); leading blank lines count, as in the file.
    package var line: Int
    /// What is wrong, in one line.
    package var message: String
    /// How to fix it.
    package var hint: String

    package init(rule: LintRule, severity: LintSeverity, line: Int, message: String, hint: String) {
        self.rule = rule
        self.severity = severity
        self.line = line
        self.message = message
        self.hint = hint
    }

    /// `message (hint) [rule]`: what the command line prints after `error:` or `warning:`.
    package var text: String { "\(message) (\(hint)) [\(rule.rawValue)]" }
}
