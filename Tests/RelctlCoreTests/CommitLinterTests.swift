import Testing
@testable import RelctlCore

@Suite("CommitLinter: one rule at a time")
struct CommitLinterTests {
    let settings = LintSettings()

    func rules(_ message: String, releaseBranch: String? = nil, settings: LintSettings? = nil) -> [String] {
        CommitLinter.lint(message, settings: settings ?? self.settings, releaseBranch: releaseBranch).map { "\($0.rule.rawValue)@\($0.line)" }
    }

    @Test(arguments: ["feat: dark mode", "fix(login)!: keep the session", "FEAT: upper case type", "chore(deps): bump",
                      "feat: x\n\nBody.\n\nBREAKING CHANGE: the API moved\nRefs: #12",
                      "Revert \"feat: dark mode\"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.\n"])
    func aGoodMessageHasNoProblem(_ message: String) {
        #expect(rules(message) == [])
    }

    @Test func unknownTypeSuggestsTheNearestKnownOne() throws {
        let problem = try #require(CommitLinter.lint("feet: add login", settings: settings).first)
        #expect(problem.rule == .typeEnum)
        #expect(problem.severity == .error)
        #expect(problem.line == 1)
        #expect(problem.hint.hasPrefix("did you mean 'feat'?"))
        let far = try #require(CommitLinter.lint("wibble: x", settings: settings).first)
        #expect(far.hint.hasPrefix("use one of build, chore, ci, docs, feat, fix, perf, refactor, revert, style, test"))
    }

    @Test func configuredTypesAreKnown() {
        #expect(rules("deps: bump", settings: LintSettings(types: LintSettings.defaultTypes + ["deps"])) == [])
        #expect(rules("deps: bump") == ["type-enum@1"])
    }

    @Test func missingSpaceAfterTheColon() throws {
        let problem = try #require(CommitLinter.lint("feat(ui):dark mode", settings: settings).first)
        #expect(problem.rule == .colonSpace)
        #expect(problem.hint == "write 'feat(ui): dark mode'")
    }

    @Test func emptyDescription() {
        #expect(rules("fix: ") == ["subject-empty@1"])
        #expect(rules("fix(api)!:") == ["subject-empty@1"])
    }

    @Test func headerFormat() {
        #expect(rules("Add login screen") == ["header-format@1"])
        #expect(rules("feat(): x") == ["header-format@1"])
        #expect(rules("feat (ui): x") == ["header-format@1"])
        #expect(CommitLinter.lint("fix login", settings: settings).first?.hint == "write 'fix: login'")
        #expect(rules("") == ["header-format@1"])
    }

    @Test func headerLongerThanTheLimit() {
        let long = "feat: " + String(repeating: "a", count: 94)   // 100 characters: allowed
        #expect(rules(long) == [])
        #expect(rules(long + "b") == ["header-max-length@1"])
        #expect(rules("feat: a longer header", settings: LintSettings(headerMaxLength: 10)) == ["header-max-length@1"])
    }

    @Test(arguments: ["Breaking change: drops iOS 15", "BREAKING CHANGES: drops iOS 15", "BREAKING_CHANGE: drops iOS 15",
                      "breaking-change: drops iOS 15", "BREAKING: drops iOS 15", "BREAKING CHANGE:drops iOS 15"])
    func nearMissBreakingFooters(_ footer: String) {
        let message = "feat: x\n\nSome body.\n\n" + footer + "\n"
        #expect(rules(message) == ["breaking-footer@5"])
        // And indeed the parser does not count it: what the rule says is what `relctl next` does.
        #expect(ConventionalCommitParser.parse(message)?.isBreaking == false)
    }

    @Test func aBangTheFooterContradicts() {
        #expect(rules("feat!: x\n\nBREAKING CHANGE: none\n") == ["breaking-contradiction@3"])
        #expect(rules("feat!: x\n\nBREAKING-CHANGE: N/A.\n") == ["breaking-contradiction@3"])
        // Without `!`, a footer saying "none" still makes the commit breaking.
        #expect(rules("feat: x\n\nBREAKING CHANGE: no\n") == ["breaking-contradiction@3"])
        #expect(ConventionalCommitParser.parse("feat: x\n\nBREAKING CHANGE: no\n")?.isBreaking == true)
        #expect(rules("feat!: x\n\nBREAKING CHANGE: the v1 endpoints are gone\n") == [])
    }

    @Test func footersWithoutABlankLineBeforeThem() {
        // Glued to the body: a breaking change that does not count.
        let glued = "feat: x\n\nThe body.\nBREAKING CHANGE: the API moved\n"
        #expect(rules(glued) == ["footer-leading-blank@4"])
        #expect(ConventionalCommitParser.parse(glued)?.isBreaking == false)
        // Trailers at the end of the body.
        #expect(rules("fix: x\n\nThe body.\nRefs: #12\nReviewed-by: Ann\n") == ["footer-leading-blank@4"])
        // Right after the header: git reads it as part of the subject.
        #expect(rules("fix: x\nRefs: #12\n") == ["footer-leading-blank@2"])
        // A colon in the middle of a body paragraph is prose, not a footer.
        #expect(rules("fix: x\n\nNote: this is prose\nthat goes on.\n\nRefs: #12\n") == [])
    }

    @Test func fixupCommitsFailOnlyOnAReleaseBranch() throws {
        #expect(rules("fixup! feat: x") == [])
        #expect(rules("squash! feat: x", releaseBranch: "main") == ["fixup@1"])
        let problem = try #require(CommitLinter.lint("amend! fix: y", settings: settings, releaseBranch: "release/2.1").first)
        #expect(problem.message.contains("release branch 'release/2.1'"))
    }

    @Test func anAmendCommitsNewMessageIsChecked() {
        // git commit --fixup=amend:<commit>: the body becomes that commit's message when autosquash folds it in.
        #expect(rules("amend! feat: dark mode\n\nfeat(ui): dark mode\n\nBREAKING CHANGE: the theme API moved\n") == [])
        #expect(rules("amend! feat: dark mode\n\nfeet: dark mode\n\nBreaking change: the theme API moved\n") == ["type-enum@3", "breaking-footer@5"])
        #expect(rules("amend! feat: dark mode\n") == [])
        #expect(rules("fixup! feat: dark mode\n\nfeet: not a message, only notes\n") == [])
        #expect(rules("amend! feat: dark mode\n\nfeet: x\n", releaseBranch: "main") == ["fixup@1"])
    }

    @Test func mergesAreNotChecked() {
        #expect(CommitLinter.lint("merging: whatever the author wrote", settings: settings, parentCount: 2).isEmpty)
        // A merge's message on a one-parent commit (a cherry-picked merge): relctl does not count it either.
        #expect(rules("Merge branch 'topic'") == [])
        #expect(rules("Merge branch 'feature/login' into 'main'\n\nAdd the login screen\n\nSee merge request mobile/app!12") == [])
        // A person's header that starts with "Merge" is still checked.
        #expect(rules("Merge the two configs") == ["header-format@1"])
        #expect(rules("Merge-looking but plain: not conventional") == ["header-format@1"])
    }

    @Test(arguments: [
        "Merge branch 'topic'", "Merge branch 'topic' into release/2.1", "Merge branch 'main' of https://github.com/o/app",
        "Merge branch 'main' of ../other", "Merge branches 'a' and 'b'", "Merge branches 'a', 'b' and 'c' into main",
        "Merge remote-tracking branch 'origin/main'", "Merge remote-tracking branch 'origin/main' into feature/x",
        "Merge pull request #123 from owner/feature/login", "Merge tag 'v1.2.0'", "Merge tags 'v1' and 'v2'",
        "Merge commit 'abc1234'", "Merge commit 'abc1234' into topic", "Merge branch 'a'; commit 'abc1234'",
        "Merge branch 'feature/x' into 'main'", "Merge https://github.com/o/app", "Merge git@github.com:o/app.git",
        "Merged in feature/login (pull request #12)", "Merged PR 1234: Add the login screen",
    ])
    func gitsAndTheForgesMergeHeaders(_ header: String) {
        #expect(GitMergeMessage.isMergeHeader(header))
    }

    @Test(arguments: ["Merge", "Merge the two configs", "Merge pull request from x", "Merge pull request #12", "Merged PR x: y",
                      "merge branch 'x'", "Merged the fix", "feat: Merge branch 'x'", "Merge everything"])
    func headersThatAreNotGitsMerges(_ header: String) {
        #expect(!GitMergeMessage.isMergeHeader(header))
    }

    @Test func gitsSquashHeaderSaysWhatIsLost() throws {
        let problem = try #require(CommitLinter.lint("Squashed commit of the following:\n\ncommit abc\n", settings: settings).first)
        #expect(problem.rule == .headerFormat)
        #expect(problem.text == "'Squashed commit of the following:' is the header 'git merge --squash' writes, so relctl ignores this commit and every change it squashes (write a header that sums them up, like 'feat(login): …'; the squashed messages can stay in the body) [header-format]")
    }

    @Test func revertsGitWroteAreAccepted() {
        #expect(rules("Revert \"feat: dark mode\"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.\n") == [])
        #expect(rules("Revert \"Revert \"feat: dark mode\"\"\n\nThis reverts commit 0123456.\n") == [])
        #expect(rules("Reapply \"feat: dark mode\"\n\nThis reverts commit 0123456.\n") == [])
        #expect(rules("Revert \"Merge branch 'x'\"\n\nThis reverts commit 0123456, reversing\nchanges made to 89abcde.\n") == [])
        // Without git's body it is a header like any other.
        #expect(rules("Revert \"feat: dark mode\"") == ["header-format@1"])
    }

    @Test func severitiesAreConfigurable() {
        let tuned = LintSettings(severities: [.headerMaxLength: .warning, .typeEnum: .off])
        let problems = CommitLinter.lint("wibble: " + String(repeating: "a", count: 120), settings: tuned)
        #expect(problems.map(\.rule) == [.headerMaxLength])
        #expect(problems.first?.severity == .warning)
    }

    @Test func linesCountLeadingBlankLines() {
        #expect(rules("\n\nfeet: x\n") == ["type-enum@3"])
    }

    @Test func titles() {
        #expect(CommitLinter.lintTitle("feat(ui): dark mode", settings: settings).isEmpty)
        #expect(CommitLinter.lintTitle("feat(ui) dark mode", settings: settings).map(\.rule) == [.headerFormat])
        #expect(CommitLinter.lintTitle("  ", settings: settings).map(\.rule) == [.headerFormat])
    }
}
