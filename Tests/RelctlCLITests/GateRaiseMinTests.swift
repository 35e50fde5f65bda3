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
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
        #expect(repo.exists(".major-release-pending"))
        // What was raised (and the commit), the notes on ios's own minimum and the pending major; the commit message.
        expectTranscript(["gate", "raise-min", "2.5.0", "--confirm-live"], result, matches: "gate/raise-min-default.txt", repo: repo,
                         sections: [("commit message", try repo.git(["log", "-1", "--format=%B"]))])
    }

    @Test func theDryRunPrintsTheDiffTheRealRunMakesAndChangesNothing() throws {
        let repo = try GateApp.plain()
        let before = try repo.snapshot()
        let dry = run(repo, ["gate", "raise-min", "2.5.0", "--dry-run"])
        #expect(try repo.snapshot() == before)
        expectTranscript(["gate", "raise-min", "2.5.0", "--dry-run"], dry, matches: "gate/raise-min-plain--dry-run.txt", repo: repo)
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
        expectTranscript(["gate", "raise-min", "2.5.0", "--confirm-live"], result, matches: "gate/raise-min-uncommitted-document.txt", repo: repo)
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
        expectTranscript(["gate", "raise-min", "2.5.0", "--confirm-live"], refused, matches: "gate/raise-min-app-store-older.txt", repo: repo,
                         placeholders: [(server.baseURL, "<server>")])
        #expect(try repo.snapshot() == before)
        #expect(server.requests == ["/lookup?bundleId=com.example.tidewater&country=us"])

        server.respond(body: LoopbackHTTPServer.lookupAnswer("2.5.0"))
        let raised = run(repo, ["gate", "raise-min", "2.5.0", "--confirm-live"], environment)
        expectTranscript(["gate", "raise-min", "2.5.0", "--confirm-live"], raised, matches: "gate/raise-min-app-store-live.txt", repo: repo,
                         placeholders: [(server.baseURL, "<server>")], sections: [("commit message", try repo.git(["log", "-1", "--format=%B"]))])
    }

    @Test func aLookupThatListsNothingFailsOrCannotBeReachedIsRefused() throws {
        let repo = try GateApp.firebase(gate: Self.appStoreGate)
        let before = try repo.snapshot()
        let server = try LoopbackHTTPServer(body: LoopbackHTTPServer.lookupAnswer(nil))
        let environment = [AppStoreClient.baseURLVariable: server.baseURL]
        let arguments = ["gate", "raise-min", "2.5.0", "--confirm-live"]
        let nothing = run(repo, arguments, environment)
        server.respond(status: 503, body: "busy")
        let failing = run(repo, arguments, environment)
        server.stop()
        let unreachable = run(repo, arguments, environment)
        let plainHTTP = run(repo, arguments, [AppStoreClient.baseURLVariable: "http://lookup.example.com"])
        // (Why the closed port cannot be reached is the system's wording: only the line's start is compared.)
        expectTranscript([(arguments, nothing), (arguments, failing), (arguments, plainHTTP)], matches: "gate/raise-min-app-store-lookup-fails.txt",
                         repo: repo, placeholders: [(server.baseURL, "<server>")])
        #expect(unreachable.code == 1)
        #expect(unreachable.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
                    .map { $0.hasPrefix("error: cannot ask the App Store (us) which version of com.example.tidewater is live (\(server.baseURL)/lookup?bundleId=com.example.tidewater&country=us: ") } == [true],
                "\(unreachable.stderr)")
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
        #expect(repo.exists(".major-release-pending"))
        let dry = run(repo, ["gate", "raise-min", "3.0.0", "--dry-run"], environment)
        // ios raised, the major still pending (android below it); the dry run for all deletes the marker.
        expectTranscript([(["gate", "raise-min", "3.0.0", "--platform", "ios", "--confirm-live"], ios), (["gate", "raise-min", "3.0.0", "--dry-run"], dry)],
                         matches: "gate/raise-min-resolves-the-major-ios-then-dry-run.txt", repo: repo, placeholders: [(server.baseURL, "<server>")])
        #expect(repo.exists(".major-release-pending"))

        let all = run(repo, ["gate", "raise-min", "3.0.0", "--confirm-live"], environment)
        #expect(all.code == 0, "\(all.stderr)")
        #expect(!repo.exists(".major-release-pending"))
        #expect(try repo.git(["diff", "--name-only", "HEAD~1", "HEAD"]) == ".major-release-pending\nremoteconfig.template.json\n")
        let message = try repo.git(["log", "-1", "--format=%B"])
        #expect(try repo.subjects(3) == ["chore(gate): raise the minimum supported version to 3.0.0",
                                         "chore(gate): raise the minimum supported version to 3.0.0 on ios",
                                         "chore(gate): set the latest version to 3.0.0"])
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
        let status = run(repo, ["status"])
        // The commit that resolves the major, then the status: both minimums at 3.0.0, nothing pending.
        expectTranscript([(["gate", "raise-min", "3.0.0", "--confirm-live"], all), (["status"], status)],
                         matches: "gate/raise-min-resolves-the-major-all.txt", repo: repo, placeholders: [(server.baseURL, "<server>")],
                         sections: [("commit message", message)])
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
        // (libgit2's reason is its own wording: the line is compared around it.)
        #expect(result.code == 1)
        #expect(result.stdout.isEmpty)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1 && errors[0].hasPrefix("error: the decision could not be committed: ")
                && errors[0].hasSuffix("; the gate document, the marker and the index were restored"), "\(result.stderr)")
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
        #expect(try repo.read(GateApp.templatePath) == GateApp.input("remoteconfig.template.json").replacingOccurrences(
            of: "\"defaultValue\": {\n        \"value\": \"2.3.0\"", with: "\"defaultValue\": {\n        \"value\": \"2.5.0\""))
    }

    @Test func commitMessagesAreWrappedAt72ColumnsButTheTitle() {
        let message = GateDecisionCommit.wrapped("chore(gate): " + String(repeating: "t", count: 80) + "\n\n" + Array(repeating: "word", count: 40).joined(separator: " ") + "\n")
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0].count == 93)
        #expect(lines.dropFirst().allSatisfy { $0.count <= 72 })
        #expect(lines.dropFirst(2).joined(separator: " ").trimmingCharacters(in: .whitespaces) == Array(repeating: "word", count: 40).joined(separator: " "))
    }
}
