import Foundation
import Synchronization
import Testing
import RelctlTestSupport
@testable import RelctlGit

/// The commit stream hands every commit of the final range to the classify closure once, on whichever thread, and
/// gives the results back in walk order, one per commit: with batches on the worker thread, with a base found after
/// a whole-history pass (only the range's part of the stream is kept), and with a batch whose classification failed.
@Suite("Commit streams")
struct CommitStreamTests {
    /// `count` commits after a `v1.0.0` tag; returns the repository handle, HEAD and the tag's commit.
    static func repository(commits count: Int) throws -> (TestRepository, Repository, ObjectID, ObjectID) {
        let repo = try TestRepository()
        try repo.emptyCommit("chore: init")
        try repo.tag("v1.0.0")
        for i in 0..<count { try repo.emptyCommit(i % 4 == 0 ? "feat: \(i)\n\nwhy \(i)" : "fix: \(i)") }
        let git = try Repository(at: repo.path)
        let head = try #require(try git.headCommit())
        let base = try #require(ObjectID(hex: try repo.git(["rev-parse", "v1.0.0^{commit}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        return (repo, git, head, base)
    }

    /// A count both threads add to.
    final class Counter: Sendable {
        private let count = Mutex(0)
        func add(_ n: Int) -> Int { count.withLock { $0 += n; return $0 } }
        var value: Int { count.withLock { $0 } }
    }

    /// A classifier that gives each commit its message and id, counting the commits it was given.
    static func echo(counting seen: Counter) -> CommitStream<String>.Classify {
        { batch throws(GitError) in
            _ = seen.add(batch.count)
            return try (0..<batch.count).map { k throws(GitError) in
                "\(batch.id(at: k).hex) \(batch.parentCount(at: k)) \(try batch.message(at: k))"
            }
        }
    }

    static func expected(_ git: Repository, from head: ObjectID, hiding base: ObjectID?) throws -> [String] {
        try HistoryWalker(repository: git).walk(from: head, hiding: base).commits.map {
            "\($0.id.hex) \($0.parentCount) \($0.message)"
        }
    }

    @Test func batchesOnTheWorkerComeBackInWalkOrder() throws {
        let (repo, git, head, base) = try Self.repository(commits: 45)
        defer { withExtendedLifetime(repo) {} }
        let seen = Counter()
        let stream = CommitStream<String>(repository: git, batchSize: 4, classify: Self.echo(counting: seen))
        let range = try stream.range(from: head, hiding: base)
        #expect(range.classified == (try Self.expected(git, from: head, hiding: base)))
        #expect(range.commits.count == 45)
        #expect(range.commits.allSatisfy { $0.message.isEmpty })
        // 12 batches: each but the last goes to the worker (it has room or the walk waits for it).
        #expect(stream.batchesSent == 11)
        #expect(seen.value == 45)
    }

    @Test func aShortRangeStaysOnTheCallingThread() throws {
        let (repo, git, head, base) = try Self.repository(commits: 3)
        defer { withExtendedLifetime(repo) {} }
        let seen = Counter()
        let stream = CommitStream<String>(repository: git, classify: Self.echo(counting: seen))
        let range = try stream.range(from: head, hiding: base)
        #expect(range.classified == (try Self.expected(git, from: head, hiding: base)))
        #expect(stream.batchesSent == 0)
        #expect(seen.value == 3)
    }

    /// v2.0.0 (tried first) is on a branch HEAD never merged: the whole history is streamed once, and the range
    /// from v1.0.0 takes its results from that stream, classifying nothing twice.
    @Test func aBaseFoundAfterTheWholeHistoryKeepsTheRangesPartOfTheStream() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        try repo.tag("v1.0.0")
        try repo.commit("feat: one\n\nwhy one")
        try repo.git(["checkout", "-q", "-b", "side"])
        try repo.commit("feat: side", file: "side.txt")
        try repo.tag("v2.0.0")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("fix: two\n\nwhy two")
        let git = try Repository(at: repo.path)
        let head = try #require(try git.headCommit())
        let seen = Counter()
        let stream = CommitStream<String>(repository: git, batchSize: 1, classify: Self.echo(counting: seen))
        let range = try stream.rangeSinceFirstAncestor(of: head, among: ["v2.0.0", "v1.0.0"])
        #expect(range.base?.index == 1)
        #expect(range.commits.map { $0.id.hex } == (try repo.shas("v1.0.0..HEAD")))
        let base = try #require(range.base?.commit)
        #expect(range.classified == (try Self.expected(git, from: head, hiding: base)))
        // The whole history's three commits, and at most one of the first walk's (a batch of one goes on when the
        // next comes): none of the range's is classified again at the end (that would be two more).
        #expect((3...4).contains(seen.value))
    }

    /// A batch whose classification throws is classified again at the end, on the calling thread; when that fails
    /// too, the error is the range's.
    @Test func aFailedBatchIsClassifiedAgainAndAPersistentFailureIsThrown() throws {
        let (repo, git, head, base) = try Self.repository(commits: 20)
        defer { withExtendedLifetime(repo) {} }
        let calls = Counter()
        let flaky = CommitStream<String>(repository: git, batchSize: 4) { batch throws(GitError) in
            let call = calls.add(1)
            if call == 1 { throw GitError(kind: .other, operation: "classify", message: "first batch fails") }
            return try (0..<batch.count).map { k throws(GitError) in
                "\(batch.id(at: k).hex) \(batch.parentCount(at: k)) \(try batch.message(at: k))"
            }
        }
        #expect(try flaky.range(from: head, hiding: base).classified == (try Self.expected(git, from: head, hiding: base)))

        let broken = CommitStream<String>(repository: git, batchSize: 4) { _ throws(GitError) in
            throw GitError(kind: .other, operation: "classify", message: "never")
        }
        #expect(throws: GitError.self) { try broken.range(from: head, hiding: base) }
    }
}
