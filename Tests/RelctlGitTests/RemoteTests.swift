import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

@Suite("Remotes: URL, advertised references, push, credentials")
struct RemoteTests {
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

    @Test(arguments: [
        (["RELCTL_GIT_TOKEN": "r", "RELCTL_GIT_USER": "me", "GITHUB_TOKEN": "g"], "r", "me"),
        (["RELCTL_GIT_TOKEN": "r", "GITHUB_TOKEN": "g"], "r", "x-access-token"),
        (["RELCTL_GIT_TOKEN": "", "GITHUB_TOKEN": "g", "GITLAB_TOKEN": "l"], "g", "x-access-token"),
        (["GITLAB_TOKEN": "l", "CI_JOB_TOKEN": "j"], "l", "oauth2"),
        (["CI_JOB_TOKEN": "j"], "j", "gitlab-ci-token"),
        ([:], nil, "git"),
    ] as [([String: String], String?, String)])
    func credentialsFollowTheTokenVariablesInOrder(environment: [String: String], token: String?, username: String) {
        let credentials = RemoteCredentials(environment: environment)
        #expect(credentials.token == token)
        #expect(credentials.username == username)
    }
}
