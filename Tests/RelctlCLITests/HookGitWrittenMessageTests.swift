import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// What git writes itself goes through the installed hook: real `git merge`, `git pull`, `git revert`,
/// `git commit --fixup`, with relctl's hook installed by `relctl hooks install` and run by git.
@Suite("relctl hooks: git's own messages pass the commit-msg hook")
struct HookGitWrittenMessageTests {
    /// A repository with `chore: initial commit` and relctl's hook installed.
    func hooked() throws -> TestRepository {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        let installed = try runRelctl(["hooks", "install"], in: repo.path)
        #expect(installed.status == 0)
        return repo
    }

    /// git as a developer runs it (hooks on), with no editor unless `editor` says which.
    func git(_ repo: TestRepository, _ arguments: [String], editor: String? = nil) throws -> ProcessResult {
        var env = repo.gitEnvironment()
        env["GIT_MERGE_AUTOEDIT"] = "no"
        env["GIT_EDITOR"] = editor ?? ":"
        return try runProcess(TestRepository.gitPath, ["-C", repo.path] + arguments, environment: env)
    }

    func parents(_ repo: TestRepository) throws -> Int {
        try repo.git(["rev-list", "--parents", "-n", "1", "HEAD"]).split(separator: " ").count - 1
    }

    let rejected = ".git/COMMIT_EDITMSG:1: error: unknown type 'feet' in 'feet: login' (did you mean 'feat'? Or add 'feet' to \"lint\": {\"types\": [...]} in .relctl.json) [type-enum]\nchecked .git/COMMIT_EDITMSG: 1 error\n"

    @Test func gitMergeWritesItsOwnMessageThroughTheHook() throws {
        let repo = try hooked()
        try repo.git(["checkout", "-q", "-b", "topic"])
        try repo.commit("feat: on topic", file: "topic.txt")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("fix: on main")
        let merged = try git(repo, ["merge", "-q", "--no-ff", "topic"])
        #expect(merged.status == 0)
        #expect(merged.stderr == "")
        #expect(try parents(repo) == 2)
        #expect(try repo.git(["log", "-1", "--format=%s"]) == "Merge branch 'topic'\n")
        // A merge with a message of the author's own is not counted either: never blocked.
        try repo.git(["checkout", "-q", "-b", "second"])
        try repo.commit("feat: second", file: "second.txt")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("fix: main again")
        #expect(try git(repo, ["merge", "-q", "--no-ff", "-m", "bring in the second branch", "second"]).status == 0)
        // A bad message is still rejected, with the same error as before.
        let bad = try git(repo, ["commit", "-q", "--allow-empty", "-m", "feet: login"])
        #expect(bad.status == 1)
        #expect(bad.stderr == rejected)
    }

    @Test func gitPullThatMergesFromALocalRemote() throws {
        let origin = try TestRepository()
        try origin.commit("chore: initial commit")
        let folder = try makeTempDirectory(prefix: "relctl-pull")
        try origin.clone(to: folder + "/clone")
        let clone = try TestRepository(existing: folder + "/clone")
        #expect(try runRelctl(["hooks", "install"], in: clone.path).status == 0)
        try origin.commit("feat: upstream", file: "upstream.txt")
        try clone.commit("fix: local", file: "local.txt")
        let pulled = try git(clone, ["pull", "-q", "--no-rebase", "origin", "main"])
        #expect(pulled.status == 0)
        #expect(pulled.stderr == "")
        #expect(try parents(clone) == 2)
        #expect(try clone.git(["log", "-1", "--format=%s"]).hasPrefix("Merge branch 'main' of "))
        // A remote-tracking branch merged by hand.
        try origin.commit("feat: more upstream", file: "upstream2.txt")
        try clone.git(["fetch", "-q", "origin"])
        try clone.commit("fix: more local", file: "local2.txt")
        #expect(try git(clone, ["merge", "-q", "--no-ff", "origin/main"]).status == 0)
        #expect(try clone.git(["log", "-1", "--format=%s"]) == "Merge remote-tracking branch 'origin/main'\n")
    }

    @Test func aMergeStoppedOnAConflictIsConcludedWithNoEdit() throws {
        let repo = try hooked()
        try repo.git(["checkout", "-q", "-b", "topic"])
        try repo.commit("feat: topic's line", file: "same.txt")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("fix: main's line", file: "same.txt")
        let stopped = try git(repo, ["merge", "--no-ff", "topic"])
        #expect(stopped.status == 1)
        try repo.write("same.txt", "resolved\n")
        try repo.git(["add", "same.txt"])
        let concluded = try git(repo, ["commit", "--no-edit", "-q"])
        #expect(concluded.status == 0)
        #expect(concluded.stderr == "")
        #expect(try parents(repo) == 2)
        // With an editor opened too (git's conflict comments in the file).
        try repo.git(["checkout", "-q", "-b", "topic2"])
        try repo.commit("feat: topic2's line", file: "same.txt")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("fix: main's second line", file: "same.txt")
        #expect(try git(repo, ["merge", "--no-ff", "topic2"]).status == 1)
        try repo.write("same.txt", "resolved again\n")
        try repo.git(["add", "same.txt"])
        #expect(try git(repo, ["commit", "-q"], editor: "true").status == 0)
        #expect(try parents(repo) == 2)
    }

    @Test func gitRevertWithNoEdit() throws {
        let repo = try hooked()
        try repo.commit("feat: dark mode", file: "dark.txt")
        let reverted = try git(repo, ["revert", "HEAD", "--no-edit"])
        #expect(reverted.status == 0)
        #expect(try repo.git(["log", "-1", "--format=%s"]) == "Revert \"feat: dark mode\"\n")
        // The revert of the revert (git 2.43 and later write `Reapply "…"`, earlier ones `Revert "Revert "…""`).
        #expect(try git(repo, ["revert", "HEAD", "--no-edit"]).status == 0)
    }

    @Test func fixupSquashAndAmendCommitsOnAFeatureBranch() throws {
        let repo = try hooked()
        try repo.git(["checkout", "-q", "-b", "topic"])
        try repo.commit("feat: dark mode", file: "dark.txt")
        let fixup = try git(repo, ["commit", "-q", "--allow-empty", "--fixup", "HEAD"])
        #expect(fixup.status == 0)
        #expect(fixup.stderr == "")
        #expect(try repo.git(["log", "-1", "--format=%s"]) == "fixup! feat: dark mode\n")
        let squash = try git(repo, ["commit", "-q", "--allow-empty", "--squash", "HEAD~1", "-m", "and the settings screen"])
        #expect(squash.status == 0)
        #expect(try repo.git(["log", "-1", "--format=%s"]) == "squash! feat: dark mode\n")
        // git commit --squash without -m opens the editor on "squash! …" and git's comments.
        #expect(try git(repo, ["commit", "-q", "--allow-empty", "--squash", "HEAD~2"], editor: "true").status == 0)
        let amend = try git(repo, ["commit", "-q", "--allow-empty", "--fixup=amend:HEAD~3"], editor: "true")
        #expect(amend.status == 0)
        #expect(try repo.git(["log", "-1", "--format=%s"]) == "amend! feat: dark mode\n")
        // The message an amend! commit carries replaces the amended one's at autosquash: it is checked.
        let badAmend = try git(repo, ["commit", "-q", "--allow-empty", "--fixup=amend:HEAD~4"], editor: "sed -i 3s/feat/feet/")
        #expect(badAmend.status == 1)
        #expect(badAmend.stderr == ".git/COMMIT_EDITMSG:3: error: unknown type 'feet' in 'feet: dark mode' (did you mean 'feat'? Or add 'feet' to \"lint\": {\"types\": [...]} in .relctl.json) [type-enum]\nchecked .git/COMMIT_EDITMSG: 1 error\n")
    }

    @Test func aFixupOnTheReleaseBranchIsStillAnError() throws {
        let repo = try hooked()
        try repo.commit("feat: dark mode", file: "dark.txt")
        let before = try repo.head()
        let fixup = try git(repo, ["commit", "-q", "--allow-empty", "--fixup", "HEAD"])
        #expect(fixup.status == 1)
        #expect(fixup.stderr == ".git/COMMIT_EDITMSG:1: error: 'fixup! feat: dark mode' is a fixup commit on release branch 'main', where it stays in the history for good (squash it into the commit it fixes before it reaches 'main': git rebase -i --autosquash, or amend that commit) [fixup]\nchecked .git/COMMIT_EDITMSG: 1 error\n")
        #expect(try repo.head() == before)
    }

    @Test func aMessageOfOnlyCommentsLetsGitAbort() throws {
        let repo = try hooked()
        let before = try repo.head()
        let comments = try makeTempDirectory(prefix: "relctl-comments") + "/edited"
        try Data("# Please enter the commit message for your changes. Lines starting\n# with '#' will be ignored.\n\n   \n#\n".utf8)
            .write(to: URL(fileURLWithPath: comments))
        // The editor leaves nothing but comments: relctl says nothing, git aborts.
        let edited = try git(repo, ["commit", "--allow-empty"], editor: "cp \(comments)")
        #expect(edited.status == 1)
        #expect(edited.stderr == "Aborting commit due to empty commit message.\n")
        #expect(try repo.head() == before)
        // So with --cleanup=strip and no editor (git strips, then aborts); relctl only warns, as it cannot see the option.
        let stripped = try git(repo, ["commit", "--allow-empty", "--cleanup=strip", "-F", comments])
        #expect(stripped.status == 1)
        #expect(stripped.stderr.hasSuffix("checked .git/COMMIT_EDITMSG: 1 warning\nAborting commit due to empty commit message.\n"))
        // An empty message and a blank one: git's abort, no word from relctl.
        let blank = try git(repo, ["commit", "--allow-empty", "-m", "  "])
        #expect(blank.status == 1)
        #expect(blank.stderr == "Aborting commit due to empty commit message.\n")
        #expect(try repo.head() == before)
    }

    @Test func withoutAnEditorGitKeepsCommentLinesSoTheyAreChecked() throws {
        let repo = try hooked()
        // git commit -m records "#12 fix login" and its body as they are (cleanup "whitespace"): not a conventional header.
        let hashed = try git(repo, ["commit", "-q", "--allow-empty", "-m", "#12 fix login\n\nThe session survives a restart."])
        #expect(hashed.status == 1)
        #expect(hashed.stderr == ".git/COMMIT_EDITMSG:1: error: '#12 fix login' is not a conventional header (type(scope): description), so relctl ignores it (start it with a type and a colon, like 'fix: …' or 'feat(scope): …') [header-format]\nchecked .git/COMMIT_EDITMSG: 1 error\n")
        // Only comment lines, recorded as they are (or stripped, and the commit aborted, under --cleanup=strip,
        // which the hook cannot see): a warning, never a block.
        let only = try git(repo, ["commit", "-q", "--allow-empty", "-m", "# just a note"])
        #expect(only.status == 0)
        #expect(only.stderr == ".git/COMMIT_EDITMSG:1: warning: the message has only comment lines: git records them as the message when it opens no editor (git commit -m or -F without --cleanup=strip), and relctl ignores such a commit (start the message with a header like 'fix(login): …', or leave it empty to abort the commit) [header-format]\nchecked .git/COMMIT_EDITMSG: 1 warning\n")
        // commit.cleanup=strip: git strips them even without an editor, and so does relctl.
        try repo.git(["config", "commit.cleanup", "strip"])
        let strippedFix = try git(repo, ["commit", "-q", "--allow-empty", "-m", "fix: login\n#12 is the issue"])
        #expect(strippedFix.status == 0)
        #expect(try repo.git(["log", "-1", "--format=%B"]) == "fix: login\n\n")
    }

    @Test func theScissorsAndTheAutoCommentChar() throws {
        let repo = try hooked()
        // git commit -v: the diff below the scissors line is not part of the message (its context line
        // " Breaking change: …" would be a breaking-footer error if it were).
        try repo.write("dark.txt", "Breaking change: a line of the diff, not a footer\n")
        try repo.commitAll("chore: the file")
        try repo.write("dark.txt", "Breaking change: a line of the diff, not a footer\nmore\n")
        try repo.git(["add", "dark.txt"])
        let verbose = try git(repo, ["commit", "-q", "-v"], editor: "sed -i 1s/^/feat:\\ dark\\ mode/")
        #expect(verbose.status == 0)
        #expect(verbose.stderr == "")
        // core.commentChar=auto: git picked ';' because a line starts with '#'; the ';' lines are the comments.
        try repo.git(["config", "core.commentChar", "auto"])
        let message = try makeTempDirectory(prefix: "relctl-auto") + "/message"
        try Data("feat: x\n\n#12 is fixed by this\n".utf8).write(to: URL(fileURLWithPath: message))
        let auto = try git(repo, ["commit", "-q", "--allow-empty", "-e", "-F", message],
                           editor: "printf '; BREAKING CHANGES: only a comment\\n' >>")
        #expect(auto.status == 0)
        #expect(auto.stderr == "")
        #expect(try repo.git(["log", "-1", "--format=%B"]) == "feat: x\n\n#12 is fixed by this\n\n")
    }

    @Test func messageFileFromStdin() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        let exe = try relctlExecutable()
        let good = try runProcess(exe, ["lint", "--message-file", "-"], in: repo.path, environment: ["NO_COLOR": "1"],
                                  input: "feat(ui): dark mode\n# a comment\n\nThe body.\n")
        #expect(good.status == 0)
        #expect(good.stderr == "")
        let bad = try runProcess(exe, ["lint", "--message-file", "-"], in: repo.path, environment: ["NO_COLOR": "1"],
                                 input: "# git's comment\nfeet: login\n")
        #expect(bad.status == 2)
        #expect(bad.stderr == "<stdin>:2: error: unknown type 'feet' in 'feet: login' (did you mean 'feat'? Or add 'feet' to \"lint\": {\"types\": [...]} in .relctl.json) [type-enum]\nchecked <stdin>: 1 error\n")
        let json = try runProcess(exe, ["lint", "--message-file", "-", "--json"], in: repo.path, environment: ["NO_COLOR": "1"],
                                  input: "Merge branch 'x' into 'main'\n\nAdd x\n\nSee merge request g/app!3\n")
        #expect(json.status == 0)
        #expect(json.stdout == "{\"schemaVersion\":1,\"messageFile\":\"-\",\"passed\":true,\"errors\":0,\"warnings\":0,\"commits\":[{\"sha\":null,\"header\":\"Merge branch 'x' into 'main'\",\"status\":\"merge\",\"passed\":true,\"problems\":[]}]}\n")
        // Nothing but comments: nothing to say (git aborts such a commit itself).
        let empty = try runProcess(exe, ["lint", "--message-file", "-"], in: repo.path, environment: ["NO_COLOR": "1"], input: "# only\n\n")
        #expect(empty.status == 0)
        #expect(empty.stderr == "")
    }

    @Test func forgeMergeMessagesInARangeAndAMessageFile() throws {
        let repo = try TestRepository()
        let base = try repo.commit("chore: initial commit")
        // One-parent commits carrying merge messages (a cherry-picked merge, a forge's squash of one).
        let gitlab = try repo.commit("Merge branch 'feature/login' into 'main'\n\nAdd the login screen\n\nSee merge request mobile/app!12\n")
        let github = try repo.commit("Merge pull request #42 from owner/feature/dark-mode\n\nDark mode\n")
        try repo.git(["revert", "--no-edit", "HEAD"])
        let revert = try repo.head()
        let bad = try repo.commit("Merge the two configs")
        let result = relctl(["lint", "--range", "\(base)..HEAD", "--json"], in: repo.path)
        #expect(result.code == 2)
        #expect(result.stderr == "\(bad.prefix(12)): error: 'Merge the two configs' is not a conventional header (type(scope): description), so relctl ignores it (start it with a type and a colon, like 'fix: …' or 'feat(scope): …') [header-format]\nchecked 4 commits in \(base)..HEAD: 1 error\n")
        #expect(result.stdout.contains("{\"sha\":\"\(gitlab)\",\"header\":\"Merge branch 'feature/login' into 'main'\",\"status\":\"merge\",\"passed\":true,\"problems\":[]}"))
        #expect(result.stdout.contains("{\"sha\":\"\(github)\",\"header\":\"Merge pull request #42 from owner/feature/dark-mode\",\"status\":\"merge\",\"passed\":true,\"problems\":[]}"))
        #expect(result.stdout.contains("{\"sha\":\"\(revert)\",\"header\":\"Revert \\\"Merge pull request #42 from owner/feature/dark-mode\\\"\",\"status\":\"checked\",\"passed\":true,\"problems\":[]}"))
        try repo.write("msg.txt", "Merge tag 'v1.2.0'\n# comment\n")
        let file = relctl(["lint", "--message-file", "msg.txt"], in: repo.path)
        #expect(file.code == 0)
        #expect(file.stderr == "")
    }
}
