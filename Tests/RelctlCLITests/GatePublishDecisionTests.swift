import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// `gate raise-min|set-latest|keep-min --publish`: the decision's commit, then the Remote Config publish, as one
/// step; a publish that fails undoes the commit (loopback Remote Config of RemoteConfigSyncTests).
@Suite("gate decisions with --publish")
struct GatePublishDecisionTests {
    /// Tidewater with the live template pulled and committed.
    static func pulled() throws -> RemoteConfigSyncTests.Fixture {
        let f = try RemoteConfigSyncTests.fixture()
        let pull = f.run(["gate", "pull"])
        #expect(pull.code == 0, "\(pull.stderr)")
        try f.repo.commitAll("chore(gate): pull the live template")
        return f
    }

    @Test func theCommitThenThePublish() throws {
        let f = try Self.pulled()
        defer { f.server.stop(); f.curl.remove() }
        let result = f.run(["gate", "set-latest", "3.0.0", "--publish"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try f.repo.subjects(1) == ["chore(gate): set the latest version to 3.0.0"])
        #expect(f.live.parameter("vendor_latest_version") == "3.0.0")
        #expect(f.live.puts.map(\.validateOnly) == [true, false])
        #expect(result.stderr.contains("published version 43 of tidewater-prod's Remote Config template (was version 42); live now:\n  changed vendor_latest_version: default \"2.5.0\" → \"3.0.0\"\n"), "\(result.stderr)")
        #expect(try f.repo.git(["status", "--porcelain"]).isEmpty)
    }

    @Test func aFailedPublishUndoesTheCommitAndNothingChangedLive() throws {
        let f = try Self.pulled()
        defer { f.server.stop(); f.curl.remove() }
        // Someone edits the console after the pull: the publish refuses, so the commit must go.
        f.live.lock.lock()
        RemoteConfigSyncTests.setDefault("vendor_force_update_message", "Update Tidewater.")(&f.live.template)
        f.live.version = 43
        f.live.lock.unlock()
        let before = try f.repo.snapshot()
        let result = f.run(["gate", "set-latest", "3.0.0", "--publish"])
        #expect(result.code == 1)
        let error = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(error.hasPrefix("error: the publish failed, so nothing changed live (the live template is at version 43, and remoteconfig.template.json was pulled at 42;"), "\(result.stderr)")
        #expect(error.hasSuffix("); the decision's commit \(error.components(separatedBy: "decision's commit ").last?.prefix(12) ?? "") was undone: the gate document, the marker and the index were restored"), "\(error)")
        #expect(try f.repo.snapshot() == before)
        #expect(f.live.puts.isEmpty)
        #expect(f.live.parameter("vendor_latest_version") == "2.5.0")
    }

    @Test func withoutCredentialsNothingIsCommitted() throws {
        let f = try Self.pulled()
        defer { f.server.stop(); f.curl.remove() }
        let before = try f.repo.snapshot()
        let result = f.run(["gate", "set-latest", "3.0.0", "--publish"], [GoogleCredentials.keyFileVariable: ""])
        #expect(result.code == 1)
        #expect(result.stderr.hasSuffix("error: relctl gate set-latest --publish needs Google credentials: set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file, or GOOGLE_OAUTH_ACCESS_TOKEN (gcloud auth print-access-token) (README, \"Stores and Remote Config\")\n"), "\(result.stderr)")
        #expect(try f.repo.snapshot() == before)
    }
}
