import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// One misconfiguration of a gate document: the edit that makes it, the line it is on (found by its text in the
/// edited document) and what `relctl gate check` must say there.
struct GateMisconfiguration: CustomStringConvertible, Sendable {
    let name: String
    let plain: Bool
    let replace: String
    let with: String
    /// Text on the line the problem is reported at (nil: a problem without a line).
    let lineOf: String?
    let says: String

    var description: String { name }

    func document() throws -> String {
        let original = try GateApp.input(plain ? "gate.json" : "remoteconfig.template.json")
        precondition(original.contains(replace), "\(name): the input has no \(replace)")
        return original.replacingOccurrences(of: replace, with: with)
    }

    func expectedPrefix(in text: String) -> String {
        let path = plain ? GateApp.plainPath : GateApp.templatePath
        guard let lineOf else { return "error: \(path): " }
        let line = text.components(separatedBy: "\n").firstIndex { $0.contains(lineOf) }.map { $0 + 1 } ?? -1
        return "error: \(path):\(line): "
    }
}

@Suite("relctl gate check")
struct GateCheckTests {
    @Test func theFirebaseTemplateAndThePlainDocumentAreValid() throws {
        for (repo, name) in [(try GateApp.firebase(), "firebase"), (try GateApp.plain(), "plain")] {
            let (result, transcript) = goldenRun(repo, ["gate", "check"])
            #expect(result.code == 0, "\(result.stderr)")
            // The document is valid, and each platform's minimum and latest (ios 2.3.1 and 2.5.0).
            Golden.expect(transcript, matches: "gate/check-valid-\(name).txt")
        }
    }

    static let misconfigurations: [GateMisconfiguration] = [
        .init(name: "a misspelt key", plain: false, replace: "\"vendor_latest_version\"", with: "\"vendor_latest_versoin\"",
              lineOf: "vendor_latest_versoin", says: "\"vendor_latest_versoin\" is not a key the gate reads; did you mean \"vendor_latest_version\"?"),
        .init(name: "a missing key", plain: false, replace: "\"vendor_ios_store_url\"", with: "\"ios_listing_link\"",
              lineOf: nil, says: "\"vendor_ios_store_url\" is missing: the gate has no App Store page for the Update button"),
        .init(name: "a version that does not parse", plain: false, replace: "\"value\": \"2.5.0\"", with: "\"value\": \"2.5.x\"",
              lineOf: "2.5.x", says: "\"vendor_latest_version\" is \"2.5.x\", not a version"),
        .init(name: "a minimum above the latest", plain: false, replace: "\"value\": \"2.3.1\"", with: "\"value\": \"2.6.0\"",
              lineOf: "2.6.0", says: "for ios the minimum 2.6.0 (\"vendor_min_supported_version\" (condition ios)) is above the latest 2.5.0"),
        .init(name: "a store URL that is not https", plain: false, replace: "https://play.google.com", with: "http://play.google.com",
              lineOf: "http://play.google.com", says: "\"vendor_android_store_url\" is \"http://play.google.com/store/apps/details?id=com.example.tidewater\", not an https URL"),
        .init(name: "an empty message", plain: false, replace: "\"This version of Tidewater can no longer load tide tables. Update to continue.\"", with: "\"  \"",
              lineOf: "\"  \"", says: "\"vendor_force_update_message\" is empty, so ios and android have no value"),
        .init(name: "a condition the template does not define", plain: false, replace: "\"ios\": {\n          \"value\": \"2.3.1\"", with: "\"iOS\": {\n          \"value\": \"2.3.1\"",
              lineOf: "2.3.1", says: "\"vendor_min_supported_version\" has a value for the condition 'iOS', which the template does not define; did you mean 'ios'?"),
        .init(name: "a value of the wrong type", plain: false, replace: "\"value\": \"true\"", with: "\"value\": \"sometimes\"",
              lineOf: nil, says: "\"vendor_android_native_update_enabled\": expected true or false, found \"sometimes\""),
        .init(name: "a syntax error", plain: false, replace: "\"tagColor\": \"BLUE\"\n", with: "\"tagColor\": \"BLUE\",\n",
              lineOf: "\"tagColor\": \"BLUE\",", says: "not valid JSON"),
        .init(name: "a platforms member of no platform", plain: true, replace: "\"ios\": { \"minimumSupportedVersion\"", with: "\"iOS\": { \"minimumSupportedVersion\"",
              lineOf: "\"iOS\"", says: "\"platforms\" has a member 'iOS', which is not one of the gate's platforms (ios, android); did you mean 'ios'?"),
        .init(name: "a plain version that does not parse", plain: true, replace: "\"minimumSupportedVersion\": \"2.3.0\"", with: "\"minimumSupportedVersion\": \"v2.3\"",
              lineOf: "v2.3", says: "\"minimumSupportedVersion\" is \"v2.3\", not a version"),
        .init(name: "a misspelt plain key", plain: true, replace: "\"latestVersion\": \"2.5.0\",", with: "\"latestVerison\": \"2.5.0\",",
              lineOf: "latestVerison", says: "\"latestVerison\" is not a key the gate reads; did you mean \"latestVersion\"?"),
    ]

    @Test(arguments: misconfigurations)
    func catches(_ case: GateMisconfiguration) throws {
        let text = try `case`.document()
        let repo = `case`.plain ? try GateApp.plain(document: text) : try GateApp.firebase(template: text)
        let before = try repo.snapshot()
        let result = relctl(["gate", "check"], in: repo.path)
        #expect(result.code == 2, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1, "one problem, one line: \(result.stderr)")
        #expect(errors.first?.hasPrefix(`case`.expectedPrefix(in: text) + `case`.says) == true,
                "expected \(`case`.expectedPrefix(in: text) + `case`.says)\ngot \(result.stderr)")
        #expect(result.stderr.contains("gate check: 1 problem in "))
        #expect(try repo.snapshot() == before)
    }

    @Test func everyProblemIsOneLineAndJSONListsThem() throws {
        var template = try GateApp.input("remoteconfig.template.json")
        template = template.replacingOccurrences(of: "https://apps.apple.com", with: "apps.apple.com")
            .replacingOccurrences(of: "\"value\": \"2.5.0\"", with: "\"value\": \"2.2.0\"")
        let repo = try GateApp.firebase(template: template)
        let text = relctl(["gate", "check"], in: repo.path)
        #expect(text.code == 2)
        #expect(text.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }.count == 3, "\(text.stderr)")
        let json = relctl(["gate", "check", "--json"], in: repo.path)
        #expect(json.code == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == false)
        #expect((object["problems"] as? [[String: Any]])?.count == 3)
    }

    @Test func aMissingDocumentIsAFailureSayingHowToFetchIt() throws {
        let repo = try GateApp.firebase()
        try repo.git(["rm", "-q", GateApp.templatePath])
        let (result, resultTranscript) = goldenRun(repo, ["gate", "check"])
        #expect(result.code == 1)
        Golden.expect(resultTranscript, matches: "errors/gate-check-missing-document.txt")
    }

    @Test func withoutAGateTheFixIsNamed() throws {
        let repo = try TestRepository.released("1.0.0", then: [])
        let (result, resultTranscript) = goldenRun(repo, ["gate", "check"])
        #expect(result.code == 1)
        Golden.expect(resultTranscript, matches: "errors/gate-check-no-gate.txt")
    }
}
