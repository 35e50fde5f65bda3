import Foundation
import Testing
import RelctlFiles
import RelctlGit
import RelctlTestSupport
@testable import RelctlCLI
import RelctlCore

/// The one transaction, in process: several tags in one commit (the projects of a monorepo released together, a tag
/// each), all made or none.
@Suite("RepositoryTransaction: several tags in one commit")
struct RepositoryTransactionTests {
    func transaction(_ repo: TestRepository) throws -> (RepositoryTransaction, Repository) {
        try repo.write("app/package.json", "{\"version\": \"1.0.0\"}\n")
        try repo.write("web/package.json", "{\"version\": \"2.0.0\"}\n")
        try repo.commitAll("chore: two projects")
        let repository = try Repository(at: repo.path)
        var root = try #require(repository.workdir)
        if root.hasSuffix("/") { root.removeLast() }
        let head = try #require(try repository.headCommit())
        let identities = try #require(try repository.identities(environment: ["GIT_COMMITTER_NAME": "Bot", "GIT_COMMITTER_EMAIL": "bot@example.com",
                                                                              "GIT_AUTHOR_NAME": "Bot", "GIT_AUTHOR_EMAIL": "bot@example.com"]))
        var transaction = RepositoryTransaction(
            .init(kind: .release, subject: "app 1.1.0, web 2.1.0", failed: "the release failed", restored: "everything was restored"),
            root: root, head: head, identities: identities)
        for (path, old, new) in [("app/package.json", "1.0.0", "1.1.0"), ("web/package.json", "2.0.0", "2.1.0")] {
            transaction.writes.append(FileWrite(path: root + "/" + path, oldBytes: Array("{\"version\": \"\(old)\"}\n".utf8),
                                                newBytes: Array("{\"version\": \"\(new)\"}\n".utf8)))
        }
        transaction.commitMessage = "chore(release): app 1.1.0, web 2.1.0\n"
        transaction.tags = [.init(name: "app-v1.1.0", message: "app 1.1.0\n"), .init(name: "web-v2.1.0", message: "web 2.1.0\n")]
        return (transaction, repository)
    }

    @Test func everyTagIsMadeOnTheOneCommit() throws {
        let repo = try TestRepository()
        var (transaction, repository) = try transaction(repo)
        let applied = try transaction.apply(repository: repository, faults: FaultInjection([:]))
        let commit = try #require(applied.commit)
        #expect(try repo.git(["rev-parse", "app-v1.1.0^{commit}", "web-v2.1.0^{commit}"]) == "\(commit.hex)\n\(commit.hex)\n")
        #expect(try repo.git(["cat-file", "-t", "web-v2.1.0"]) == "tag\n")
        #expect(try repo.git(["diff", "--name-only", "HEAD~1", "HEAD"]) == "app/package.json\nweb/package.json\n")
        #expect(try repo.git(["status", "--porcelain", "--untracked-files=all"]).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.git/relctl-release.json"))
    }

    /// A failure once both tags exist: both are deleted, the branch, the index and the files put back.
    @Test func aFailureAfterTheTagsUndoesThemAll() throws {
        let repo = try TestRepository()
        var (transaction, repository) = try transaction(repo)
        let snapshot = try repo.snapshot()
        do {
            _ = try transaction.apply(repository: repository, faults: FaultInjection(["RELCTL_TEST_FAULT": "after-tag"]))
            Issue.record("the fault did not fail the transaction")
        } catch let failure as Problem {
            #expect(failure.message == "the release failed: injected fault at after-tag; everything was restored")
        }
        #expect(try repo.snapshot() == snapshot)
        #expect(try repo.git(["tag", "--list"]).isEmpty)
        let keeps = try FileManager.default.contentsOfDirectory(atPath: repo.path + "/.git").filter { $0.hasPrefix("relctl-keep-") }
        #expect(keeps.isEmpty)
    }
}
