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
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("kept the minimum after the major release 3.0.0; the pending decision is resolved (commit "))
        #expect(!repo.exists(".major-release-pending"))
        #expect(try repo.read(GateApp.templatePath) == template)
        #expect(try repo.git(["diff", "--name-status", "HEAD~1", "HEAD"]) == "D\t.major-release-pending\n")
        #expect(try repo.subjects() == ["chore(gate): keep the minimum supported version after major release 3.0.0"])
        let body = try repo.git(["log", "-1", "--format=%b"]).replacingOccurrences(of: "\n", with: " ")
        #expect(body.contains("Reason: the v1 harbour API stays up until March"))
        #expect(body.contains("the minimum stays at ios 2.3.1, android 2.3.0 in remoteconfig.template.json"))
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
        #expect(run(repo, ["status"]).stdout.contains("major pending: none"))
    }

    @Test func keepMinDryRunShowsTheRemovalAndChangesNothing() throws {
        let repo = try GateApp.plain()
        let before = try repo.snapshot()
        let result = run(repo, ["gate", "keep-min", "--reason", "old builds still sync", "--dry-run"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("diff --git a/.major-release-pending b/.major-release-pending\ndeleted file mode 100644\n--- a/.major-release-pending\n+++ /dev/null\n@@ -1,"))
        #expect(result.stderr.contains("    Reason: old builds still sync\n"))
        #expect(try repo.snapshot() == before)
        // The diff is one git applies.
        try repo.git(["apply", "--check"], input: result.stdout)
    }

    @Test func keepMinIsRefusedWithoutAPendingDecisionOrBeforeTheReleaseIsMade() throws {
        let none = try GateApp.firebase(majorPending: false)
        let nothing = run(none, ["gate", "keep-min", "--reason", "x"])
        #expect(nothing.code == 1)
        #expect(nothing.stderr.contains("error: no major release decision is pending: there is no .major-release-pending at the repository root, so there is nothing to keep"))

        // A halted release leaves the marker in the work tree, not committed: the release is not made yet.
        let halted = try GateApp.firebase(majorPending: false)
        try halted.write(".major-release-pending", GateApp.majorNotice.json())
        let before = try halted.snapshot()
        let early = run(halted, ["gate", "keep-min", "--reason", "x"])
        #expect(early.code == 1)
        #expect(early.stderr.contains("error: .major-release-pending is not committed: the major release 3.0.0 was halted and has not been made yet; relctl release --confirm-major makes it"))
        #expect(try halted.snapshot() == before)

        let noReason = run(try GateApp.firebase(), ["gate", "keep-min", "--reason", "  "])
        #expect(noReason.code == 64)
        #expect(noReason.stderr.contains("error: keep-min needs --reason TEXT"))
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
        #expect(android.stdout.contains("\"latest\":\"2.5.0\""))
        let ios = relctl(["gate", "evaluate", "2.5.0", "--platform", "ios", "--json"], in: repo.path)
        #expect(ios.stdout.contains("\"status\":\"updateAvailable\""))
    }

    @Test func setLatestForAPlatformEditsItsOwnValue() throws {
        let repo = try GateApp.plain()
        let result = run(repo, ["gate", "set-latest", "3.0.0", "--platform", "android"])
        #expect(result.code == 0, "\(result.stderr)")
        let document = try repo.read(GateApp.plainPath)
        #expect(document.contains("\"android\": { \"latestVersion\": \"3.0.0\" }"))
        #expect(document.contains("\t\"latestVersion\": \"2.5.0\",\n"))
        #expect(document.contains("\"configVersion\": 113,"))
    }

    @Test func setLatestRefusalsWriteNothing() throws {
        let repo = try GateApp.firebase()
        let before = try repo.snapshot()
        let unreleased = run(repo, ["gate", "set-latest", "2.6.0"])
        #expect(unreleased.code == 1)
        #expect(unreleased.stderr.contains("error: 2.6.0 is not a released version"))
        let below = run(repo, ["gate", "set-latest", "2.3.0", "--platform", "ios"])
        #expect(below.code == 1)
        #expect(below.stderr.contains("has no value of its own for ios"))
        let belowDefault = run(try GateApp.firebase(template: try GateApp.input("remoteconfig.template.json")
            .replacingOccurrences(of: "\"value\": \"2.3.0\"", with: "\"value\": \"2.4.0\"")), ["gate", "set-latest", "2.3.1"])
        #expect(belowDefault.code == 1)
        #expect(belowDefault.stderr.contains("error: remoteconfig.template.json:51: 2.3.1 is below the default minimum 2.4.0 (\"vendor_min_supported_version\"): users on the latest would be blocked"))
        let same = run(repo, ["gate", "set-latest", "2.5.0"])
        #expect(same.code == 0)
        #expect(same.stderr.contains("\"vendor_latest_version\" is already 2.5.0 in remoteconfig.template.json; nothing to change"))
        #expect(try repo.snapshot() == before)
    }

    @Test func aLatestBelowAPlatformsOwnMinimumIsRefused() throws {
        // iOS's own minimum is 2.3.1: a default latest of 2.3.0 would leave iOS users on it blocked.
        let template = try GateApp.input("remoteconfig.template.json").replacingOccurrences(of: "\"value\": \"2.5.0\"", with: "\"value\": \"2.4.0\"")
        let repo = try GateApp.firebase(template: template)
        let before = try repo.snapshot()
        let result = run(repo, ["gate", "set-latest", "2.3.0"])
        #expect(result.code == 1)
        #expect(result.stderr.contains("error: remoteconfig.template.json:38: after the change: for ios the minimum 2.3.1 (\"vendor_min_supported_version\" (condition ios)) is above the latest 2.3.0"))
        #expect(try repo.snapshot() == before)
    }

    // MARK: status

    @Test func statusNamesADocumentItCannotReadAndStillSucceeds() throws {
        let repo = try GateApp.plain(document: "{\"minimumSupportedVersion\": [}")
        let text = run(repo, ["status"])
        #expect(text.code == 0)
        #expect(text.stdout.contains("gate:          config/gate.json:1: not valid JSON: "))
        #expect(text.stdout.contains(" (relctl gate check)\n"))
        let json = run(repo, ["status", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let gate = try #require(object["gate"] as? [String: Any])
        #expect(gate["document"] as? String == "config/gate.json")
        #expect((gate["problem"] as? String)?.hasPrefix("config/gate.json:1: not valid JSON: ") == true)
        #expect((gate["platforms"] as? [Any])?.isEmpty == true)
    }
}
