import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// Apple's lookup answer is untrusted input: a listing for another app, an answer of many megabytes, a version
/// holding terminal escapes are refused, nothing is committed, and the document is left as it was.
@Suite("the App Store lookup answer as untrusted input")
struct AppStoreAnswerTests {
    func run(_ repo: TestRepository, _ arguments: [String], _ extra: [String: String] = [:]) -> CLIResult {
        relctl(arguments, in: repo.path, environment: repo.goldenEnvironment(extra))
    }

    static func answer(bundleID: String, version: String) -> String {
        #"{"resultCount":1,"results":[{"bundleId":"\#(bundleID)","version":"\#(version)","trackViewUrl":"https://apps.apple.com/app/id1"}]}"#
    }

    func refused(_ body: String, streamed: Bool = false, expected: (String) -> String) throws {
        let repo = try GateApp.firebase(gate: GateRaiseMinTests.appStoreGate)
        let server = try LoopbackHTTPServer(body: body, omitsContentLength: streamed)
        defer { server.stop() }
        let before = try repo.snapshot()
        let result = run(repo, ["gate", "raise-min", "2.5.0", "--confirm-live"], [AppStoreClient.baseURLVariable: server.baseURL])
        #expect(result.code == 1)
        let url = "\(server.baseURL)/lookup?bundleId=com.example.tidewater&country=us"
        // After the pending-major reminder the app's history gives, the one error.
        #expect(result.stderr.hasSuffix(")\nerror: \(expected(url))\n"), "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "error: ").count == 2)
        #expect(try repo.snapshot() == before)
        // The same lookup with the app's own plain answer raises the minimum: the refusal was the answer's.
        server.respond(body: LoopbackHTTPServer.lookupAnswer("2.5.0"))
        let raised = run(repo, ["gate", "raise-min", "2.5.0", "--confirm-live"], [AppStoreClient.baseURLVariable: server.baseURL])
        #expect(raised.code == 0, "\(raised.stderr)")
    }

    @Test func aListingForAnotherAppIsRefused() throws {
        try refused(Self.answer(bundleID: "com.example.other", version: "9.9.9")) { url in
            "the App Store (us) answered for another app (com.example.other), not com.example.tidewater (\(url)); relctl does not raise the minimum on another app's listing: check 'gate.appStore.bundleId' in .relctl.json and the lookup URL (RELCTL_APPSTORE_LOOKUP_URL)"
        }
    }

    /// Several results: the one for the configured app counts, whatever comes first.
    @Test func theConfiguredAppsResultIsReadAmongOthers() throws {
        let repo = try GateApp.firebase(gate: GateRaiseMinTests.appStoreGate)
        let body = #"{"resultCount":2,"results":[{"bundleId":"com.example.other","version":"9.9.9"},{"bundleId":"COM.example.Tidewater","version":"2.4.0"}]}"#
        let server = try LoopbackHTTPServer(body: body)
        defer { server.stop() }
        let result = run(repo, ["gate", "raise-min", "2.5.0", "--confirm-live"], [AppStoreClient.baseURLVariable: server.baseURL])
        #expect(result.code == 1)
        #expect(result.stderr.contains("\nerror: the App Store (us) lists 2.4.0 of com.example.tidewater, older than 2.5.0"), "\(result.stderr)")
    }

    @Test func aVersionWithControlCharactersIsRefusedAndNeverCommitted() throws {
        try refused(Self.answer(bundleID: "com.example.tidewater", version: #"3.0.0\u001b]0;pwned\u0007"#)) { url in
            "the App Store (us) answered a version of com.example.tidewater that is not a version (\"3.0.0\\033]0;pwned\\007\", with control characters) (\(url)); relctl does not raise the minimum on it: rerun once the lookup answers a plain version"
        }
    }

    /// With a Content-Length (curl refuses it before reading) and without one (relctl stops reading at 4 MB).
    @Test(arguments: [false, true])
    func anAnswerOfManyMegabytesIsRefused(streamed: Bool) throws {
        let padding = String(repeating: " ", count: 6 << 20)
        try refused(#"{"resultCount":1,"results":[{"bundleId":"com.example.tidewater","version":"2.5.0"}],"pad":"\#(padding)"}"#,
                    streamed: streamed) { url in
            "cannot ask the App Store (us) which version of com.example.tidewater is live (\(url): the answer is larger than 4 MB, and a lookup answer is a few kilobytes; relctl reads no more of it); relctl does not raise the minimum without knowing that 2.5.0 is listed: rerun once the lookup answers"
        }
    }
}
