import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

@Suite("relctl gate evaluate")
struct GateEvaluateTests {
    func json(_ result: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func belowTheIOSMinimumIsBlockedWithTheForceMessageAndTheStorePage() throws {
        let repo = try GateApp.firebase()
        let result = relctl(["gate", "evaluate", "2.3.0", "--platform", "ios"], in: repo.path)
        #expect(result.code == 0)
        #expect(result.stdout == """
            status:     blocked
            reason:     2.3.0 is below the minimum 2.3.1 for ios: the update is required, with no Later (belowMinimum)
            installed:  2.3.0
            minimum:    2.3.1
            latest:     2.5.0
            message:    This version of Tidewater can no longer load tide tables. Update to continue.
            store:      https://apps.apple.com/app/tidewater/id6446001234

            """)
    }

    /// A beta build reports `2.3.1-beta.1`, which relctl itself writes into an Android versionName: evaluated as
    /// the app's library reads it (its parts 2, 3, 1, 1), never a usage error.
    @Test func aPrereleaseVersionIsEvaluatedAsTheAppReadsIt() throws {
        let repo = try GateApp.firebase()
        let result = relctl(["gate", "evaluate", "2.3.1-beta.1", "--platform", "ios"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == """
            status:     updateAvailable
            reason:     2.3.1-beta.1 is below the latest 2.5.0 for ios: the update is offered, with Later (belowLatest)
            installed:  2.3.1-beta.1 (compared as 2.3.1.1, as the app reads it)
            minimum:    2.3.1
            latest:     2.5.0
            message:    Tidewater 2.5 is out with offline harbour charts — update when you are back in port.
            store:      https://apps.apple.com/app/tidewater/id6446001234

            """)
        let below = try json(relctl(["gate", "evaluate", "2.3.0-rc.9", "--platform", "ios", "--json"], in: repo.path))
        #expect(below["status"] as? String == "blocked")
        #expect(below["installed"] as? String == "2.3.0-rc.9")
        let none = relctl(["gate", "evaluate", "unknown"], in: repo.path)
        #expect(none.code == 64)
        #expect(none.stderr.hasPrefix("error: installed version 'unknown' has no number in it; give the version the app reports, like 2.3.0\n"), "\(none.stderr)")
    }

    @Test func theSameVersionOnAndroidReadsTheDefaultMinimumAndIsNudged() throws {
        let repo = try GateApp.firebase()
        let object = try json(relctl(["gate", "evaluate", "2.3.0", "--platform", "android", "--json"], in: repo.path))
        #expect(object["schemaVersion"] as? Int == 1)
        #expect(object["status"] as? String == "updateAvailable")
        #expect(object["reason"] as? String == "belowLatest")
        #expect(object["installed"] as? String == "2.3.0")
        #expect(object["minimum"] as? String == "2.3.0")
        #expect(object["latest"] as? String == "2.5.0")
        #expect(object["storeUrl"] as? String == "https://play.google.com/store/apps/details?id=com.example.tidewater")
        #expect((object["message"] as? String)?.hasPrefix("Tidewater 2.5 is out") == true)
    }

    @Test func aDismissedLatestIsOkAndANewerLatestAsksAgain() throws {
        let repo = try GateApp.plain()
        let dismissed = try json(relctl(["gate", "evaluate", "2.4.0", "--platform", "ios", "--dismissed", "2.5.0", "--json"], in: repo.path))
        #expect(dismissed["status"] as? String == "ok")
        #expect(dismissed["reason"] as? String == "dismissed")
        #expect(dismissed["message"] is NSNull)
        let older = try json(relctl(["gate", "evaluate", "2.4.0", "--platform", "ios", "--dismissed", "2.4.5", "--json"], in: repo.path))
        #expect(older["status"] as? String == "updateAvailable")
    }

    @Test func aStoreListingNotNewerThanTheInstalledVersionIsOkEvenBelowTheMinimum() throws {
        let repo = try GateApp.firebase()
        let object = try json(relctl(["gate", "evaluate", "2.2.0", "--platform", "ios", "--store-version", "2.2.0", "--json"], in: repo.path))
        #expect(object["status"] as? String == "ok")
        #expect(object["reason"] as? String == "notOlderThanStore")
        #expect(object["latest"] as? String == "2.2.0")
    }

    @Test func withoutAPlatformTheDefaultValuesApply() throws {
        let repo = try GateApp.firebase()
        let object = try json(relctl(["gate", "evaluate", "2.3.0", "--json"], in: repo.path))
        #expect(object["status"] as? String == "updateAvailable")
        #expect(object["minimum"] as? String == "2.3.0")
        #expect(object["storeUrl"] is NSNull)
    }

    @Test func aMissingDocumentFailsOpenWithExitZero() throws {
        let repo = try GateApp.firebase()
        try repo.git(["rm", "-q", GateApp.templatePath])
        let (result, resultTranscript) = goldenRun(repo, ["gate", "evaluate", "1.0.0", "--platform", "ios", "--json"])
        #expect(result.code == 0)
        let object = try json(result)
        #expect(object["status"] as? String == "error")
        #expect(object["reason"] as? String == "configUnavailable")
        #expect(object["minimum"] is NSNull)
        // The warning: the document does not exist, the app fails open, the verdict is error.
        Golden.expect(resultTranscript, matches: "gate/evaluate-missing-document--json.txt")
    }

    @Test func anUnreadableDocumentFailsOpenWithExitZero() throws {
        let repo = try GateApp.plain(document: "{\"minimumSupportedVersion\": \"9.0.0\",\n}")
        let (result, resultTranscript) = goldenRun(repo, ["gate", "evaluate", "1.0.0"])
        #expect(result.code == 0)
        #expect(result.stdout.hasPrefix("status:     error\nreason:     the document could not be read: the app fails open and lets the user through (configUnreadable)\n"))
        Golden.expect(resultTranscript, matches: "gate/evaluate-unreadable-document.txt")
    }

    @Test func maintenanceStopsEveryVersion() throws {
        let document = try GateApp.input("gate.json").replacingOccurrences(of: "\"maintenance\": false", with: "\"maintenance\": true")
        let repo = try GateApp.plain(document: document)
        let object = try json(relctl(["gate", "evaluate", "9.9.9", "--platform", "android", "--json"], in: repo.path))
        #expect(object["status"] as? String == "maintenance")
        #expect(object["reason"] as? String == "maintenance")
    }

    @Test(arguments: [["gate", "evaluate", "two"], ["gate", "evaluate", "2.0.0", "--platform", "web"],
                      ["gate", "evaluate", "2.0.0", "--dismissed", "later"]])
    func badArgumentsAreUsageErrors(_ arguments: [String]) throws {
        let repo = try GateApp.firebase()
        let (result, transcript) = goldenRun(repo, arguments)
        #expect(result.code == 64, "\(result.stderr)")
        // The error, then the command's usage.
        Golden.expect(transcript, matches: "usage/gate-evaluate-\(arguments.dropFirst(2).joined(separator: "-")).txt")
    }
}
