import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

@Suite("A release commit from paths, compare-and-swap on the branch, index reset")
struct CommitFromPathsTests {
    let ci = Identities.releaseBot

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

    @Test func aDeletedPathIsRemovedInTheCommit() throws {
        let repo = try TestRepository()
        try repo.write("app.json", "{}\n")
        try repo.write("old.plist", "<plist/>\n")
        try repo.commitAll("chore: init")
        try FileManager.default.removeItem(atPath: repo.path + "/old.plist")
        let git = try Repository(at: repo.path)
        let parent = try #require(try git.headCommit())
        try git.commit(paths: ["old.plist"], message: "chore(release): 1.1.0\n", identities: ci, expectedParent: parent)
        #expect(try repo.git(["show", "--name-status", "--format=", "HEAD"]) == "D\told.plist\n")
        #expect(try repo.git(["status", "--porcelain"]) == "")
    }

    @Test func aDetachedHeadIsRefused() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init", file: "app.json")
        try repo.git(["checkout", "-q", "--detach"])
        try repo.write("app.json", "{\"v\": 2}\n")
        let git = try Repository(at: repo.path)
        let parent = try #require(try git.headCommit())
        let error = #expect(throws: GitError.self) {
            try git.commit(paths: ["app.json"], message: "chore(release): 1.1.0\n", identities: ci, expectedParent: parent)
        }
        #expect(error?.description == "commit: HEAD is detached; check out a branch")
        #expect(try repo.git(["status", "--porcelain"]) == " M app.json\n")
    }

    /// Rolling back a commit that added a file: the file leaves the index and is untracked again, untouched.
    @Test func resetIndexUnstagesAPathTheCommitLacks() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init", file: "app.json")
        try repo.write("CHANGELOG.md", "# Changelog\n")
        let git = try Repository(at: repo.path)
        let parent = try #require(try git.headCommit())
        let commit = try git.commit(paths: ["CHANGELOG.md"], message: "chore(release): 1.0.0\n", identities: ci, expectedParent: parent)
        try git.moveReference("refs/heads/main", to: parent, expecting: commit, message: "test: roll back")
        try git.resetIndex(to: parent, paths: ["CHANGELOG.md"])
        #expect(try repo.git(["status", "--porcelain"]) == "?? CHANGELOG.md\n")
        #expect(try repo.read("CHANGELOG.md") == "# Changelog\n")
    }
}
