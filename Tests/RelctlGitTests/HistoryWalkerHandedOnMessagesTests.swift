import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

/// A walker that hands messages on (`handsMessagesOn`) streams the same commits and messages as one that keeps
/// them, keeps none in the range it returns, and reads a message again when a second walk needs it.
@Suite("History walks that hand messages on")
struct HistoryWalkerHandedOnMessagesTests {
    @Test func streamedMessagesAreThoseOfAKeepingWalkAndTheRangeKeepsNone() throws {
        let repo = try TestRepository()
        for i in 0..<5 { try repo.emptyCommit("chore: early \(i)") }
        try repo.tag("v1.0.0")
        // Enough commits for the walker's node table to grow a few times.
        for i in 0..<90 { try repo.emptyCommit(i % 3 == 0 ? "fix: later \(i)\n\nbody \(i)\n\nRefs: #\(i)" : "feat: later \(i)") }
        let git = try Repository(at: repo.path)
        let head = try #require(try git.headCommit())
        let base = try #require(ObjectID(hex: try repo.git(["rev-parse", "v1.0.0^{commit}"]).trimmingCharacters(in: .whitespacesAndNewlines)))

        let kept = try HistoryWalker(repository: git).walk(from: head, hiding: base)
        var streamed: [CommitRecord] = []
        var batches: [HandedCommits] = []
        let handed = try HistoryWalker(repository: git, handsMessagesOn: true, batchSize: 32)
            .walk(from: head, hiding: base, onCommit: { streamed.append($0) }, onBatch: { batches.append($0) })

        #expect(kept.commits.count == 90)
        #expect(handed.commits.map(\.id) == kept.commits.map(\.id))
        #expect(handed.commits.map(\.parents) == kept.commits.map(\.parents))
        #expect(streamed.map(\.id) == kept.commits.map(\.id))
        #expect(batches.map(\.count) == [32, 32, 26])
        #expect(batches.flatMap(\.ids) == kept.commits.map(\.id))
        let messages = try batches.flatMap { batch in
            try (0..<batch.count).map { try batch.message(at: $0, reading: git) }
        }
        #expect(messages == kept.commits.map(\.message))
        #expect(batches.flatMap { batch in (0..<batch.count).map { batch.parentCount(at: $0) } }
                == kept.commits.map(\.parentCount))
        #expect(messages.first == "feat: later 89\n")
        #expect(streamed.allSatisfy { $0.message.isEmpty })
        #expect(handed.commits.allSatisfy { $0.message.isEmpty })
        #expect(try kept.commits.map { try git.commitMessage($0.id) } == kept.commits.map(\.message))
    }

    @Test func aSecondBaseReadsTheHandedOnMessagesAgain() throws {
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

        // v2.0.0 is tried first and is not an ancestor: its walk hands on "fix: two"; the whole history is then
        // streamed once (reading "fix: two" again), and the range from v1.0.0 is recorded from memory.
        var streamed: [String] = []
        let walker = HistoryWalker(repository: git, handsMessagesOn: true)
        let range = try walker.rangeSinceFirstAncestor(of: head, among: ["v2.0.0", "v1.0.0"],
                                                       onWalk: { streamed.removeAll() },
                                                       onBatch: { batch in
            streamed += (0..<batch.count).map { (try? batch.message(at: $0, reading: git)) ?? "?" }
        })
        #expect(range.base?.index == 1)
        #expect(range.walk.commits.map(\.id.hex) == (try repo.shas("v1.0.0..HEAD")))
        #expect(streamed == ["fix: two\n\nwhy two\n", "feat: one\n\nwhy one\n", "chore: init\n"])
    }
}
