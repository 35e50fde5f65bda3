import Foundation
import Testing
import RelctlCore
import RelctlGit
import RelctlTestSupport
@testable import RelctlCLI

/// The commit stream, classifying with the release rules (`ReleaseRules.commitStream`), gives the analysis
/// `CommitAnalyzer.analyze` gives for the same commits; a range shorter than a batch never goes to its worker thread,
/// a longer one does in whole batches.
@Suite("Streaming classification")
struct CommitStreamTests {
    /// `count` commits after a `v1.0.0` tag, written with `git fast-import` (a feat, fixes, chores, a revert).
    static func repository(commits count: Int) throws -> TestRepository {
        let repo = try TestRepository()
        try repo.emptyCommit("chore: init")
        try repo.tag("v1.0.0")
        var stream = ""
        for i in 0..<count {
            let message: String
            switch i % 7 {
            case 0: message = "feat(app): feature \(i)\n\nwhy \(i)\n"
            case 3: message = "chore: tidy \(i)\n"
            case 5: message = "not conventional \(i)\n"
            default: message = "fix: bug \(i)\n\nRefs: #\(i)\n"
            }
            stream += "commit refs/heads/main\nmark :\(i + 1)\n"
            stream += "committer Test <test@example.com> \(1_700_000_000 + i) +0000\n"
            stream += "data \(message.utf8.count)\n\(message)\n"
            stream += i == 0 ? "from refs/heads/main^0\n\n" : "\n"
        }
        stream += "done\n"
        _ = try repo.git(["fast-import", "--quiet", "--done"], input: stream)
        return repo
    }

    static func check(commits count: Int, batches: Int?, graph: Bool = false) throws {
        let repo = try repository(commits: count)
        if graph { try repo.git(["commit-graph", "write", "--reachable"]) }
        let git = try Repository(at: repo.path)
        let head = try #require(try git.headCommit())
        let base = try #require(ObjectID(hex: try repo.git(["rev-parse", "v1.0.0^{commit}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        let rules = ReleaseRules()
        let kept = try HistoryWalker(repository: git).walk(from: head, hiding: base)
        let expected = CommitAnalyzer.analyze(kept.commits.map {
            RawCommit(sha: $0.id.hex, message: $0.message, parentCount: $0.parentCount)
        }, rules: rules)

        let stream = rules.commitStream(in: git)
        #expect(stream.batchSize == 2048)
        var walked = try stream.range(from: head, hiding: base)
        let analysis = walked.analysis()

        if let batches { #expect(stream.batchesSent == batches) }
        #expect(walked.commits.map(\.id) == kept.commits.map(\.id))
        #expect(analysis.commits.count == count)
        #expect(analysis.bump == expected.bump)
        #expect(analysis.commits.map(\.sha) == expected.commits.map(\.sha))
        #expect(analysis.commits.map(\.summary) == expected.commits.map(\.summary))
        #expect(analysis.commits.map(\.status) == expected.commits.map(\.status))
        #expect(analysis.commits.map(\.bump) == expected.commits.map(\.bump))
        #expect(analysis.commits.map { $0.message?.description } == expected.commits.map { $0.message?.description })
    }

    @Test func aShortRangeIsClassifiedWithoutTheWorkerThread() throws {
        try Self.check(commits: 10, batches: 0)
    }

    @Test func aLongRangeGoesToTheWorkerInWholeBatches() throws {
        try Self.check(commits: 2 * 2048 + 9, batches: 2)
    }

    /// From a commit-graph the walk reads no objects, and both threads read and classify batches (how many each
    /// depends on timing): the results are joined in walk order.
    @Test func aWalkFromTheGraphSharesTheBatchesAndKeepsTheOrder() throws {
        try Self.check(commits: 6 * 2048 + 3, batches: nil, graph: true)
    }

    @Test func aRangeOfExactlyOneBatchStaysOnTheCallingThread() throws {
        try Self.check(commits: 2048, batches: 0)
    }
}
