import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

@Suite("relctl gate keep-min and set-latest")
struct GateDecisionTests {
    func run(_ repo: TestRepository, _ arguments: [String]) -> CLIResult {
        relctl(arguments, in: repo.path, environment: repo.goldenEnvironment())
    }

    // MARK: keep-min

    @Test func keepMinRemovesTheMarkerInACommitCarryingTheReasonAndLeavesTheDocument() throws {
        let repo = try GateApp.firebase()
        let template = try repo.read(GateApp.templatePath)
        let result = run(repo, ["gate", "keep-min", "--reason", "the v1 harbour API stays up until March"])
        #expect(!repo.exists(".major-release-pending"))
        #expect(try repo.read(GateApp.templatePath) == template)
        #expect(try repo.git(["diff", "--name-status", "HEAD~1", "HEAD"]) == "D\t.major-release-pending\n")
        #expect(try repo.subjects() == ["chore(gate): keep the minimum supported version after major release 3.0.0"])
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
        // The commit with the reason and the minimums kept; then nothing is pending.
        expectTranscript([(["gate", "keep-min", "--reason", "the v1 harbour API stays up until March"], result), (["status"], run(repo, ["status"]))],
                         matches: "gate/keep-min-commit-and-status.txt", repo: repo, sections: [("commit message", try repo.git(["log", "-1", "--format=%B"]))])
    }

    @Test func keepMinDryRunShowsTheRemovalAndChangesNothing() throws {
        let repo = try GateApp.plain()
        let before = try repo.snapshot()
        let result = run(repo, ["gate", "keep-min", "--reason", "old builds still sync", "--dry-run"])
        expectTranscript(["gate", "keep-min", "--reason", "old builds still sync", "--dry-run"], result, matches: "gate/keep-min--dry-run.txt", repo: repo)
        #expect(try repo.snapshot() == before)
        // The diff is one git applies.
        try repo.git(["apply", "--check"], input: result.stdout)
    }

    @Test func keepMinIsRefusedWithoutAPendingDecisionOrBeforeTheReleaseIsMade() throws {
        let none = try GateApp.firebase(majorPending: false)
        let nothing = run(none, ["gate", "keep-min", "--reason", "x"])
        expectTranscript(["gate", "keep-min", "--reason", "x"], nothing, matches: "gate/keep-min-nothing-pending.txt", repo: none)

        // A halted release leaves the marker in the work tree, not committed: the release is not made yet.
        let halted = try GateApp.firebase(majorPending: false)
        try halted.write(".major-release-pending", GateApp.majorNotice.json())
        let before = try halted.snapshot()
        let early = run(halted, ["gate", "keep-min", "--reason", "x"])
        expectTranscript(["gate", "keep-min", "--reason", "x"], early, matches: "gate/keep-min-marker-not-committed.txt", repo: halted)
        #expect(try halted.snapshot() == before)

        let noReason = run(try GateApp.firebase(), ["gate", "keep-min", "--reason", "  "])
        expectTranscript(["gate", "keep-min", "--reason", "  "], noReason, matches: "gate/keep-min-blank-reason.txt")
    }

    // MARK: set-latest

    @Test func setLatestMovesTheValueAndTheDocumentVersionInOneCommit() throws {
        let repo = try GateApp.plain()
        let result = run(repo, ["gate", "set-latest", "3.0.0"])
        #expect(result.code == 0, "\(result.stderr)")
        Golden.expect(try repo.read(GateApp.plainPath), matches: "gate/gate.after-set-latest.json")
        #expect(try repo.git(["diff", "--name-only", "HEAD~1", "HEAD"]) == "config/gate.json\n")
        #expect(try repo.subjects() == ["chore(gate): set the latest version to 3.0.0"])
        #expect(repo.exists(".major-release-pending"))
        // Android's own latest is untouched: it is still nudged towards 2.5.0.
        let android = relctl(["gate", "evaluate", "2.4.0", "--platform", "android", "--json"], in: repo.path)
        let ios = relctl(["gate", "evaluate", "2.5.0", "--platform", "ios", "--json"], in: repo.path)
        expectTranscript([(["gate", "evaluate", "2.4.0", "--platform", "android", "--json"], android),
                          (["gate", "evaluate", "2.5.0", "--platform", "ios", "--json"], ios)],
                         matches: "gate/set-latest-then-evaluate.txt", repo: repo)
    }

    @Test func setLatestForAPlatformEditsItsOwnValue() throws {
        let repo = try GateApp.plain()
        let result = run(repo, ["gate", "set-latest", "3.0.0", "--platform", "android"])
        #expect(result.code == 0, "\(result.stderr)")
        // Android's own latest and the document's version move; the default latest stays 2.5.0.
        Golden.expect(try repo.read(GateApp.plainPath), matches: "gate/gate.after-set-latest-android.json")
    }

    @Test func setLatestRefusalsWriteNothing() throws {
        let repo = try GateApp.firebase()
        let before = try repo.snapshot()
        let unreleased = run(repo, ["gate", "set-latest", "2.6.0"])
        let below = run(repo, ["gate", "set-latest", "2.3.0", "--platform", "ios"])
        let other = try GateApp.firebase(template: try GateApp.input("remoteconfig.template.json")
            .replacingOccurrences(of: "\"value\": \"2.3.0\"", with: "\"value\": \"2.4.0\""))
        let belowDefault = run(other, ["gate", "set-latest", "2.3.1"])
        let same = run(repo, ["gate", "set-latest", "2.5.0"])
        expectTranscript([(["gate", "set-latest", "2.6.0"], unreleased), (["gate", "set-latest", "2.3.0", "--platform", "ios"], below),
                          (["gate", "set-latest", "2.3.1"], belowDefault), (["gate", "set-latest", "2.5.0"], same)],
                         matches: "gate/set-latest-refusals.txt", repo: repo, placeholders: [(other.path, "<other repo>")])
        #expect(try repo.snapshot() == before)
    }

    @Test func aLatestBelowAPlatformsOwnMinimumIsRefused() throws {
        // iOS's own minimum is 2.3.1: a default latest of 2.3.0 would leave iOS users on it blocked.
        let template = try GateApp.input("remoteconfig.template.json").replacingOccurrences(of: "\"value\": \"2.5.0\"", with: "\"value\": \"2.4.0\"")
        let repo = try GateApp.firebase(template: template)
        let before = try repo.snapshot()
        let result = run(repo, ["gate", "set-latest", "2.3.0"])
        expectTranscript(["gate", "set-latest", "2.3.0"], result, matches: "gate/set-latest-below-a-platform-minimum.txt", repo: repo)
        #expect(try repo.snapshot() == before)
    }

    // MARK: status

    @Test func statusNamesADocumentItCannotReadAndStillSucceeds() throws {
        let repo = try GateApp.plain(document: "{\"minimumSupportedVersion\": [}")
        let text = run(repo, ["status"])
        expectTranscript(["status"], text, matches: "gate/status-document-not-json.txt", repo: repo)
        let json = run(repo, ["status", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let gate = try #require(object["gate"] as? [String: Any])
        #expect(gate["document"] as? String == "config/gate.json")
        #expect((gate["problem"] as? String)?.hasPrefix("config/gate.json:1: not valid JSON: ") == true)
        #expect((gate["platforms"] as? [Any])?.isEmpty == true)
    }
}
