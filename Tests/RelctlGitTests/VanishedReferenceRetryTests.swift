import Foundation
import Testing
@testable import RelctlGit
import RelctlTestSupport

/// A reference deleted on a remote while libgit2 lists it fails the listing with "not found"; that race is retried,
/// and nothing else is.
@Suite("Remote listings retried when a reference vanishes")
struct VanishedReferenceRetryTests {
    private func repository() throws -> (TestRepository, Repository) {
        let repo = try TestRepository()
        return (repo, try Repository(at: repo.path))
    }

    @Test func aVanishedReferenceIsRetried() throws {
        let (_, repository) = try repository()
        var calls = 0
        let value = try repository.retryingVanishedReferences { () throws(GitError) -> Int in
            calls += 1
            if calls < 3 {
                throw GitError(kind: .other, code: -1, operation: "connect to remote 'origin'",
                               message: "reference 'refs/relctl-incoming/1-2' not found")
            }
            return 42
        }
        #expect(value == 42)
        #expect(calls == 3)
    }

    @Test func itGivesUpAfterTheLastAttempt() throws {
        let (_, repository) = try repository()
        var calls = 0
        #expect(throws: GitError.self) {
            try repository.retryingVanishedReferences { () throws(GitError) -> Int in
                calls += 1
                throw GitError(kind: .other, code: -1, operation: "push to 'origin'", message: "reference 'refs/heads/x' not found")
            }
        }
        #expect(calls == Repository.vanishedReferenceAttempts)
    }

    @Test func aMissingRemoteOrAnotherFailureIsNotRetried() throws {
        let (_, repository) = try repository()
        for error in [GitError(kind: .notFound, code: -3, operation: "find remote 'upstream'", message: "there is no remote named 'upstream'"),
                      GitError(kind: .other, code: -1, operation: "connect to remote 'origin'", message: "authentication required")] {
            var calls = 0
            #expect(throws: error) {
                try repository.retryingVanishedReferences { () throws(GitError) -> Int in
                    calls += 1
                    throw error
                }
            }
            #expect(calls == 1)
        }
    }

    /// The real listing of a remote whose references come and go while it is read: every listing succeeds.
    ///
    /// Not under AddressSanitizer (`make asan` sets ASAN_OPTIONS): each failed attempt goes through libgit2 1.5's
    /// local transport error path (`store_refs`), which frees its vector of remote heads but not the heads, and
    /// LeakSanitizer reports that leak of libgit2's. Its stack ends inside libgit2 (no frame pointers there), so
    /// it cannot be suppressed without hiding every libgit2 allocation relctl might leak.
    @Test(.disabled(if: Foundation.ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil,
                    "libgit2 1.5 leaks the remote heads of a failed local listing"))
    func listingARemoteWhileItsReferencesComeAndGo() throws {
        let remote = try TestRepository(bare: true)
        let (repo, repository) = try repository()
        try repo.commit("feat: one")
        try repo.git(["remote", "add", "origin", remote.path])
        try repo.git(["push", "-q", "origin", "main"])
        let churn = try RunningProcess("/bin/sh", ["-c", """
            i=0; while [ $i -lt 300 ]; do
              git -C '\(remote.path)' update-ref refs/relctl-incoming/t$i main && git -C '\(remote.path)' update-ref -d refs/relctl-incoming/t$i
              i=$((i+1))
            done
            """])
        for _ in 0..<200 {
            let references = try repository.remoteReferences("origin", environment: [:])
            #expect(references["refs/heads/main"] != nil)
        }
        #expect(churn.wait().status == 0)
    }
}
