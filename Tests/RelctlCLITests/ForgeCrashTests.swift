import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// `release --push` with a forge, killed (SIGKILL) at each of its steps — the journal's, the push's, and the forge's
/// (`forge-lookup` once the lookup is answered, `forge-release` once the release is created) — then rerun: the rerun
/// (finishing the journal's release, pushing what is missing, retrying the pending forge release) ends with exactly
/// one forge release for the tag on the fake server, its body the changelog section, and `release_url` in
/// `$GITHUB_OUTPUT`.
@Suite("forge release of a release killed at every step")
struct ForgeCrashTests {
    static let steps = ["journal", "temp-1", "write-1", "journal-written", "index", "commit", "journal-committed", "tag",
                        "push-objects-branch", "push-branch", "push-objects-tag-1", "push-tag-1", "forge-lookup", "forge-release"]
    static let url = "https://github.com/acme/app/releases/tag/v1.3.0"

    @Test func theStepsAreTheOnesTheReleaseTakes() throws {
        let forge = ForgeReleaseTests.Forge()
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, remote) = try ForgeReleaseTests.app(["feat: tide tables"])
        defer { withExtendedLifetime(remote) {} }
        let log = try makeTempDirectory(prefix: "relctl-steps") + "/steps"
        let result = try runRelctl(["release", "--push"], in: repo.path,
                                   environment: ForgeReleaseTests.environment(repo, server, ["RELCTL_TEST_STEPS": log]))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == Self.steps.map { $0 + "\n" }.joined())
        #expect(forge.stored.count == 1)
    }

    @Test(arguments: steps)
    func aRerunMakesExactlyOneForgeRelease(step: String) throws {
        let forge = ForgeReleaseTests.Forge()
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, remote) = try ForgeReleaseTests.app(["feat: tide tables", "fix: crash on start"])
        let env = ForgeReleaseTests.environment(repo, server)
        let killed = RunningProcessResult(try RunningProcess(try relctlExecutable(), ["release", "--push"], in: repo.path,
                                                             environment: env.merging(["RELCTL_TEST_CRASH": step]) { $1 }))
        #expect(killed.bySignal && killed.result.status == SIGKILL, "\(killed.result.stderr)")
        let createdBeforeTheKill = forge.stored.count
        #expect(createdBeforeTheKill == (step == "forge-release" ? 1 : 0))

        let outputFile = try makeTempDirectory(prefix: "relctl-gh-output") + "/output"
        _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
        let rerun = try runRelctl(["release", "--push", "--json"], in: repo.path,
                                  environment: env.merging(["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": outputFile]) { $1 })
        #expect(rerun.status == 0, "\(rerun.stderr)")
        // Exactly one release for the tag, with the section the release wrote.
        let releases = forge.stored
        #expect(releases.map(\.tag) == ["v1.3.0"], "\(rerun.stderr)")
        let changelog = try repo.read("CHANGELOG.md")
        #expect(releases.first?.body == ForgePublishing.normalized(try #require(ForgePublishing.section(of: "1.3.0", in: changelog))))
        #expect(try remote.git(["rev-parse", "v1.3.0"]) == (try repo.git(["rev-parse", "v1.3.0"])))
        #expect(try remote.git(["rev-parse", "main"]) == (try repo.git(["rev-parse", "HEAD"])))
        #expect(ForgePublishing.pending(gitDir: repo.path + "/.git").isEmpty)
        // Created once: a release the killed run created is updated by the rerun (PATCH), never posted again.
        let posts = server.requests.filter { $0.method == "POST" }.count
        #expect(posts == 1, "\(server.requests.map { "\($0.method) \($0.path)" })")
        #expect(rerun.stderr.contains(step == "forge-release" ? "updated the GitHub release v1.3.0: \(Self.url)" : "created the GitHub release v1.3.0: \(Self.url)"),
                "\(rerun.stderr)")
        // The rerun's outputs carry the URL, whichever path made the release.
        let outputs = try String(contentsOfFile: outputFile, encoding: .utf8)
        #expect(outputs.contains("release_url=\(Self.url)\n"), "\(outputs)")
        #expect(ForgeReleaseTests.json(rerun.stdout)["release_url"] as? String == Self.url, "\(rerun.stdout)")

        // And the run after that has nothing left to do.
        let again = try runRelctl(["release", "--push"], in: repo.path, environment: env)
        #expect(again.status == 0)
        #expect(!again.stderr.contains("forge release"), "\(again.stderr)")
        #expect(forge.stored.count == 1)
    }
}
