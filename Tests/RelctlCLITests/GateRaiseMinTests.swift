import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

@Suite("relctl gate raise-min")
struct GateRaiseMinTests {
    /// Runs relctl with the repository's fixed identity and dates (so a commit can be made).
    func run(_ repo: TestRepository, _ arguments: [String], _ extra: [String: String] = [:]) -> CLIResult {
        relctl(arguments, in: repo.path, environment: repo.goldenEnvironment(extra))
    }

    static let refusals: [(arguments: [String], says: String)] = [
        (["gate", "raise-min", "2.6.0", "--confirm-live"],
         "error: 2.6.0 is not a released version: no release tag of tagFormat v{version} holds it, and the minimum must be a version users can install; release it first (relctl release); released: 3.0.0, 2.5.0, 2.4.0, 2.3.1, 2.3.0"),
        (["gate", "raise-min", "2.3.0", "--confirm-live"],
         "error: remoteconfig.template.json:34: 2.3.0 is not above the default minimum 2.3.0 (\"vendor_min_supported_version\"), so there is nothing to raise"),
        (["gate", "raise-min", "2.3.1", "--platform", "ios", "--confirm-live"],
         "error: remoteconfig.template.json:38: 2.3.1 is not above ios's minimum 2.3.1 (\"vendor_min_supported_version\" (condition ios))"),
        (["gate", "raise-min", "3.0.0", "--confirm-live"],
         "error: remoteconfig.template.json:51: 3.0.0 is above the default latest 2.5.0 (\"vendor_latest_version\"): users on 2.5.0 would be blocked with nothing newer to install (move the latest first: relctl gate set-latest 3.0.0)"),
        (["gate", "raise-min", "2.5.0"],
         "error: raising the minimum to 2.5.0 blocks every user below it, and apps already installed cannot be recalled; confirm that 2.5.0 is live in every store the app ships to, then rerun with --confirm-live"),
        (["gate", "raise-min", "2.5.0", "--platform", "android", "--confirm-live"],
         "error: remoteconfig.template.json:32: \"vendor_min_supported_version\" has no value of its own for android (the condition 'android'), so android reads the default value (add a value for the condition 'android' to it, or leave out --platform to change the default value)"),
    ]

    @Test(arguments: refusals.indices)
    func refusesAndWritesNothing(_ index: Int) throws {
        let (arguments, says) = Self.refusals[index]
        let repo = try GateApp.firebase()
        let before = try repo.snapshot()
        let result = run(repo, arguments)
        #expect(result.code == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }.map(String.init).first?.hasPrefix(says) == true,
                "expected \(says)\ngot \(result.stderr)")
        #expect(try repo.snapshot() == before)
    }

    @Test func raisesTheDefaultInOneCommitLeavingEveryOtherByte() throws {
        let repo = try GateApp.firebase()
        let before = try repo.read(GateApp.templatePath)
        let head = try repo.head()
        let result = run(repo, ["gate", "raise-min", "2.5.0", "--confirm-live"])
        #expect(result.code == 0, "\(result.stderr)")
        let after = try repo.read(GateApp.templatePath)
        Golden.expect(after, matches: "gate/remoteconfig.template.after-raise-min.json")
        // Only the value's bytes differ: "2.3.0" → "2.5.0" in the default of vendor_min_supported_version.
        let old = Array(before.utf8), new = Array(after.utf8)
        #expect(old.count == new.count)
        let differing = zip(old, new).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(differing.count == 1)
        let line = old[..<(differing.first ?? 0)].filter { $0 == 0x0A }.count + 1
        #expect(line == 34)
        // One commit on top of HEAD, holding the template only; the marker stays (ios is still below 3.0.0).
        #expect(try repo.git(["rev-parse", "HEAD~1"]).trimmingCharacters(in: .whitespacesAndNewlines) == head)
        #expect(try repo.git(["diff", "--name-only", "HEAD~1", "HEAD"]) == "remoteconfig.template.json\n")
        #expect(try repo.subjects() == ["chore(gate): raise the minimum supported version to 2.5.0"])
        let body = try repo.git(["log", "-1", "--format=%b"])
        #expect(body.split(separator: "\n").allSatisfy { $0.count <= 72 })
        #expect(body.replacingOccurrences(of: "\n", with: " ").contains("\"vendor_min_supported_version\" in remoteconfig.template.json: 2.3.0 → 2.5.0 (the default value)."))
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
        #expect(repo.exists(".major-release-pending"))
        #expect(result.stderr.contains("note: ios reads its own minimum 2.3.1 (\"vendor_min_supported_version\" (condition ios), line 38), left as it is; raise it with: relctl gate raise-min 2.5.0 --platform ios"))
        #expect(result.stderr.contains("note: the major release 3.0.0 stays pending"))
        #expect(result.stdout.hasPrefix("raised \"vendor_min_supported_version\" from 2.3.0 to 2.5.0 in remoteconfig.template.json (commit "))
    }

    @Test func theDryRunPrintsTheDiffTheRealRunMakesAndChangesNothing() throws {
        let repo = try GateApp.plain()
        let before = try repo.snapshot()
        let dry = run(repo, ["gate", "raise-min", "2.5.0", "--dry-run"])
        #expect(dry.code == 0, "\(dry.stderr)")
        #expect(try repo.snapshot() == before)
        #expect(dry.stdout.contains("-\t\"configVersion\": 112,\n-\t\"minimumSupportedVersion\": \"2.3.0\",\n+\t\"configVersion\": 113,\n+\t\"minimumSupportedVersion\": \"2.5.0\",\n"))
        #expect(dry.stderr.contains("dry run: nothing was changed; the commit would be:\n    chore(gate): raise the minimum supported version to 2.5.0\n"))
        // The diff applies with git and gives exactly what the real run writes.
        try repo.git(["apply"], input: dry.stdout)
        let applied = try repo.read(GateApp.plainPath)
        try repo.git(["checkout", "--", "."])
        let real = run(repo, ["gate", "raise-min", "2.5.0", "--confirm-live"])
        #expect(real.code == 0, "\(real.stderr)")
        #expect(try repo.read(GateApp.plainPath) == applied)
        Golden.expect(applied, matches: "gate/gate.after-raise-min.json")
    }

    @Test func uncommittedChangesToTheDocumentAreRefused() throws {
        let repo = try GateApp.firebase()
        try repo.write(GateApp.templatePath, try repo.read(GateApp.templatePath) + "\n")
        let before = try repo.snapshot()
        let result = run(repo, ["gate", "raise-min", "2.5.0", "--confirm-live"])
        #expect(result.code == 1)
        #expect(result.stderr.contains("error: remoteconfig.template.json: has uncommitted changes (commit or stash them first, so the decision's commit holds only relctl's change)"))
        #expect(try repo.snapshot() == before)
    }

    // MARK: The App Store listing, from a local server

    static let appStoreGate = #"{"document": "remoteconfig.template.json", "format": "firebase", "appStore": {"bundleId": "com.example.tidewater", "country": "us"}}"#

    @Test func aListingOlderThanTheNewMinimumIsRefusedUntilItIsLive() throws {
        let repo = try GateApp.firebase(gate: Self.appStoreGate)
        let server = try LoopbackHTTPServer(body: LoopbackHTTPServer.lookupAnswer("2.4.0"))
        defer { server.stop() }
        let environment = [AppStoreClient.baseURLVariable: server.baseURL]
        let before = try repo.snapshot()
        let refused = run(repo, ["gate", "raise-min", "2.5.0", "--confirm-live"], environment)
        #expect(refused.code == 1)
        #expect(refused.stderr.contains("error: the App Store (us) lists 2.4.0 of com.example.tidewater, older than 2.5.0: raising the minimum now would block users below 2.5.0 with nothing to install; wait until 2.5.0 is live"))
        #expect(try repo.snapshot() == before)
        #expect(server.requests == ["/lookup?bundleId=com.example.tidewater&country=us"])

        server.respond(body: LoopbackHTTPServer.lookupAnswer("2.5.0"))
        let raised = run(repo, ["gate", "raise-min", "2.5.0", "--confirm-live"], environment)
        #expect(raised.code == 0, "\(raised.stderr)")
        #expect(try repo.git(["log", "-1", "--format=%b"]).replacingOccurrences(of: "\n", with: " ").contains("Live: Apple's public lookup (no App Store Connect credentials): the App Store (us) lists 2.5.0; confirmed in every store the app ships to with --confirm-live."))
    }

    @Test func aLookupThatListsNothingFailsOrCannotBeReachedIsRefused() throws {
        let repo = try GateApp.firebase(gate: Self.appStoreGate)
        let before = try repo.snapshot()
        let server = try LoopbackHTTPServer(body: LoopbackHTTPServer.lookupAnswer(nil))
        let environment = [AppStoreClient.baseURLVariable: server.baseURL]
        let nothing = run(repo, ["gate", "raise-min", "2.5.0", "--confirm-live"], environment)
        #expect(nothing.stderr.contains("error: the App Store (us) lists no version of com.example.tidewater (\(server.baseURL)/lookup?bundleId=com.example.tidewater&country=us)"))
        server.respond(status: 503, body: "busy")
        let failing = run(repo, ["gate", "raise-min", "2.5.0", "--confirm-live"], environment)
        #expect(failing.stderr.contains("error: cannot ask the App Store (us) which version of com.example.tidewater is live (\(server.baseURL)/lookup?bundleId=com.example.tidewater&country=us: HTTP status 503)"))
        server.stop()
        let unreachable = run(repo, ["gate", "raise-min", "2.5.0", "--confirm-live"], environment)
        #expect(unreachable.stderr.contains("error: cannot ask the App Store (us) which version of com.example.tidewater is live"))
        let plainHTTP = run(repo, ["gate", "raise-min", "2.5.0", "--confirm-live"], [AppStoreClient.baseURLVariable: "http://lookup.example.com"])
        #expect(plainHTTP.stderr.contains("RELCTL_APPSTORE_LOOKUP_URL must be an https URL (plain http only to a loopback address, for tests)"))
        for result in [nothing, failing, unreachable, plainHTTP] { #expect(result.code == 1) }
        #expect(try repo.snapshot() == before)
    }

    @Test func androidAloneIsNotAskedOfTheAppStore() throws {
        let template = try GateApp.input("remoteconfig.template.json")
            .replacingOccurrences(of: "\"ios\": {\n          \"value\": \"2.3.1\"\n        }", with: "\"ios\": {\n          \"value\": \"2.3.1\"\n        },\n        \"android\": {\n          \"value\": \"2.3.0\"\n        }")
        let repo = try GateApp.firebase(gate: Self.appStoreGate, template: template)
        // No server: an App Store lookup would fail.
        let result = run(repo, ["gate", "raise-min", "2.4.0", "--platform", "android", "--confirm-live"],
                         [AppStoreClient.baseURLVariable: "http://127.0.0.1:9"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try repo.subjects() == ["chore(gate): raise the minimum supported version to 2.4.0 on android"])
    }

    // MARK: The decision flow after a major release

    @Test func theMajorReleaseIsResolvedOnceEveryPlatformsMinimumCoversIt() throws {
        let repo = try GateApp.firebase(gate: Self.appStoreGate)
        let server = try LoopbackHTTPServer(body: LoopbackHTTPServer.lookupAnswer("3.0.0"))
        defer { server.stop() }
        let environment = [AppStoreClient.baseURLVariable: server.baseURL]
        #expect(run(repo, ["gate", "set-latest", "3.0.0"], environment).code == 0)
        let ios = run(repo, ["gate", "raise-min", "3.0.0", "--platform", "ios", "--confirm-live"], environment)
        #expect(ios.code == 0, "\(ios.stderr)")
        #expect(repo.exists(".major-release-pending"))
        #expect(ios.stderr.contains("the minimum of android (2.3.0) is still below it"))

        let dry = run(repo, ["gate", "raise-min", "3.0.0", "--dry-run"], environment)
        #expect(dry.stdout.contains("diff --git a/.major-release-pending b/.major-release-pending\ndeleted file mode 100644\n--- a/.major-release-pending\n+++ /dev/null\n"))
        #expect(repo.exists(".major-release-pending"))

        let all = run(repo, ["gate", "raise-min", "3.0.0", "--confirm-live"], environment)
        #expect(all.code == 0, "\(all.stderr)")
        #expect(!repo.exists(".major-release-pending"))
        #expect(try repo.git(["diff", "--name-only", "HEAD~1", "HEAD"]) == ".major-release-pending\nremoteconfig.template.json\n")
        #expect(try repo.git(["log", "-1", "--format=%b"]).replacingOccurrences(of: "\n", with: " ").contains("Resolves the pending major release 3.0.0 (tag v3.0.0): .major-release-pending removed."))
        #expect(try repo.subjects(3) == ["chore(gate): raise the minimum supported version to 3.0.0",
                                         "chore(gate): raise the minimum supported version to 3.0.0 on ios",
                                         "chore(gate): set the latest version to 3.0.0"])
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
        let status = run(repo, ["status"])
        #expect(status.stdout.contains("gate:          remoteconfig.template.json (firebase)\n               ios      minimum 3.0.0     latest 3.0.0\n               android  minimum 3.0.0     latest 3.0.0\n"))
        #expect(status.stdout.contains("major pending: none"))
    }
}

@Suite("relctl gate: the decision commit")
struct GateDecisionCommitTests {
    @Test func aCommitThatFailsRestoresTheDocumentAndTheMarker() throws {
        let repo = try GateApp.firebase()
        try repo.git(["add", "-A"])
        // git's own lock on the index: libgit2 cannot write it, so the commit fails after the files were changed.
        try Data().write(to: URL(fileURLWithPath: repo.path + "/.git/index.lock"))
        let template = try repo.read(GateApp.templatePath)
        let marker = try repo.read(".major-release-pending")
        let head = try repo.head()
        let result = relctl(["gate", "keep-min", "--reason", "x"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 1)
        #expect(result.stderr.contains("error: the decision could not be committed: "))
        #expect(result.stderr.contains("; the gate document, the marker and the index were restored"))
        #expect(try repo.read(".major-release-pending") == marker)
        try FileManager.default.removeItem(atPath: repo.path + "/.git/index.lock")
        let raise = relctl(["gate", "raise-min", "2.5.0", "--confirm-live"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(raise.code == 0)
        try Data().write(to: URL(fileURLWithPath: repo.path + "/.git/index.lock"))
        let again = relctl(["gate", "set-latest", "3.0.0"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(again.code == 1)
        #expect(try repo.read(GateApp.templatePath) != template)   // the raise-min of before, committed
        #expect(try repo.git(["show", "HEAD:" + GateApp.templatePath]) == (try repo.read(GateApp.templatePath)))
        #expect(try repo.git(["rev-parse", "HEAD~1"]).trimmingCharacters(in: .whitespacesAndNewlines) == head)
        try FileManager.default.removeItem(atPath: repo.path + "/.git/index.lock")
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
    }

    @Test func aGivenShortVersionIsWrittenAsTheReleaseNamesIt() throws {
        let repo = try GateApp.firebase()
        let result = relctl(["gate", "raise-min", "2.5", "--confirm-live"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try repo.read(GateApp.templatePath).contains("\"value\": \"2.5.0\""))
    }

    @Test func commitMessagesAreWrappedAt72ColumnsButTheTitle() {
        let message = GateDecisionCommit.wrapped("chore(gate): " + String(repeating: "t", count: 80) + "\n\n" + Array(repeating: "word", count: 40).joined(separator: " ") + "\n")
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].count == 93)
        #expect(lines.dropFirst().allSatisfy { $0.count <= 72 })
        #expect(lines.dropFirst(2).joined(separator: " ").trimmingCharacters(in: .whitespaces) == Array(repeating: "word", count: 40).joined(separator: " "))
    }
}
