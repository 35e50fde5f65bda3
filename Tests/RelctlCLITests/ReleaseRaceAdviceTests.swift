import Foundation
import Testing
import RelctlTestSupport

/// After a lost race the loser's advice, followed literally, leads to a release: the pull it names fetches the
/// winner's tag, so the rerun releases what the winner's release did not hold (or says nothing is due), never
/// "the version this file already holds … run 'relctl adopt'".
@Suite("relctl release after a lost race")
struct ReleaseRaceAdviceTests {
    /// The `git pull …` command the error names.
    static func pullCommand(in stderr: String) -> [String]? {
        guard let range = stderr.range(of: #"git pull --rebase --tags [^ ,;)]+ [^ ,;)]+"#, options: .regularExpression) else { return nil }
        return stderr[range].split(separator: " ").dropFirst().map(String.init)
    }

    /// Two clones race to one local bare remote; `ownCommits`: each clone has a fix of its own besides the feature
    /// both share. The loser follows its advice: the pull, then `relctl release --push`.
    @Test(arguments: [false, true])
    func theLoserFollowingItsAdviceReleasesTheNextVersion(ownCommits: Bool) throws {
        let remote = try TestRepository(bare: true)
        let seed = try releaseRepository(["feat: offline mode"])
        try seed.git(["remote", "add", "origin", remote.path])
        try seed.git(["push", "-q", "origin", "main", "v1.2.3"])
        let folder = try makeTempDirectory(prefix: "relctl-race")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var clones: [TestRepository] = []
        for i in 0..<2 {
            let clone = try TestRepository(existing: folder + "/c\(i)")
            try remote.clone(to: clone.path)
            try clone.git(["config", "user.name", "Clone \(i)"])
            try clone.git(["config", "user.email", "clone\(i)@example.com"])
            if ownCommits { _ = try clone.commit("fix: clone \(i) crash", file: "clone\(i).txt") }
            clones.append(clone)
        }
        let binary = try relctlExecutable()
        let running = try clones.map {
            try RunningProcess(binary, ["release", "--push", "--repo", $0.path], environment: racingEnvironment())
        }
        let results = running.map { $0.wait() }
        let winners = results.indices.filter { results[$0].status == 0 }
        #expect(winners.count == 1, "\(results.map(\.stderr))")
        guard winners.count == 1, let loser = results.indices.first(where: { $0 != winners[0] }) else { return }
        #expect(results[loser].status == 1)
        let pull = try #require(Self.pullCommand(in: results[loser].stderr), "\(results[loser].stderr)")
        #expect(pull == ["pull", "--rebase", "--tags", "origin", "main"])
        let clone = clones[loser]
        _ = try clone.git(pull)
        #expect(try clone.git(["tag", "-l", "v1.3.0"]) == "v1.3.0\n")
        let rerun = try runRelctl(["release", "--push"], in: clone.path)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(!rerun.stderr.contains("adopt"), "\(rerun.stderr)")
        if ownCommits {
            // The loser's own fix is the next release, on the remote with its tag.
            #expect(rerun.stdout == "1.3.1\n", "\(rerun.stderr)")
            #expect(try remote.git(["tag", "-l"]) == "v1.2.3\nv1.3.0\nv1.3.1\n")
            #expect(try remote.git(["rev-parse", "v1.3.1^{commit}"]) == (try remote.git(["rev-parse", "main"])))
            #expect(try remote.git(["log", "--format=%s", "v1.3.0..main"]) == "chore(release): 1.3.1\nfix: clone \(loser) crash\n")
        } else {
            // Both held the same feature: the winner released it, nothing is due.
            #expect(rerun.stdout.isEmpty)
            #expect(rerun.stderr == "HEAD is already released as v1.3.0; v1.3.0 is already on 'origin'\n")
            #expect(try remote.git(["tag", "-l"]) == "v1.2.3\nv1.3.0\n")
        }
        #expect(try remote.git(["for-each-ref", "--format=%(refname)", "refs/relctl-incoming"]).isEmpty)
        #expect(try clone.git(["status", "--porcelain"]).isEmpty)
    }
}
