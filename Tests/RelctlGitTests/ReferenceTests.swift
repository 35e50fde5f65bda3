import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

@Suite("HEAD and references: reading, compare-and-swap, deleting")
struct ReferenceTests {
    @Test func headOnABranchDetachedAndUnborn() throws {
        let repo = try TestRepository(branch: "develop")
        let unborn = try Repository(at: repo.path)
        #expect(try unborn.headCommit() == nil)
        #expect(try unborn.currentBranch() == "develop")
        #expect(try unborn.headReferenceName() == "refs/heads/develop")

        let sha = try repo.commit("chore: init")
        let git = try Repository(at: repo.path)
        #expect(try git.headCommit()?.hex == sha)
        #expect(try git.currentBranch() == "develop")
        #expect(try git.headReferenceName() == "refs/heads/develop")

        try repo.git(["checkout", "-q", "--detach"])
        #expect(try git.headCommit()?.hex == sha)
        #expect(try git.currentBranch() == nil)
        #expect(try git.headReferenceName() == nil)
    }

    @Test func moveReferenceOnlyFromTheExpectedTarget() throws {
        let repo = try TestRepository()
        let first = try #require(ObjectID(hex: try repo.commit("chore: init")))
        let second = try #require(ObjectID(hex: try repo.commit("feat: x")))
        let git = try Repository(at: repo.path)
        #expect(try git.referenceTarget("refs/heads/release") == nil)

        // nil: the reference must not exist yet.
        try git.moveReference("refs/heads/release", to: first, expecting: nil, message: "test: create")
        #expect(try git.referenceTarget("refs/heads/release") == first)
        let exists = #expect(throws: GitError.self) {
            try git.moveReference("refs/heads/release", to: second, expecting: nil, message: "test: create again")
        }
        #expect(exists?.kind == .exists)

        // A stale expectation is a concurrent update and changes nothing.
        let moved = #expect(throws: GitError.self) {
            try git.moveReference("refs/heads/release", to: second, expecting: second, message: "test: stale")
        }
        #expect(moved?.kind == .concurrentUpdate)
        #expect(moved?.message == "refs/heads/release moved while relctl was working (another release running?)")
        #expect(try git.referenceTarget("refs/heads/release") == first)

        try git.moveReference("refs/heads/release", to: second, expecting: first, message: "test: move")
        #expect(try repo.git(["rev-parse", "release"]).hasPrefix(second.hex))

        try git.deleteReference("refs/heads/release")
        #expect(try git.referenceTarget("refs/heads/release") == nil)
        try git.deleteReference("refs/heads/release")   // deleting what is gone is no error (rollback)
    }
}
