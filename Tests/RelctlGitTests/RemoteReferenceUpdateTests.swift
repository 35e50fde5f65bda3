import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

/// A remote reference moves only from the value the pusher expects (compare-and-swap), through libgit2's local
/// transport too, which on its own would overwrite it.
@Suite("Remote reference compare-and-swap")
struct RemoteReferenceUpdateTests {
    /// A repository with a pushed `main`, a remote that then moved on (another clone pushed), and a local commit.
    func moved(fileURL: Bool) throws -> (TestRepository, TestRepository, pushedBase: ObjectID, theirs: String) {
        let remote = try TestRepository(bare: true)
        let repo = try TestRepository()
        try repo.commit("chore: init")
        try repo.git(["remote", "add", "origin", fileURL ? "file://" + remote.path : remote.path])
        try repo.git(["push", "-q", "origin", "main"])
        let base = try #require(ObjectID(hex: try repo.head()))
        let other = try TestRepository(existing: try makeTempDirectory(prefix: "relctl-other") + "/c")
        try remote.clone(to: other.path)
        try other.commit("fix: theirs", file: "theirs.txt")
        try other.git(["push", "-q", "origin", "main"])
        try repo.commit("feat: ours")
        return (repo, remote, base, try other.head())
    }

    @Test(arguments: [false, true])
    func aMovedRemoteBranchIsNotOverwritten(fileURL: Bool) throws {
        let (repo, remote, base, theirs) = try moved(fileURL: fileURL)
        let git = try Repository(at: repo.path)
        // Expecting the old value (what a run read before the other push): refused, the remote keeps theirs.
        let outcome = try git.updateRemoteReference(remote: "origin", localRef: "refs/heads/main", remoteRef: "refs/heads/main",
                                                    expected: base, environment: [:])
        guard case .lost = outcome else { Issue.record("\(outcome)"); return }
        #expect(try remote.git(["rev-parse", "main"]) == theirs + "\n")
        #expect(try remote.git(["for-each-ref", "--format=%(refname)"]) == "refs/heads/main\n")
        // And the objects' temporary reference is gone from the remote again.
        #expect(try remote.git(["for-each-ref", "--format=%(refname)", "refs/relctl-incoming"]).isEmpty)
    }

    @Test(arguments: [false, true])
    func aFastForwardFromTheExpectedValueGoesThrough(fileURL: Bool) throws {
        let remote = try TestRepository(bare: true)
        let repo = try TestRepository()
        try repo.commit("chore: init")
        try repo.git(["remote", "add", "origin", fileURL ? "file://" + remote.path : remote.path])
        try repo.git(["push", "-q", "origin", "main"])
        let base = try #require(ObjectID(hex: try repo.head()))
        try repo.commit("feat: ours")
        try repo.tag("v1.0.0")
        let git = try Repository(at: repo.path)
        #expect(try git.updateRemoteReference(remote: "origin", localRef: "refs/heads/main", remoteRef: "refs/heads/main",
                                              expected: base, environment: [:]) == .updated)
        #expect(try remote.git(["rev-parse", "main"]) == (try repo.git(["rev-parse", "HEAD"])))
        // A tag is created, never moved; pushing it again finds it there.
        #expect(try git.updateRemoteReference(remote: "origin", localRef: "refs/tags/v1.0.0", remoteRef: "refs/tags/v1.0.0",
                                              expected: nil, environment: [:]) == .updated)
        #expect(try git.updateRemoteReference(remote: "origin", localRef: "refs/tags/v1.0.0", remoteRef: "refs/tags/v1.0.0",
                                              expected: nil, environment: [:]) == .alreadyThere)
        #expect(try remote.git(["rev-parse", "v1.0.0"]) == (try repo.git(["rev-parse", "v1.0.0"])))
        // The objects went through a temporary reference that is gone again.
        #expect(try remote.git(["for-each-ref", "--format=%(refname)"]) == "refs/heads/main\nrefs/tags/v1.0.0\n")
    }
}
