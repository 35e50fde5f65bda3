import Foundation
import Testing
import RelctlTestSupport

/// Releases started at the same instant: from several clones to one bare remote, and several in one clone.
@Suite("relctl release at the same instant")
struct ReleaseConcurrencyTests {
    enum RemoteURL: String, CaseIterable, Sendable { case path, fileURL }

    /// Four clones of one remote, each with the same unreleased feature, all run `release --push` at once: exactly one
    /// release reaches the remote, its tag on the remote branch; every other run fails with its reason and pushes
    /// no tag, and leaves no release of its own behind.
    @Test(arguments: RemoteURL.allCases)
    func clonesPushingAtOnceMakeOneRelease(url: RemoteURL) throws {
        let remote = try TestRepository(bare: true)
        let seed = try releaseRepository(["feat: offline mode"])
        try seed.git(["remote", "add", "origin", remote.path])
        try seed.git(["push", "-q", "origin", "main", "v1.2.3"])
        let folder = try makeTempDirectory(prefix: "relctl-clones")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var clones: [TestRepository] = []
        for i in 0..<4 {
            let clone = try TestRepository(existing: folder + "/c\(i)")
            try remote.clone(to: clone.path)
            try clone.git(["remote", "set-url", "origin", url == .path ? remote.path : "file://" + remote.path])
            try clone.git(["config", "user.name", "Clone \(i)"])
            try clone.git(["config", "user.email", "clone\(i)@example.com"])
            clones.append(clone)
        }
        let binary = try relctlExecutable()
        let running = try clones.map {
            try RunningProcess(binary, ["release", "--push", "--repo", $0.path], environment: racingEnvironment())
        }
        let results = running.map { $0.wait() }
        let winners = results.indices.filter { results[$0].status == 0 }
        #expect(winners.count == 1, "\(results.map(\.stderr))")
        guard let winner = winners.first else { return }
        #expect(results[winner].stderr.contains("pushed main and v1.3.0 to 'origin'"))
        // On the remote: one release, and its tag on the remote branch.
        #expect(try remote.git(["log", "--format=%s", "v1.2.3..main"]) == "chore(release): 1.3.0\nfeat: offline mode\n")
        #expect(try remote.git(["tag", "-l"]) == "v1.2.3\nv1.3.0\n")
        #expect(try remote.git(["rev-parse", "v1.3.0^{commit}"]) == (try remote.git(["rev-parse", "main"])))
        #expect(try remote.git(["rev-parse", "main"]) == (try clones[winner].git(["rev-parse", "HEAD"])))
        #expect(try remote.git(["for-each-ref", "--format=%(refname)", "refs/relctl-incoming"]).isEmpty)
        for i in results.indices where i != winner {
            let result = results[i]
            #expect(result.status == 1, "\(result.stderr)")
            // Whichever check caught it, the advice is the pull that fetches the winner's tag.
            let clear = result.stderr.contains("pull it with its tags and rerun (git pull --rebase --tags origin main, then relctl release --push)")
                || result.stderr.contains("has commits this clone does not have; pull them with their tags (git pull --rebase --tags origin main)")
                || result.stderr.contains("tag v1.3.0 already exists on 'origin' (another release published it); pull it with its tags (git pull --rebase --tags origin main)")
            #expect(clear, "\(result.stderr)")
            #expect(!result.stderr.contains("pushed main"))
            // Nothing of the loser's stays: no release commit, no tag, a clean tree.
            let clone = clones[i]
            #expect(try clone.git(["log", "-1", "--format=%s"]) == "feat: offline mode\n", "\(result.stderr)")
            #expect(try clone.git(["tag", "-l", "v1.3.0"]).isEmpty)
            #expect(try clone.git(["status", "--porcelain"]).isEmpty)
        }
    }

    /// Three runs in one clone at once, with a lock file a dead relctl left: one release, the others refused by the
    /// lock or finding the release made.
    @Test func releasesInOneCloneAtOnceMakeOneRelease() throws {
        let repo = try releaseRepository(["feat: x", "fix: y"])
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        try "\(gone.processIdentifier)\n".write(toFile: repo.path + "/.git/relctl.lock", atomically: true, encoding: .utf8)
        let binary = try relctlExecutable()
        let running = try (0..<3).map { _ in
            try RunningProcess(binary, ["release", "--repo", repo.path], environment: ["NO_COLOR": "1"])
        }
        let results = running.map { $0.wait() }
        #expect(results.filter { $0.stderr.contains("released 1.3.0") }.count == 1, "\(results.map(\.stderr))")
        for result in results where !result.stderr.contains("released 1.3.0") {
            // The holder writes its command into the lock file just after taking the lock: a run that reads it in
            // between cannot name the command.
            let refusedByTheLock = result.stderr.contains("another relctl release is running on this repository")
                || result.stderr.contains("another relctl command is running on this repository")
            #expect((result.status == 1 && refusedByTheLock)
                    || (result.status == 0 && result.stderr == "HEAD is already released as v1.3.0\n"), "\(result.stderr)")
        }
        #expect(try repo.git(["tag", "-l", "v1.3.*"]) == "v1.3.0\n")
        #expect(try repo.git(["log", "--format=%s", "v1.2.3..HEAD"]) == "chore(release): 1.3.0\nfix: y\nfeat: x\n")
        #expect(try repo.git(["rev-parse", "v1.3.0^{commit}"]) == (try repo.git(["rev-parse", "HEAD"])))
        #expect(try repo.git(["status", "--porcelain", "--untracked-files=all"]).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.git/relctl-release.json"))
    }
}

/// The environment of two relctl processes pushing to one remote at once. Under `make asan`, LeakSanitizer is not
/// asked about them: libgit2 1.5 keeps a push's parsed refspecs when the push loses the race midway (165 bytes in
/// libgit2's own allocations, seen once in a racing winner's retried push; relctl frees every object it holds, which
/// the other suites check). The race is about what relctl does, which the tests assert in full.
func racingEnvironment() -> [String: String] {
    var environment = ["NO_COLOR": "1"]
    if let options = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] {
        environment["ASAN_OPTIONS"] = options + ":detect_leaks=0"
    }
    return environment
}
