import RelctlCore

/// One message `relctl lint` checked — a commit, a message file or a title — with its problems.
struct LintedMessage {
    /// The full sha of a commit; nil for a message file or a title.
    var sha: String?
    var header: String
    /// `checked`, or why it was not: `merge` (relctl never counts merges), `fixup` (folded away before release).
    var status: String
    var problems: [LintProblem]
    /// Where a problem is, before `error:`: `1a2b3c4d5e6f`, `.git/COMMIT_EDITMSG:3`, `title`.
    var place: (LintProblem) -> String

    var failed: Bool { problems.contains { $0.severity == .error } }

    var json: JSONOutput {
        .object([
            ("sha", .optional(sha)),
            ("header", .string(header)),
            ("status", .string(status)),
            ("passed", .bool(!failed)),
            ("problems", .array(problems.map { problem in
                .object([
                    ("rule", .string(problem.rule.rawValue)),
                    ("severity", .string(problem.severity.rawValue)),
                    ("line", .int(problem.line)),
                    ("message", .string(problem.message)),
                    ("hint", .string(problem.hint)),
                ])
            })),
        ])
    }
}
