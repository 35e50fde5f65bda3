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

/// `relctl lint`: checks commit messages with the parser `relctl next` uses, before they reach a release.
enum LintCommand {
    static let spec = CommandSpec(
        name: "lint",
        summary: "Check commit messages: conventional headers, known types, breaking-change footers that count.",
        options: [
            .value("--range", "A..B", "The commits to check (git revisions; 'A..' is A..HEAD)."),
            .value("--message-file", "FILE", "Check one message file, as the commit-msg hook gets it ('#' lines are git's comments; '-' reads stdin).",
                   completion: .file),
            .value("--title", "TEXT", "Check a pull-request title: the header of the squash commit it becomes."),
            .repo, .config, .json,
        ] + OptionSpec.projects,
        discussion: """
        By default: on a release branch (one of 'branches'), the commits since the last release tag, the ones
        'relctl next' reads; on any other branch, the commits on HEAD that are not on the first release branch
        that exists (locally, else origin/<branch>). What git writes itself passes: merges (and a merge's
        message: Merge branch 'x', Merge pull request #N from …), as relctl never counts them; Revert "…" with
        its 'This reverts commit' line; fixup!/squash!/amend! commits, except on a release branch, where they are
        errors; a message file with nothing but comments (git aborts that commit itself).

        Each problem is one line with the fix and the rule: '<sha>: error: …', 'FILE:line: error: …' or
        'title: error: …'. Rules: header-format, type-enum, colon-space, subject-empty, header-max-length,
        breaking-footer, breaking-contradiction, footer-leading-blank, fixup. Types are the Conventional Commits
        defaults (build chore ci docs feat fix perf refactor revert style test), the bumpRules keys and
        "lint": {"types": [...]}; "headerMaxLength" (100), "warnings" and "off" (rule names) tune the rest.
        Under GitHub Actions each problem is also an error (or warning) annotation.

        EXIT CODES: 0 no errors (warnings allowed), 1 failure, 2 a message has errors, 64 usage error.
        """,
        run: run)

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
        let modes = ["--range", "--message-file", "--title"].filter { arguments.value($0) != nil }
        if modes.count > 1 {
            throw UsageError(message: "\(modes.joined(separator: " and ")) cannot be combined; check one thing at a time", usage: spec.usage)
        }
        let opened = try Workspace.open(RepositoryLocation(arguments), context)
        // Lint checks messages: at the root (or with --all) the whole repository's, as one app; with --project (or
        // inside a project's folder) the commits since that project's last release.
        let selection = arguments.has("--all") || (arguments.values("--project").isEmpty && ProjectSelection.inferred(arguments, context, workspace: opened) == nil)
            ? ProjectSelection(workspaces: [opened], hasProjects: false)
            : try ProjectSelection.select(arguments, context, workspace: opened, usage: spec.usage, atRoot: .every)
        try selection.each(context, json: arguments.has("--json")) { workspace, context in
            try lint(workspace, arguments, context)
        }
    }

    /// One project's lint (or the repository's).
    static func lint(_ workspace: Workspace, _ arguments: ParsedArguments, _ context: CommandContext) throws {
        let settings = workspace.config.lintSettings
        var checked: [LintedMessage] = []
        let what: JSONOutput
        let scope: String
        if let title = arguments.value("--title") {
            checked = [LintedMessage(sha: nil, header: title, status: "checked",
                                     problems: CommitLinter.lintTitle(title, settings: settings), place: { _ in "title" })]
            what = .object([("title", .string(title))])
            scope = "the title"
        } else if let file = arguments.value("--message-file") {
            let shown = file == "-" ? "<stdin>" : file
            let text = try CommitMessageFile.read(file, workspace: workspace, context: context)
            let status: String
            var problems: [LintProblem] = []
            let summary = ConventionalCommitParser.summary(of: text.message)
            if text.isEmpty {
                status = "empty"   // git aborts the commit itself
            } else if CommitMessageFile.concludesMerge(file, workspace: workspace, context: context) {
                status = "merge"
            } else if text.onlyComments {
                // No editor (git commit -m/-F): git records comment lines as they are, unless told --cleanup=strip,
                // which the hook cannot see; then it aborts the commit itself. Never block it.
                status = "comments"
                if settings.severity(of: .headerFormat) != .off {
                    problems = [LintProblem(rule: .headerFormat, severity: .warning, line: 1,
                                            message: "the message has only comment lines: git records them as the message when it opens no editor (git commit -m or -F without --cleanup=strip), and relctl ignores such a commit",
                                            hint: "start the message with a header like 'fix(login): …', or leave it empty to abort the commit")]
                }
            } else {
                let releaseBranch = try workspace.config.currentReleaseBranch(in: workspace.repository)
                problems = CommitLinter.lint(text.message, settings: settings, releaseBranch: releaseBranch)
                status = GitMergeMessage.isMergeHeader(summary) ? "merge"
                    : CommitAnalyzer.isFixup(summary) && releaseBranch == nil ? "fixup" : "checked"
            }
            checked = [LintedMessage(sha: nil, header: summary, status: status,
                                     problems: problems, place: { "\(shown):\(text.fileLine($0.line))" })]
            what = .object([("messageFile", .string(file))])
            scope = shown
        } else {
            let target = try LintTarget.make(workspace, range: arguments.value("--range"))
            for record in target.commits {
                let summary = ConventionalCommitParser.summary(of: record.message)
                let short = String(record.id.hex.prefix(12))
                let status = record.parentCount > 1 || GitMergeMessage.isMergeHeader(summary) ? "merge"
                    : CommitAnalyzer.isFixup(summary) && target.releaseBranch == nil ? "fixup" : "checked"
                let problems = CommitLinter.lint(record.message, settings: settings, parentCount: record.parentCount,
                                                 releaseBranch: target.releaseBranch)
                checked.append(LintedMessage(sha: record.id.hex, header: summary, status: status, problems: problems, place: { _ in short }))
            }
            what = .object([("range", .string(target.range))])
            scope = "\(target.commits.count) commit\(target.commits.count == 1 ? "" : "s") in \(target.range)"
        }
        report(checked, what: what, scope: scope, json: arguments.has("--json"),
               quietWhenClean: arguments.value("--message-file") != nil, context: context)
        if checked.contains(where: \.failed) { throw ExitCode.lintFailed }
    }

    private static func report(_ checked: [LintedMessage], what: JSONOutput, scope: String, json: Bool, quietWhenClean: Bool,
                               context: CommandContext) {
        let output = context.output
        var errors = 0, warnings = 0
        for message in checked {
            for problem in message.problems {
                let place = message.place(problem)
                let isError = problem.severity == .error
                if isError { errors += 1 } else { warnings += 1 }
                output.labeled(place, isError ? "error:" : "warning:", isError ? .red : .yellow, problem.text)
                let title = "relctl lint: \(place)"
                let annotation = isError ? context.ci?.errorAnnotation(title: title, message: problem.text)
                    : context.ci?.warningAnnotation(title: title, message: problem.text)
                if let annotation { output.message(annotation) }
            }
        }
        let counts = errors + warnings == 0 ? "no problems"
            : [(errors, "error"), (warnings, "warning")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }.joined(separator: ", ")
        // The commit-msg hook stays quiet on a good message, as git's own hooks do.
        if errors + warnings > 0 || !quietWhenClean { output.message("checked \(scope): \(counts)") }
        guard json else { return }
        guard case .object(let target) = what else { return }
        output.result(JSONOutput.object([("schemaVersion", .int(1))] + target + [
            ("passed", .bool(errors == 0)),
            ("errors", .int(errors)),
            ("warnings", .int(warnings)),
            ("commits", .array(checked.map(\.json))),
        ]).rendered())
    }
}

extension ExitCode {
    /// `relctl lint`: a message has errors.
    static let lintFailed = ExitCode(rawValue: 2)
}
