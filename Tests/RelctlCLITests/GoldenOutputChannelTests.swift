import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// The whole output of the channel commands on Harbor, byte for byte (record with RELCTL_RECORD_GOLDEN=1, as the
// other golden files).

@Suite("GoldenOutput: channels on Harbor (a beta of 2.5.0; a hotfix of 2.4.1 after 2.5.0)")
struct GoldenOutputChannelTests {
    @Test(arguments: [
        (["release", "--dry-run", "--prerelease", "beta"], "channels/beta-release--dry-run.txt"),
        (["next", "--prerelease", "beta", "--json"], "channels/beta-next--json.txt"),
        (["changelog", "--prerelease", "beta"], "channels/beta-changelog.txt"),
    ])
    func betaReadOnly(_ arguments: [String], _ name: String) throws {
        let repo = try GoldenApp.harbor()
        let before = try repo.snapshot()
        expectGoldenRun(repo, arguments, name)
        #expect(try repo.snapshot() == before)
    }

    /// The beta itself: the commit (no changelog), the tag whose message holds the notes.
    @Test func betaRelease() throws {
        let repo = try GoldenApp.harbor()
        let run = goldenRun(repo, ["release", "--prerelease", "beta", "--json"])
        #expect(run.result.code == 0, "\(run.result.stderr)")
        let made = goldenSections([("git show --stat HEAD", try repo.git(["show", "--stat", "--format=%s", "HEAD"])),
                                   ("git cat-file -p v2.5.0-beta.1", try repo.git(["cat-file", "-p", "v2.5.0-beta.1"]))])
        Golden.expect(run.transcript + made, matches: "channels/beta-release--json.txt")
    }

    /// Main released 2.5.0 (build 43); release/2.4.x from v2.4.1 (build 42) gets a fix, then a feat.
    static func hotfixBranch() throws -> TestRepository {
        let repo = try GoldenApp.harbor()
        let main = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(main.code == 0, "\(main.stderr)")
        try repo.git(["switch", "-q", "-c", "release/2.4.x", "v2.4.1"])
        let config = try repo.read(".relctl.json")
            .replacingOccurrences(of: "  \"buildNumber\"", with: "  \"branches\": [\"main\", \"release/*\"],\n  \"buildNumber\"")
        try repo.write(".relctl.json", config)
        try repo.commitAll("chore: release branches")
        try repo.commit("fix(android): berth list empty after a locale change", file: "src/locale.js")
        return repo
    }

    @Test(arguments: [
        (["status"], "channels/hotfix-status.txt"),
        (["release", "--dry-run"], "channels/hotfix-release--dry-run.txt"),
        (["next", "--json"], "channels/hotfix-next--json.txt"),
    ])
    func hotfixReadOnly(_ arguments: [String], _ name: String) throws {
        let repo = try Self.hotfixBranch()
        let before = try repo.snapshot()
        expectGoldenRun(repo, arguments, name)
        #expect(try repo.snapshot() == before)
    }

    @Test func aFeatOnTheHotfixBranchIsRefused() throws {
        let repo = try Self.hotfixBranch()
        try repo.commit("feat(map): berth photos", file: "src/photos.js")
        let before = try repo.snapshot()
        expectGoldenRun(repo, ["release"], "channels/hotfix-feat-refused.txt")
        #expect(try repo.snapshot() == before)
    }
}
