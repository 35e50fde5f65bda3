import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

@Suite("'gate' in .relctl.json")
struct GateConfigTests {
    /// `relctl gate check` on Tidewater with `"gate": <gate>` (at line 2 of `.relctl.json`).
    func check(_ gate: String) throws -> (result: CLIResult, repo: TestRepository) {
        let repo = try GateApp.firebase(gate: gate)
        return (relctl(["gate", "check"], in: repo.path), repo)
    }

    static let mistakes: [(gate: String, says: String)] = [
        (#"{"document": "remoteconfig.template.json", "format": "firebase", "platfroms": {}}"#,
         "error: .relctl.json:2: unknown key 'gate.platfroms'; did you mean 'gate.platforms'?"),
        (#"{"format": "firebase"}"#,
         "error: .relctl.json:2: 'gate' needs \"document\": the remote-config document relctl checks and edits"),
        (#"{"document": "remoteconfig.template.json"}"#,
         "error: .relctl.json:2: 'gate' needs \"format\": \"firebase\" (a Remote Config template) or \"json\""),
        (#"{"document": "remoteconfig.template.json", "format": "firebsae"}"#,
         "error: .relctl.json:2: 'gate.format' \"firebsae\" is not a gate document format; did you mean \"firebase\"?"),
        (#"{"document": "../shared/remoteconfig.template.json", "format": "firebase"}"#,
         "error: .relctl.json:2: 'gate.document' \"../shared/remoteconfig.template.json\" is outside the repository; give it relative to the repository root"),
        (#"{"document": "/etc/remoteconfig.json", "format": "firebase"}"#,
         "error: .relctl.json:2: 'gate.document' \"/etc/remoteconfig.json\" is an absolute path; give it relative to the repository root"),
        (#"{"document": "remoteconfig.template.json", "format": "firebase", "keys": {"minimumVersion": "ios_minimum_version"}}"#,
         "error: .relctl.json:2: unknown key 'gate.keys.minimumVersion'; known keys:"),
        (#"{"document": "remoteconfig.template.json", "format": "firebase", "keys": {"platforms": "by_platform"}}"#,
         "error: .relctl.json:2: unknown key 'gate.keys.platforms'"),
        (#"{"document": "remoteconfig.template.json", "format": "firebase", "platforms": {"iso": "ios"}}"#,
         "error: .relctl.json:2: unknown key 'gate.platforms.iso'; did you mean 'gate.platforms.ios'?"),
        (#"{"document": "remoteconfig.template.json", "format": "firebase", "appStore": {"bundleId": "com.example.tidewater", "country": "usa"}}"#,
         "error: .relctl.json:2: 'gate.appStore.country' \"usa\" is not a two-letter store country code"),
        (#"{"document": "remoteconfig.template.json", "format": "firebase", "appStore": {"country": "us"}}"#,
         "error: .relctl.json:2: 'gate.appStore' needs \"bundleId\""),
    ]

    @Test(arguments: mistakes.indices)
    func mistakesAreNamedWithTheLine(_ index: Int) throws {
        let (gate, says) = Self.mistakes[index]
        let (result, _) = try check(gate)
        #expect(result.code == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix(says), "expected \(says)\ngot \(result.stderr)")
    }

    @Test func theLineIsTheKeysLineInAMultiLineConfig() throws {
        let repo = try GateApp.firebase()
        try repo.write(".relctl.json", """
            {
              "tagFormat": "v{version}",
              "gate": {
                "document": "remoteconfig.template.json",
                "format": "firebase",
                "appStore": { "bundleId": "com.example.tidewater", "contry": "us" }
              }
            }

            """)
        let result = relctl(["gate", "check"], in: repo.path)
        #expect(result.stderr.hasPrefix("error: .relctl.json:6: unknown key 'gate.appStore.contry'; did you mean 'gate.appStore.country'?"))
    }

    @Test func aDocumentLinkedFromOutsideTheRepositoryIsRefusedWithTheKeyAndLine() throws {
        let outside = try makeTempDirectory(prefix: "relctl-gate-outside")
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try Data(try GateApp.input("remoteconfig.template.json").utf8).write(to: URL(fileURLWithPath: outside + "/remoteconfig.template.json"))
        let repo = try GateApp.firebase(gate: #"{"document": "config/remoteconfig.template.json", "format": "firebase"}"#)
        // The folder is a link out of the repository; so is the file in the second case.
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/config", withDestinationPath: outside)
        var runs: [([String], CLIResult)] = []
        for arguments in [["gate", "check"], ["gate", "raise-min", "2.5.0", "--confirm-live"], ["gate", "evaluate", "1.0.0"]] {
            let result = relctl(arguments, in: repo.path, environment: repo.goldenEnvironment())
            #expect(result.code == 1, "\(arguments)")
            runs.append((arguments, result))
        }
        // Each command names the key, its line and where the link leads.
        expectTranscript(runs, matches: "errors/gate-document-linked-from-outside.txt", repo: repo, placeholders: [(outside, "<outside>")])
        try FileManager.default.removeItem(atPath: repo.path + "/config")
        try FileManager.default.createDirectory(atPath: repo.path + "/config", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/config/remoteconfig.template.json", withDestinationPath: outside + "/remoteconfig.template.json")
        let file = relctl(["gate", "check"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(file.code == 1)
        expectTranscript(["gate", "check"], file, matches: "errors/gate-document-file-linked-from-outside.txt", repo: repo,
                         placeholders: [(outside, "<outside>")])
        #expect(try repo.git(["status", "--porcelain"]) == "?? config/\n")
    }

    @Test func aDocumentLinkedInsideTheRepositoryIsReadAndEditedAtItsRealPath() throws {
        let repo = try GateApp.firebase(gate: #"{"document": "current.json", "format": "firebase"}"#)
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/current.json", withDestinationPath: GateApp.templatePath)
        try repo.commitAll("chore: link the current template")
        let result = relctl(["gate", "raise-min", "2.5.0", "--confirm-live"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try repo.git(["diff", "--name-only", "HEAD~1", "HEAD"]) == "remoteconfig.template.json\n")
        #expect(isSymbolicLink(repo.path + "/current.json"))
    }

    @Test func renamedKeysAndPlatformConditionsAreRead() throws {
        let template = try GateApp.input("remoteconfig.template.json")
            .replacingOccurrences(of: "\"vendor_min_supported_version\"", with: "\"ios_minimum_version\"")
            .replacingOccurrences(of: "\"name\": \"ios\"", with: "\"name\": \"apple_devices\"")
            .replacingOccurrences(of: "\"ios\": {\n          \"value\": \"2.3.1\"", with: "\"apple_devices\": {\n          \"value\": \"2.3.1\"")
        let gate = #"{"document": "remoteconfig.template.json", "format": "firebase", "keys": {"minimumSupportedVersion": "ios_minimum_version"}, "platforms": {"ios": "apple_devices", "android": "android"}}"#
        let repo = try GateApp.firebase(gate: gate, template: template)
        let (check, checkTranscript) = goldenRun(repo, ["gate", "check"])
        #expect(check.code == 0, "\(check.stderr)")
        Golden.expect(checkTranscript, matches: "gate/check-renamed-keys.txt")
        let (_, evaluateTranscript) = goldenRun(repo, ["gate", "evaluate", "2.3.0", "--platform", "ios", "--json"])
        Golden.expect(evaluateTranscript, matches: "gate/evaluate-renamed-keys--json.txt")
    }

    @Test func aPlatformConditionTheTemplateLacksIsNamed() throws {
        let gate = #"{"document": "remoteconfig.template.json", "format": "firebase", "platforms": {"ios": "apple", "android": "android"}}"#
        let repo = try GateApp.firebase(gate: gate)
        let (result, resultTranscript) = goldenRun(repo, ["gate", "check"])
        #expect(result.code == 2)
        Golden.expect(resultTranscript, matches: "errors/gate-platform-condition-missing.txt")
    }
}
