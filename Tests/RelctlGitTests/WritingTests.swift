import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

@Suite("Commits, tags, status and pushes through libgit2")
struct WritingTests {
    let ci = Identities(author: Identity(name: "Release Bot", email: "bot@example.com", time: (1_700_000_500, 60)),
                        committer: Identity(name: "Release Bot", email: "bot@example.com", time: (1_700_000_500, 60)))

    @Test func commitStagesOnlyTheGivenPathsAndMovesTheBranch() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init", file: "app.json")
        try repo.write("app.json", "{\"v\": 2}\n")
        try repo.write("notes.txt", "unrelated\n")
        let git = try Repository(at: repo.path)
        let parent = try #require(try git.headCommit())
        let statusBefore = try git.status()
        #expect(Set(statusBefore.map(\.path)) == ["app.json", "notes.txt"])
        #expect(statusBefore.first { $0.path == "notes.txt" }?.untracked == true)
        let commit = try git.commit(paths: ["app.json"], message: "chore(release): 1.1.0\n", identities: ci, expectedParent: parent)
        #expect(try repo.head() == commit.hex)
        #expect(try repo.git(["log", "-1", "--format=%an <%ae> %at %s"]) == "Release Bot <bot@example.com> 1700000500 chore(release): 1.1.0\n")
        #expect(try repo.git(["show", "--name-only", "--format=", "HEAD"]) == "app.json\n")
        // git agrees the index matches: only the untracked file is left.
        #expect(try repo.git(["status", "--porcelain"]) == "?? notes.txt\n")
    }

    @Test func filesKeptOutBySparseCheckoutAreNotChanges() throws {
        let repo = try TestRepository()
        try repo.write("app/app.json", "{}\n")
        try repo.write("docs/guide.md", "# guide\n")
        try repo.write("web/index.html", "<html></html>\n")
        try repo.commitAll("chore: init")
        try repo.git(["sparse-checkout", "set", "--no-cone", "/app/", "/.relctl.json"])
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/docs/guide.md"))
        #expect(try repo.git(["status", "--porcelain"]) == "")
        let git = try Repository(at: repo.path)
        #expect(try git.status().isEmpty)
        // A real change beside them is still seen; so is deleting a file that is in the sparse set.
        try repo.write("app/app.json", "{\"v\": 2}\n")
        #expect(try git.status().map(\.path) == ["app/app.json"])
        try FileManager.default.removeItem(atPath: repo.path + "/app/app.json")
        #expect(try git.status().map(\.path) == ["app/app.json"])
    }

    @Test func commitLeavesOtherStagedFilesStagedAndOutOfTheCommit() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init", file: "app.json")
        try repo.write("app.json", "{\"v\": 2}\n")
        try repo.write("wip.txt", "staged by the user\n")
        try repo.git(["add", "wip.txt"])
        let git = try Repository(at: repo.path)
        let parent = try #require(try git.headCommit())
        let commit = try git.commit(paths: ["app.json"], message: "chore(release): 1.1.0\n", identities: ci, expectedParent: parent)
        #expect(try repo.git(["show", "--name-only", "--format=", "HEAD"]) == "app.json\n")
        #expect(try repo.git(["status", "--porcelain"]) == "A  wip.txt\n")
        // Rolling back resets the release path only: the user's staged file stays staged.
        try git.moveReference("refs/heads/main", to: parent, expecting: commit, message: "test: roll back")
        try git.resetIndex(to: parent, paths: ["app.json"])
        #expect(try repo.git(["status", "--porcelain"]) == " M app.json\nA  wip.txt\n")
    }

    @Test func commitRefusesWhenTheBranchMovedMeanwhile() throws {
        let repo = try TestRepository()
        let first = try repo.commit("chore: init")
        try repo.commit("fix: someone else")
        try repo.write("log.txt", "changed")
        let git = try Repository(at: repo.path)
        let error = #expect(throws: GitError.self) {
            try git.commit(paths: ["log.txt"], message: "chore(release): x", identities: ci, expectedParent: try #require(ObjectID(hex: first)))
        }
        #expect(error?.kind == .concurrentUpdate)
    }

    @Test func annotatedTagAndExistingTag() throws {
        let repo = try TestRepository()
        let sha = try repo.commit("feat: x")
        let git = try Repository(at: repo.path)
        let target = try #require(ObjectID(hex: sha))
        try git.createAnnotatedTag("v1.0.0", target: target, message: "v1.0.0\n\nnotes\n", tagger: ci.committer)
        #expect(try repo.git(["cat-file", "-t", "v1.0.0"]) == "tag\n")
        #expect(try repo.git(["rev-parse", "v1.0.0^{commit}"]).hasPrefix(sha))
        #expect(try repo.git(["tag", "-l", "--format=%(contents)", "v1.0.0"]) == "v1.0.0\n\nnotes\n\n")
        let error = #expect(throws: GitError.self) {
            try git.createAnnotatedTag("v1.0.0", target: target, message: "again", tagger: ci.committer)
        }
        #expect(error?.kind == .exists)
        try git.deleteReference("refs/tags/v1.0.0")
        #expect(try repo.git(["tag", "-l"]) == "")
    }

    @Test func identitiesFollowGitsOrder() throws {
        let repo = try TestRepository()
        let git = try Repository(at: repo.path)
        try repo.git(["config", "user.name", "Config Name"])
        try repo.git(["config", "user.email", "config@example.com"])
        let fromConfig = try #require(try Repository(at: repo.path).identities(environment: [:]))
        #expect(fromConfig.author.name == "Config Name")
        let env = ["GIT_AUTHOR_NAME": "Env Author", "GIT_COMMITTER_EMAIL": "env-committer@example.com",
                   "GIT_COMMITTER_DATE": "@1700000000 +0130"]
        let fromEnv = try #require(try Repository(at: repo.path).identities(environment: env))
        #expect(fromEnv.author.name == "Env Author")
        #expect(fromEnv.author.email == "config@example.com")
        #expect(fromEnv.committer.name == "Config Name")
        #expect(fromEnv.committer.email == "env-committer@example.com")
        #expect(fromEnv.committer.time?.seconds == 1_700_000_000)
        #expect(fromEnv.committer.time?.offsetMinutes == 90)
    }

    @Test func isoCommitterDateIsUsed() throws {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Config Name"])
        try repo.git(["config", "user.email", "config@example.com"])
        let env = ["GIT_COMMITTER_DATE": "2020-01-01T00:00:00Z", "GIT_AUTHOR_DATE": "Wed, 1 Jan 2020 01:00:00 +0100"]
        let ids = try #require(try Repository(at: repo.path).identities(environment: env))
        #expect(ids.committer.time?.seconds == 1_577_836_800)
        #expect(ids.committer.time?.offsetMinutes == 0)
        #expect(ids.author.time?.seconds == 1_577_836_800)
        #expect(ids.author.time?.offsetMinutes == 60)
    }

    @Test(arguments: ["GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"])
    func unreadableDateVariableIsAnError(variable: String) throws {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Config Name"])
        try repo.git(["config", "user.email", "config@example.com"])
        let git = try Repository(at: repo.path)
        let error = #expect(throws: GitError.self) { try git.identities(environment: [variable: "next tuesday"]) }
        let text = error?.description ?? ""
        #expect(text.hasPrefix("\(variable): \"next tuesday\" is not a date"), "\(text)")
        #expect(text.contains("2020-01-01T00:00:00Z"), "\(text)")
        #expect(text.contains("Wed, 1 Jan 2020 00:00:00 +0000"), "\(text)")
        #expect(text.contains("@1700000000 +0000"), "\(text)")
    }

    @Test func pushBranchAndTagToABareRepository() throws {
        let remote = try TestRepository(bare: true)
        let repo = try TestRepository()
        try repo.commit("chore: init")
        try repo.git(["remote", "add", "origin", remote.path])
        try repo.git(["push", "-q", "origin", "main"])
        let sha = try repo.commit("feat: x")
        try repo.tag("v1.1.0")
        let git = try Repository(at: repo.path)
        #expect(git.remoteURL("origin") == remote.path)
        #expect(try git.remoteReferences("origin", environment: [:])["refs/tags/v1.1.0"] == nil)
        let result = try git.push(remote: "origin", refspecs: ["refs/heads/main:refs/heads/main", "refs/tags/v1.1.0:refs/tags/v1.1.0"], environment: [:])
        #expect(result.rejected.isEmpty)
        #expect(Set(result.accepted) == ["refs/heads/main", "refs/tags/v1.1.0"])
        #expect(try remote.git(["rev-parse", "main"]).hasPrefix(sha))
        #expect(try git.remoteReferences("origin", environment: [:])["refs/tags/v1.1.0"] != nil)
    }

    @Test func rejectedPushIsAnError() throws {
        let remote = try TestRepository(bare: true)
        let other = try TestRepository()
        try other.commit("chore: other history")
        try other.git(["remote", "add", "origin", remote.path])
        try other.git(["push", "-q", "origin", "main"])
        let repo = try TestRepository()
        try repo.commit("chore: unrelated history")
        try repo.git(["remote", "add", "origin", remote.path])
        let git = try Repository(at: repo.path)
        let error = #expect(throws: GitError.self) {
            try git.push(remote: "origin", refspecs: ["refs/heads/main:refs/heads/main"], environment: [:])
        }
        #expect(error?.kind == .nonFastForward || error?.message.contains("fast-forward") == true, "\(String(describing: error))")
        let missing = #expect(throws: GitError.self) { try git.push(remote: "upstream", refspecs: [], environment: [:]) }
        #expect(missing?.kind == .notFound)
    }

}
