import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

@Suite("relctl lint: ranges, message files, titles, JSON and annotations")
struct LintCommandTests {
    func short(_ sha: String) -> String { String(sha.prefix(12)) }

    @Test func onTheReleaseBranchItChecksTheCommitsSinceTheLastTag() throws {
        let repo = try TestRepository()
        try repo.commit("feet: before the release")          // released already: not checked
        try repo.tag("v1.0.0")
        let good = try repo.commit("feat: dark mode")
        let bad = try repo.commit("feat:no space")
        let fixup = try repo.commit("fixup! feat: dark mode")
        let result = relctl(["lint"], in: repo.path)
        #expect(result.code == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            \(short(fixup)): error: 'fixup! feat: dark mode' is a fixup commit on release branch 'main', where it stays in the history for good (squash it into the commit it fixes before it reaches 'main': git rebase -i --autosquash, or amend that commit) [fixup]
            \(short(bad)): error: no space after the colon in 'feat:no space', so relctl does not read it as conventional (write 'feat: no space') [colon-space]
            checked 3 commits in v1.0.0..HEAD: 2 errors

            """)
        #expect(!result.stderr.contains(short(good)))
    }

    @Test func onAFeatureBranchItChecksTheCommitsNotOnTheReleaseBranch() throws {
        let repo = try TestRepository()
        try repo.commit("feet: on main, not this branch's")
        try repo.git(["checkout", "-q", "-b", "topic"])
        try repo.commit("fixup! feat: fine here, autosquash folds it")
        let bad = try repo.commit("docs: readme\n\nBreaking change: the config moved\n")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("chore: main moves on")
        try repo.git(["checkout", "-q", "topic"])
        let result = relctl(["lint"], in: repo.path)
        #expect(result.code == 2)
        #expect(result.stderr.hasPrefix("\(short(bad)):4: error: 'Breaking change:'") == false)
        #expect(result.stderr.hasPrefix("\(short(bad)): error: 'Breaking change:' is not a breaking-change footer"))
        #expect(result.stderr.hasSuffix("checked 2 commits in main..HEAD: 1 error\n"))
    }

    @Test func aCIFeatureCheckoutUsesOriginsReleaseBranch() throws {
        let origin = try TestRepository()
        try origin.commit("chore: initial commit")
        let clonePath = try makeTempDirectory(prefix: "relctl-clone")
        try origin.clone(to: clonePath + "/c")
        let clone = try TestRepository(existing: clonePath + "/c")
        try clone.git(["checkout", "-q", "--detach"])
        try clone.git(["branch", "-q", "-D", "main"])
        try clone.commit("feat: the pull request")
        let result = relctl(["lint"], in: clone.path)
        #expect(result.code == 0)
        #expect(result.stderr == "checked 1 commit in origin/main..HEAD: no problems\n")
    }

    @Test func anExplicitRangeAndItsMistakes() throws {
        let repo = try TestRepository()
        let first = try repo.commit("chore: one")
        try repo.commit("Merge-looking but plain: not conventional")
        try repo.commit("fix: three")
        let (result, resultTranscript) = goldenRun(repo, ["lint", "--range", "\(first)..HEAD"])
        #expect(result.code == 2)
        Golden.expect(resultTranscript, matches: "lint/range-with-an-error.txt")
        #expect(result.stderr.hasSuffix("checked 2 commits in \(first)..HEAD: 1 error\n"))
        #expect(relctl(["lint", "--range", "HEAD~1.."], in: repo.path).code == 0)
        let unknown = relctl(["lint", "--range", "nope..HEAD"], in: repo.path)
        #expect(unknown.code == 1)
        #expect(unknown.stderr == "error: --range nope..HEAD: 'nope' names no commit here; give a branch, a tag or a sha (fetch it first in a CI checkout)\n")
        expectGoldenRun(repo, ["lint", "--range", "HEAD"], "lint/range-not-a-range.txt")
        #expect(relctl(["lint", "--range", "HEAD~1..", "--title", "x"], in: repo.path).code == 64)
    }

    @Test func mergeCommitsAreSkipped() throws {
        let repo = try TestRepository()
        try repo.commit("chore: one")
        let base = try repo.head()
        try repo.git(["checkout", "-q", "-b", "topic"])
        try repo.commit("feat: on topic", file: "topic.txt")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("fix: on main")
        try repo.git(["merge", "-q", "--no-ff", "-m", "Merge branch 'topic'", "topic"])
        let (result, resultTranscript) = goldenRun(repo, ["lint", "--range", "\(base)..HEAD", "--json"])
        #expect(result.code == 0)
        Golden.expect(resultTranscript, matches: "lint/merge-commits-skipped--json.txt")
    }

    @Test func aMessageFileWithGitsCommentsAndTheScissors() throws {
        let repo = try TestRepository()
        try repo.commit("chore: one")
        try repo.write("msg.txt", """
            feat(ui): dark mode
            # Please enter the commit message for your changes. Lines starting
            # with '#' will be ignored.

            The body.

            Breaking-Change: the theme API moved
            # ------------------------ >8 ------------------------
            # Do not modify or remove the line above.
            diff --git a/x b/x
            BREAKING CHANGES: not part of the message

            """)
        let result = relctl(["lint", "--message-file", "msg.txt"], in: repo.path)
        #expect(result.code == 2)
        #expect(result.stderr == """
            msg.txt:7: error: 'Breaking-Change:' is not a breaking-change footer (only 'BREAKING CHANGE:' or 'BREAKING-CHANGE:', in capitals, counts), so this commit does not make a major release (write 'BREAKING CHANGE: the theme API moved') [breaking-footer]
            checked msg.txt: 1 error

            """)
        // A good message file is silent, as a hook should be; core.commentChar is followed.
        try repo.git(["config", "core.commentChar", ";"])
        try repo.write("good.txt", "fix: crash\n; comment: not part of the message\n")
        let good = relctl(["lint", "--message-file", "good.txt"], in: repo.path)
        #expect(good.code == 0)
        #expect(good.stderr.isEmpty)
        #expect(relctl(["lint", "--message-file", "missing.txt"], in: repo.path).stderr.hasPrefix("error: missing.txt: cannot read the message file"))
    }

    @Test func aTitleAndItsGitHubAnnotation() throws {
        let repo = try TestRepository()
        try repo.commit("chore: one")
        let env = ["GITHUB_ACTIONS": "true"]
        let result = relctl(["lint", "--title", "feat(ui) dark mode"], in: repo.path, environment: env)
        #expect(result.code == 2)
        #expect(result.stderr == """
            title: error: no colon after 'feat(ui)' in 'feat(ui) dark mode', so relctl ignores it (write 'feat(ui): dark mode') [header-format]
            ::error title=relctl lint%3A title::no colon after 'feat(ui)' in 'feat(ui) dark mode', so relctl ignores it (write 'feat(ui): dark mode') [header-format]
            checked the title: 1 error

            """)
        let good = relctl(["lint", "--title", "feat(ui): dark mode"], in: repo.path, environment: env)
        #expect(good.code == 0)
        #expect(!good.stderr.contains("::"))
    }

    @Test func warningsPassAndAreAnnotatedAsWarnings() throws {
        let repo = try TestRepository()
        try repo.write(".relctl.json", #"{"lint": {"headerMaxLength": 20, "warnings": ["header-max-length"], "types": ["deps"]}}"#)
        try repo.commitAll("chore: config")
        try repo.tag("v1.0.0")
        let long = try repo.commit("deps: a header longer than twenty")
        let (result, resultTranscript) = goldenRun(repo, ["lint", "--json"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.code == 0)
        Golden.expect(resultTranscript, matches: "lint/warnings-annotated-under-github-actions.txt")
        #expect(result.stdout == """
            {"schemaVersion":1,"range":"v1.0.0..HEAD","passed":true,"errors":0,"warnings":1,"commits":[{"sha":"\(long)","header":"deps: a header longer than twenty","status":"checked","passed":true,"problems":[{"rule":"header-max-length","severity":"warning","line":1,"message":"the header is 33 characters long, more than 20","hint":"shorten the description and move the details to the body, after a blank line"}]}]}

            """)
    }

    @Test func bumpRulesTypesAreKnown() throws {
        let repo = try TestRepository()
        try repo.write(".relctl.json", #"{"bumpRules": {"security": "patch"}}"#)
        try repo.commitAll("chore: config")
        #expect(relctl(["lint", "--title", "security: rotate keys"], in: repo.path).code == 0)
    }

    @Test(arguments: [
        (#"{"lint": {"typs": []}}"#, "error: .relctl.json:1: unknown key 'lint.typs'; did you mean 'lint.types'?\n"),
        ("{\n  \"lint\": {\n    \"warnings\": [\"header-max-lenght\"]\n  }\n}", "error: .relctl.json:3: 'lint.warnings' names an unknown rule 'header-max-lenght'; did you mean 'header-max-length'?\n"),
        (#"{"lint": {"headerMaxLength": 0}}"#, "error: .relctl.json:1: 'lint.headerMaxLength' must be a positive whole number, not 0; to stop checking the length, add \"header-max-length\" to \"off\"\n"),
        (#"{"lint": {"types": ["my type"]}}"#, "error: .relctl.json:1: 'lint.types' must list commit types as strings of letters, digits, '-' and '_', like [\"deps\", \"i18n\"]\n"),
        (#"{"lint": {"warnings": ["fixup"], "off": ["fixup"]}}"#, "error: .relctl.json:1: rule 'fixup' is in both 'lint.warnings' and 'lint.off'; keep it in one\n"),
    ])
    func theLintKeyIsStrict(_ config: String, _ expected: String) throws {
        let repo = try TestRepository()
        try repo.write(".relctl.json", config)
        try repo.commitAll("chore: config")
        let result = relctl(["lint", "--title", "feat: x"], in: repo.path)
        #expect(result.code == 1)
        #expect(result.stderr == expected)
    }
}
