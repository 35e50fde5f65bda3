import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// `gate pull` and `gate publish` against a loopback Remote Config (ETag headers, If-Match, 412 VERSION_MISMATCH,
/// validateOnly) and a token endpoint checking the service account's RS256 JWT.
@Suite("gate pull and gate publish")
struct RemoteConfigSyncTests {
    /// The live Remote Config: the template, its version, and what happens at the next PUTs.
    final class Live: @unchecked Sendable {
        let lock = NSLock()
        private var _template: [String: Any]
        private var _version: Int = 42
        /// Before answering the next publish (validate or not), a console edit: the template changed and a new version.
        private var _consoleEditBeforeNextPut: [(inout [String: Any]) -> Void] = []
        private var _puts: [(validateOnly: Bool, ifMatch: String?, body: [String: Any])] = []

        /// Guards the values above: the test thread sets them while the server's thread reads them.
        private let stateLock = NSLock()
        private func guarded<T>(_ body: () -> T) -> T { stateLock.lock(); defer { stateLock.unlock() }; return body() }
        var template: [String: Any] { get { guarded { _template } } set { guarded { _template = newValue } } }
        var version: Int { get { guarded { _version } } set { guarded { _version = newValue } } }
        var consoleEditBeforeNextPut: [(inout [String: Any]) -> Void] { get { guarded { _consoleEditBeforeNextPut } } set { guarded { _consoleEditBeforeNextPut = newValue } } }
        var puts: [(validateOnly: Bool, ifMatch: String?, body: [String: Any])] { get { guarded { _puts } } set { guarded { _puts = newValue } } }

        init(template: [String: Any]) { self._template = template }

        var etag: String { "etag-1234567890-\(version)" }

        func answer(_ request: FakeStoreServer.Request) -> FakeStoreServer.Reply {
            lock.lock()
            defer { lock.unlock() }
            guard request.bearer?.hasPrefix("ya29.fake-access-") == true else {
                return .json(#"{"error": {"code": 401, "message": "Request had invalid authentication credentials.", "status": "UNAUTHENTICATED"}}"#, status: 401)
            }
            guard request.path == "/v1/projects/tidewater-prod/remoteConfig" else {
                return .json(#"{"error": {"code": 404, "message": "Requested entity was not found.", "status": "NOT_FOUND"}}"#, status: 404)
            }
            if request.method == "GET" { return reply(template) }
            guard request.method == "PUT" else { return .json("{}", status: 405) }
            let validateOnly = request.target.hasSuffix("?validateOnly=true")
            let body = (try? JSONSerialization.jsonObject(with: Data(request.body.utf8))) as? [String: Any] ?? [:]
            puts.append((validateOnly, request.headers["if-match"], body))
            if !consoleEditBeforeNextPut.isEmpty {
                consoleEditBeforeNextPut.removeFirst()(&template)
                version += 1
            }
            guard request.headers["if-match"] == etag else {
                return .json(#"{"error": {"code": 412, "message": "[VERSION_MISMATCH]: Expected version \#(version), found a different version.", "status": "FAILED_PRECONDITION"}}"#, status: 412)
            }
            if validateOnly { return reply(body, bump: false) }
            template = body
            version += 1
            return reply(template)
        }

        private func reply(_ body: [String: Any], bump: Bool = true) -> FakeStoreServer.Reply {
            var out = body
            out["version"] = ["versionNumber": String(version), "updateTime": "2026-11-30T10:00:00.000000Z",
                              "updateUser": ["email": "dana@example.com"], "updateOrigin": "CONSOLE", "updateType": "INCREMENTAL_UPDATE"]
            let data = try! JSONSerialization.data(withJSONObject: out)
            return FakeStoreServer.Reply(status: 200, headers: [("ETag", etag)], body: String(decoding: data, as: UTF8.self))
        }

        func parameter(_ name: String) -> String? {
            lock.lock()
            defer { lock.unlock() }
            return RemoteConfigTemplate.parameters(template)[name].flatMap { ($0.value["defaultValue"] as? [String: Any])?["value"] as? String }
        }
    }

    struct Fixture {
        let repo: TestRepository
        let live: Live
        let world: StoreLiveTests.World
        let server: FakeStoreServer
        let curl: RecordingCurl
        let environment: [String: String]

        func run(_ arguments: [String], _ extra: [String: String] = [:]) -> CLIResult {
            relctl(arguments, in: repo.path, environment: repo.goldenEnvironment(environment.merging(extra) { $1 }))
        }
    }

    static func fixture() throws -> Fixture {
        let input = try GateApp.input("remoteconfig.template.json")
        let template = try #require(try JSONSerialization.jsonObject(with: Data(input.utf8)) as? [String: Any])
        let live = Live(template: template)
        let keys = try StoreTestKeys()
        let world = StoreLiveTests.World(keys: keys)
        let server = try FakeStoreServer { request, server in
            request.path.hasPrefix("/v1/projects/") ? live.answer(request) : world.answer(request, server)
        }
        world.tokenURI = server.baseURL + "/token"
        let curl = try RecordingCurl()
        let gate = #"{"document": "remoteconfig.template.json", "format": "firebase", "firebase": {"projectId": "tidewater-prod"}}"#
        let repo = try GateApp.firebase(gate: gate, majorPending: false)
        let environment = ["PATH": curl.path, StoreHTTP.retryCapVariable: "0", RemoteConfigAPI.baseURLVariable: server.baseURL,
                           GoogleCredentials.keyFileVariable: try keys.serviceAccountFile(tokenURI: world.tokenURI)]
        return Fixture(repo: repo, live: live, world: world, server: server, curl: curl, environment: environment)
    }

    static func setDefault(_ name: String, _ value: String) -> (inout [String: Any]) -> Void {
        return { template in
            var groups = template["parameterGroups"] as! [String: Any]
            var gate = groups["version_gate"] as! [String: Any]
            var parameters = gate["parameters"] as! [String: Any]
            if var parameter = parameters[name] as? [String: Any] {
                parameter["defaultValue"] = ["value": value]
                parameters[name] = parameter
                gate["parameters"] = parameters
                groups["version_gate"] = gate
                template["parameterGroups"] = groups
            } else {
                var top = template["parameters"] as! [String: Any]
                var parameter = top[name] as! [String: Any]
                parameter["defaultValue"] = ["value": value]
                top[name] = parameter
                template["parameters"] = top
            }
        }
    }

    /// The secrets the run could have leaked, checked nowhere to be seen.
    func expectNoSecret(_ f: Fixture, _ results: [CLIResult]) throws {
        let secrets = f.world.issued + f.world.jwts
        #expect(!secrets.isEmpty)
        let argv = f.curl.recorded
        let document = try f.repo.read(GateApp.templatePath)
        for secret in secrets {
            for result in results { #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret)) }
            #expect(!argv.contains(secret))
            #expect(!document.contains(secret))
        }
        #expect(argv.components(separatedBy: "---\n").filter { !$0.isEmpty }.allSatisfy { $0 == "-q\n--config\n-\n" })
    }

    @Test func pullWritesTheLiveTemplateByteStableAndListsTheChanges() throws {
        let f = try Self.fixture()
        defer { f.server.stop(); f.curl.remove() }
        Self.setDefault("vendor_latest_version", "2.6.0")(&f.live.template)
        let first = f.run(["gate", "pull"])
        #expect(first.code == 0, "\(first.stderr)")
        #expect(first.stdout == """
        pulled version 42 of tidewater-prod's Remote Config template into remoteconfig.template.json:
          changed vendor_latest_version: default "2.5.0" → "2.6.0"

        """)
        let pulled = try f.repo.read(GateApp.templatePath)
        #expect(pulled.hasSuffix("}\n"))
        #expect(pulled.contains("\"versionNumber\" : \"42\"") || pulled.contains("\"versionNumber\": \"42\""), "\(pulled)")
        // The gate reads the pulled document as it read the console's.
        let check = f.run(["gate", "check"])
        #expect(check.code == 0, "\(check.stderr)\(check.stdout)")
        let json = f.run(["gate", "pull", "--json"])
        #expect(json.stdout == "{\"schemaVersion\":1,\"document\":\"remoteconfig.template.json\",\"project\":\"tidewater-prod\",\"version\":42,\"changed\":false,\"changes\":[],\"dryRun\":false}\n")
        // The same live template again: the same bytes, nothing written.
        let again = f.run(["gate", "pull"])
        #expect(again.code == 0)
        #expect(again.stdout == "remoteconfig.template.json already holds version 42 of tidewater-prod's Remote Config template, byte for byte; nothing changed\n")
        #expect(try f.repo.read(GateApp.templatePath) == pulled)
        try expectNoSecret(f, [first, again])
    }

    @Test func publishSendsOnlyTheDecisionsValidatedFirstWithIfMatch() throws {
        let f = try Self.fixture()
        defer { f.server.stop(); f.curl.remove() }
        #expect(f.run(["gate", "pull"]).code == 0)
        let pulled = try f.repo.read(GateApp.templatePath)
        // relctl's decision in the repository: the minimum to 2.5.0.
        try f.repo.write(GateApp.templatePath, pulled.replacingOccurrences(of: "\"2.3.0\"", with: "\"2.5.0\""))
        let published = f.run(["gate", "publish"])
        #expect(published.code == 0, "\(published.stderr)")
        #expect(published.stdout == "published version 43 of tidewater-prod's Remote Config template (was version 42):\n  changed vendor_min_supported_version: default \"2.3.0\" → \"2.5.0\"\n")
        #expect(f.live.puts.map(\.validateOnly) == [true, false])
        #expect(f.live.puts.allSatisfy { $0.ifMatch == "etag-1234567890-42" })
        #expect(f.live.parameter("vendor_min_supported_version") == "2.5.0")
        // Nothing else changed: the live template is the one before with that one value.
        #expect(f.live.puts.last?.body["version"] == nil)
        try expectNoSecret(f, [published])
    }

    @Test func aConsoleEditBetweenPullAndPublishIsRefusedThenAppliedOntoLive() throws {
        let f = try Self.fixture()
        defer { f.server.stop(); f.curl.remove() }
        #expect(f.run(["gate", "pull"]).code == 0)
        let pulled = try f.repo.read(GateApp.templatePath)
        try f.repo.write(GateApp.templatePath, pulled.replacingOccurrences(of: "\"2.3.0\"", with: "\"2.5.0\""))
        // Someone edits the console: a message, and version 43.
        f.live.lock.lock()
        Self.setDefault("vendor_force_update_message", "Tidewater needs an update to load tide tables.")(&f.live.template)
        f.live.version = 43
        f.live.lock.unlock()
        let refused = f.run(["gate", "publish"])
        #expect(refused.code == 1)
        #expect(refused.stderr == "error: the live template is at version 43, and remoteconfig.template.json was pulled at 42; the live template differs from it: changed vendor_force_update_message: default \"This version of Tidewater can no longer load tide tables. Update to continue.\" → \"Tidewater needs an update to load tide tables.\"; changed vendor_min_supported_version: default \"2.5.0\" → \"2.3.0\". Publishing would undo that: run relctl gate pull and reapply the change, or publish only relctl's decisions (vendor_min_supported_version, vendor_latest_version) onto the live template with --onto-live\n")
        #expect(f.live.puts.isEmpty)
        // The advice, followed: only the minimum goes onto the live template; the console's message stays.
        let onto = f.run(["gate", "publish", "--onto-live"])
        #expect(onto.code == 0, "\(onto.stderr)")
        #expect(f.live.parameter("vendor_min_supported_version") == "2.5.0")
        #expect(f.live.parameter("vendor_force_update_message") == "Tidewater needs an update to load tide tables.")
        #expect(onto.stdout.hasPrefix("published version 44 of tidewater-prod's Remote Config template (was version 43):\n"))
    }

    @Test func aPublishRaceIsReadAgainOnceThenRefused() throws {
        let f = try Self.fixture()
        defer { f.server.stop(); f.curl.remove() }
        #expect(f.run(["gate", "pull"]).code == 0)
        let pulled = try f.repo.read(GateApp.templatePath)
        try f.repo.write(GateApp.templatePath, pulled.replacingOccurrences(of: "\"2.3.0\"", with: "\"2.5.0\""))
        // A console publish lands between relctl's read and its validation: 412, then the re-read sees version 43.
        f.live.consoleEditBeforeNextPut = [Self.setDefault("tide_chart_style", "layered")]
        let refused = f.run(["gate", "publish"])
        #expect(refused.code == 1)
        #expect(refused.stderr.hasPrefix("error: the live template is at version 43, and remoteconfig.template.json was pulled at 42; the live template differs from it: changed tide_chart_style: default \"classic\" → \"layered\"; changed vendor_min_supported_version"), "\(refused.stderr)")
        #expect(f.live.parameter("vendor_min_supported_version") == "2.3.0")
        // With --onto-live: two races in a row → refused, nothing published.
        f.live.consoleEditBeforeNextPut = [Self.setDefault("tide_chart_style", "x"), Self.setDefault("tide_chart_style", "y")]
        let twice = f.run(["gate", "publish", "--onto-live"])
        #expect(twice.code == 1)
        #expect(twice.stderr == "error: the live template changed twice while relctl published (HTTP 412, the ETag no longer matched); nothing was published: rerun relctl gate publish\n")
        #expect(f.live.parameter("vendor_min_supported_version") == "2.3.0")
        // One race with --onto-live: read again, applied, published.
        f.live.consoleEditBeforeNextPut = [Self.setDefault("tide_chart_style", "z")]
        let once = f.run(["gate", "publish", "--onto-live"])
        #expect(once.code == 0, "\(once.stderr)")
        #expect(f.live.parameter("vendor_min_supported_version") == "2.5.0")
        #expect(f.live.parameter("tide_chart_style") == "z")
    }

    @Test func gateStatusSaysWhetherTheDocumentAgreesWithTheLiveTemplate() throws {
        let f = try Self.fixture()
        defer { f.server.stop(); f.curl.remove() }
        #expect(f.run(["gate", "pull"]).code == 0)
        let agrees = f.run(["gate", "status"])
        #expect(agrees.code == 0, "\(agrees.stderr)")
        #expect(agrees.stdout.hasSuffix("Remote Config: tidewater-prod: the document agrees with the live template (version 42)\n"), "\(agrees.stdout)")
        Self.setDefault("vendor_latest_version", "2.6.0")(&f.live.template)
        f.live.version = 43
        let differs = f.run(["gate", "status"])
        #expect(differs.stdout.hasSuffix("Remote Config: tidewater-prod: the document, pulled at version 42, differs from the live template (version 43): changed vendor_latest_version: default \"2.5.0\" → \"2.6.0\"\n"), "\(differs.stdout)")
    }

    @Test func withoutAProjectOrCredentialsTheFixIsNamed() throws {
        let repo = try GateApp.firebase(majorPending: false)
        let noProject = relctl(["gate", "pull"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(noProject.code == 1)
        #expect(noProject.stderr == "error: relctl gate pull needs the Firebase project: add \"firebase\": {\"projectId\": \"your-project-id\"} to 'gate' in .relctl.json (Firebase console → Project settings → Project ID)\n")
        let f = try Self.fixture()
        defer { f.server.stop(); f.curl.remove() }
        let noCredentials = relctl(["gate", "publish"], in: f.repo.path,
                                   environment: f.repo.goldenEnvironment([RemoteConfigAPI.baseURLVariable: f.server.baseURL]))
        #expect(noCredentials.code == 1)
        #expect(noCredentials.stderr == "error: relctl gate publish needs Google credentials: set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file, or GOOGLE_OAUTH_ACCESS_TOKEN (gcloud auth print-access-token) (README, \"Stores and Remote Config\")\n")
        // A document never pulled has no version: publish says how to go on.
        let unpulled = f.run(["gate", "publish"])
        #expect(unpulled.code == 1)
        #expect(unpulled.stderr.hasPrefix("error: remoteconfig.template.json holds no \"version\": {\"versionNumber\"}, so relctl cannot tell which live template it was based on"))
    }
}
