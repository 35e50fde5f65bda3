import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// `next`, `changelog` and `release --dry-run --json` print the same bytes whether the history is read from the
/// commit objects or from a commit-graph (whole, split, stale), and from a damaged graph.
@Suite("Output with and without a commit-graph")
struct CommitGraphOutputTests {
    static let commands: [[String]] = [["next", "--json"], ["changelog", "--unreleased"],
                                       ["release", "--dry-run", "--json", "--confirm-major"]]

    static func outputs(_ repo: TestRepository) -> [String] {
        commands.map { arguments in
            let result = relctl(arguments, in: repo.path, environment: fixedDate)
            return "\(result.code)\n\(result.stdout)\n\(result.stderr)"
        }
    }

    /// The app after a release: features on branches merged in, a fix reverted, a breaking change.
    static func app() throws -> TestRepository {
        let app = try ChannelApp()
        let repo = app.repo
        try repo.git(["checkout", "-q", "-b", "feature"])
        try repo.commit("feat(map): offline tiles", file: "src/map.ts")
        try repo.commit("fix(map): tile seams", file: "src/map.ts")
        try repo.git(["checkout", "-q", "main"])
        let fix = try repo.commit("fix: crash on launch", file: "src/app.ts")
        try repo.git(["merge", "-q", "--no-ff", "-m", "Merge pull request #7 from acme/feature", "feature"])
        try repo.git(["revert", "--no-edit", fix])
        for i in 0..<12 {
            let message = i == 5 ? "perf!: drop the old cache\n\nBREAKING CHANGE: caches are rebuilt" : "chore: tidy \(i)"
            try repo.commit(message, file: "src/tidy.ts")
        }
        return repo
    }

    @Test func aGraphChangesNoOutput() throws {
        let repo = try Self.app()
        let plain = Self.outputs(repo)
        #expect(plain[0].hasPrefix("0\n"), "\(plain[0])")
        #expect(plain[2].hasPrefix("0\n"), "\(plain[2])")

        try repo.git(["commit-graph", "write", "--reachable"])
        #expect(Self.outputs(repo) == plain)

        try repo.git(["config", "core.commitGraph", "false"])
        #expect(Self.outputs(repo) == plain)
        try repo.git(["config", "--unset", "core.commitGraph"])

        // Newer commits than the graph: read from their objects.
        try repo.commit("feat: newer than the graph", file: "src/new.ts")
        let newer = Self.outputs(repo)
        #expect(newer != plain)
        try FileManager.default.removeItem(atPath: repo.path + "/.git/objects/info/commit-graph")
        #expect(Self.outputs(repo) == newer)

        try repo.git(["commit-graph", "write", "--reachable", "--split"])
        try repo.commit("fix: newer than the first layer", file: "src/new.ts")
        try repo.git(["commit-graph", "write", "--reachable", "--split=no-merge"])
        let split = Self.outputs(repo)
        try repo.git(["config", "core.commitGraph", "false"])
        #expect(Self.outputs(repo) == split)
    }

    @Test func aDamagedGraphChangesNoOutput() throws {
        let repo = try Self.app()
        let plain = Self.outputs(repo)
        try repo.git(["commit-graph", "write", "--reachable"])
        let path = repo.path + "/.git/objects/info/commit-graph"
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        try Data(bytes.prefix(bytes.count - 100)).write(to: URL(fileURLWithPath: path))
        #expect(Self.outputs(repo) == plain)
    }
}
