import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

/// A walk that reads parents and dates from git's commit-graph gives exactly the walk that reads every commit, and
/// the graph is used only where git would use it.
@Suite("History walks with a commit-graph")
struct CommitGraphTests {
    /// A release, then merges (an octopus among them) and a side branch, so the graph holds second parents and
    /// extra edges.
    static func history() throws -> TestRepository {
        let repo = try TestRepository()
        for i in 0..<3 { try repo.emptyCommit("chore: early \(i)") }
        try repo.tag("v1.0.0")
        for name in ["a", "b", "c"] {
            try repo.git(["checkout", "-q", "-b", name, "main"])
            try repo.commit("feat(\(name)): on \(name)", file: "\(name).txt")
        }
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("fix: on main", file: "main.txt")
        try repo.git(["merge", "-q", "--no-ff", "-m", "Merge branch 'a'", "a"])
        try repo.git(["merge", "-q", "--no-ff", "-m", "Merge branches 'b' and 'c'", "b", "c"])
        for i in 0..<20 { try repo.emptyCommit(i % 2 == 0 ? "fix: later \(i)\n\nbody \(i)" : "chore: later \(i)") }
        return repo
    }

    struct Walked: Equatable {
        var ids: [String], parents: [[String]], times: [Int64], messages: [String]
    }

    /// The range since v1.0.0, from a walker that keeps messages and from one that hands them on.
    static func walk(_ repo: TestRepository, graph: Bool = true) throws
        -> (kept: Walked, handed: Walked, readsGraph: Bool) {
        let git = try Repository(at: repo.path)
        let head = try #require(try git.headCommit())
        let base = try #require(ObjectID(hex: try repo.git(["rev-parse", "v1.0.0^{commit}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        let keeping = HistoryWalker(repository: git)
        keeping.usesCommitGraph = graph
        let kept = try keeping.walk(from: head, hiding: base)
        let handing = HistoryWalker(repository: git, handsMessagesOn: true, batchSize: 8)
        handing.usesCommitGraph = graph
        var messages: [String] = []
        let handed = try handing.walk(from: head, hiding: base, onBatch: { batch in
            messages += (0..<batch.count).map { (try? batch.message(at: $0, reading: git)) ?? "unreadable" }
        })
        #expect(keeping.readsCommitGraph == handing.readsCommitGraph)
        func walked(_ range: RangeWalk, _ messages: [String]) -> Walked {
            Walked(ids: range.commits.map(\.id.hex), parents: range.commits.map { $0.parents.map(\.hex) },
                   times: range.commits.map(\.time), messages: messages)
        }
        return (walked(kept, kept.commits.map(\.message)), walked(handed, messages), handing.readsCommitGraph)
    }

    static func expected(_ repo: TestRepository) throws -> Walked {
        let log = try repo.git(["log", "--format=%H%x00%P%x00%ct", "v1.0.0..HEAD"])
        var walked = Walked(ids: [], parents: [], times: [], messages: [])
        for line in log.split(separator: "\n") {
            let fields = line.split(separator: "\0", omittingEmptySubsequences: false)
            walked.ids.append(String(fields[0]))
            walked.parents.append(fields[1].split(separator: " ").map(String.init))
            walked.times.append(Int64(fields[2])!)
            walked.messages.append(try repo.git(["cat-file", "commit", String(fields[0])])
                .components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n"))
        }
        return walked
    }

    @Test func aGraphGivesTheWalkOfTheObjects() throws {
        let repo = try Self.history()
        let expected = try Self.expected(repo)
        let without = try Self.walk(repo)
        #expect(!without.readsGraph)
        #expect(without.kept == expected)
        #expect(without.handed == expected)

        try repo.git(["commit-graph", "write", "--reachable"])
        let with = try Self.walk(repo)
        #expect(with.readsGraph)
        #expect(with.kept == expected)
        #expect(with.handed == expected)
        #expect(expected.parents.contains { $0.count == 3 }, "the octopus merge")
    }

    @Test func aWalkFromTheGraphReadsNoCommitWhileWalking() throws {
        let repo = try Self.history()
        try repo.git(["commit-graph", "write", "--reachable"])
        let git = try Repository(at: repo.path)
        let head = try #require(try git.headCommit())
        let walker = HistoryWalker(repository: git, handsMessagesOn: true)
        let range = try walker.walk(from: head, hiding: nil)
        #expect(walker.readsCommitGraph)
        #expect(range.commits.count == (try repo.shas("HEAD")).count)
        #expect(walker.objectsRead == 0)
    }

    @Test func aSplitChainAndAStaleGraphGiveTheSameWalk() throws {
        let repo = try Self.history()
        try repo.git(["commit-graph", "write", "--reachable", "--split"])
        for i in 0..<3 { try repo.emptyCommit("feat: after the first layer \(i)") }
        try repo.git(["commit-graph", "write", "--reachable", "--split=no-merge"])
        let chain = try String(contentsOfFile: repo.path + "/.git/objects/info/commit-graphs/commit-graph-chain",
                               encoding: .utf8)
        #expect(chain.split(separator: "\n").count == 2, "two layers")
        let split = try Self.walk(repo)
        #expect(split.readsGraph)
        #expect(split.kept == (try Self.expected(repo)))
        #expect(split.handed == (try Self.expected(repo)))

        // Commits after the graph was written are read from their objects.
        for i in 0..<4 { try repo.emptyCommit(i == 2 ? "feat!: newer than the graph" : "fix: newer \(i)") }
        let stale = try Self.walk(repo)
        #expect(stale.readsGraph)
        #expect(stale.kept == (try Self.expected(repo)))
        #expect(stale.handed == (try Self.expected(repo)))
    }

    /// Damaged graph files: each is no graph, and the walk reads the objects.
    @Test(arguments: ["truncated", "version", "hash", "chunk offset", "parent", "empty"])
    func aDamagedGraphIsNoGraph(_ damage: String) throws {
        let repo = try Self.history()
        let expected = try Self.expected(repo)   // before the damage: git itself dies on a bad parent position
        try repo.git(["commit-graph", "write", "--reachable"])
        let path = repo.path + "/.git/objects/info/commit-graph"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        switch damage {
        case "truncated": bytes = Array(bytes.prefix(bytes.count / 2))
        case "version": bytes[4] = 2
        case "hash": bytes[5] = 2
        case "chunk offset": bytes[8 + 4 + 4] = 0x7F   // the first chunk's offset far past the end
        case "parent":
            // The first commit's first parent (CDAT: after its tree id) pointed past the last commit.
            let cdat = Self.chunk("CDAT", in: bytes)
            bytes.replaceSubrange((cdat + 20)..<(cdat + 24), with: [0x00, 0xFF, 0xFF, 0x00])
        default: bytes = []
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let walked = try Self.walk(repo)
        #expect(!walked.readsGraph)
        #expect(walked.kept == expected)
        #expect(walked.handed == expected)
    }

    /// Entries are checked as the walk reads them: a damaged entry the range never reaches leaves the graph in use
    /// (a short range reads a few entries, not the whole file); a walk that reaches it stops using the graph there
    /// and reads the rest from the objects, with the same result.
    @Test func aDamagedEntryMattersOnlyWhenTheWalkReachesIt() throws {
        let repo = try TestRepository()
        for i in 0..<12 { try repo.emptyCommit("chore: early \(i)") }
        try repo.tag("v1.0.0")
        for i in 0..<6 { try repo.emptyCommit(i == 3 ? "feat: later \(i)" : "fix: later \(i)") }
        let expected = try Self.expected(repo)
        let whole = try repo.git(["rev-list", "--reverse", "HEAD"]).split(separator: "\n").map(String.init)
        try repo.git(["commit-graph", "write", "--reachable"])
        let path = repo.path + "/.git/objects/info/commit-graph"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The root commit's entry gets a first parent past the last commit.
        let root = try #require(ObjectID(hex: whole[0]))
        let oidl = Self.chunk("OIDL", in: bytes)
        let count = whole.count
        let rootBytes = withUnsafeBytes(of: root.gitOID.id) { Array($0) }
        let index = try #require((0..<count).first { Array(bytes[(oidl + 20 * $0)..<(oidl + 20 * $0 + 20)]) == rootBytes })
        let entry = Self.chunk("CDAT", in: bytes) + 36 * index
        bytes.replaceSubrange((entry + 20)..<(entry + 24), with: [0x00, 0xFF, 0xFF, 0x00])
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let short = try Self.walk(repo)
        #expect(short.readsGraph, "the range since v1.0.0 never reads the root's entry")
        #expect(short.kept == expected)
        #expect(short.handed == expected)

        let git = try Repository(at: repo.path)
        let walker = HistoryWalker(repository: git)
        let all = try walker.walk(from: try #require(try git.headCommit()), hiding: nil)
        #expect(!walker.readsCommitGraph, "the whole history reaches the damaged entry")
        #expect(all.commits.map(\.id.hex) == whole.reversed())
        #expect(all.commits.first { $0.id == root }?.parents.isEmpty == true, "the root read from its object")
    }

    static func chunk(_ name: String, in bytes: [UInt8]) -> Int {
        let id = Array(name.utf8)
        var k = 8
        while Array(bytes[k..<(k + 4)]) != id { k += 12 }
        return bytes[(k + 4)..<(k + 12)].reduce(0) { $0 << 8 | Int($1) }
    }

    @Test func theGraphIsNotUsedWhereGitWouldNotUseIt() throws {
        let repo = try Self.history()
        try repo.git(["commit-graph", "write", "--reachable"])
        #expect(try Self.walk(repo).readsGraph)

        try repo.git(["config", "core.commitGraph", "false"])
        #expect(!(try Self.walk(repo).readsGraph))
        try repo.git(["config", "--unset", "core.commitGraph"])
        #expect(try Self.walk(repo).readsGraph)

        // A replacement changes a commit's parents behind the graph's back.
        let replaced = try repo.git(["rev-parse", "HEAD~2"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try repo.git(["replace", "--graft", replaced, "HEAD~5"])
        #expect(!(try Self.walk(repo).readsGraph))
        try repo.git(["pack-refs", "--all"])
        #expect(!(try Self.walk(repo).readsGraph), "a packed replace reference")
        try repo.git(["replace", "-d", replaced])
        #expect(try Self.walk(repo).readsGraph)

        try repo.write(".git/info/grafts", "\(replaced)\n")
        #expect(!(try Self.walk(repo).readsGraph))
    }

    @Test func aShallowCloneReadsNoGraph() throws {
        let repo = try Self.history()
        try repo.git(["commit-graph", "write", "--reachable"])
        let clone = try makeTempDirectory(prefix: "relctl-graph-shallow")
        try repo.clone(to: clone + "/c", depth: 5)
        // The origin's graph holds every commit the clone has.
        let graph = "/.git/objects/info/commit-graph"
        try FileManager.default.copyItem(atPath: repo.path + graph, toPath: clone + "/c" + graph)
        let git = try Repository(at: clone + "/c")
        #expect(git.isShallow)
        let walker = HistoryWalker(repository: git)
        let head = try #require(try git.headCommit())
        let revision = try runProcess(TestRepository.gitPath, ["-C", clone + "/c", "rev-parse", "HEAD~2"])
        let base = try #require(ObjectID(hex: revision.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(try walker.walk(from: head, hiding: base).commits.count == 2)
        #expect(!walker.readsCommitGraph)
    }
}
