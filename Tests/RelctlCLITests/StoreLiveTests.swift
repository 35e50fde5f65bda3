import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// `gate raise-min --confirm-live` against loopback fakes of the store APIs with their real shapes: Google's token
/// endpoint (checking the RS256 JWT with the public key), the Play edits/tracks API, App Store Connect's JSON:API
/// (checking the ES256 JWT, `links.next` pagination). Every refusal leaves the repository as it was; no secret
/// reaches an output, the commit, a child's command line or a file.
@Suite("store checks: live, verified")
struct StoreLiveTests {
    static let package = "com.example.tidewater"
    static let keyID = "TEST123456"
    static let issuer = "69a6de70-1111-2222-3333-444455556666"

    /// Tidewater with Android version files: v2.4.0 shipped versionCode 240, v2.5.0 250, v3.0.0 300.
    static func app(stores: String) throws -> TestRepository {
        let repo = try TestRepository()
        try repo.write(GateApp.templatePath, try GateApp.input("remoteconfig.template.json"))
        try repo.write(".relctl.json", """
        {
          "files": [{"path": "android/app/build.gradle", "format": "gradle"}],
          "gate": \(GateApp.firebaseGate),
          "stores": \(stores)
        }

        """)
        func gradle(_ version: String, _ code: Int) -> String {
            "android {\n    defaultConfig {\n        applicationId \"\(package)\"\n        versionCode \(code)\n        versionName \"\(version)\"\n    }\n}\n"
        }
        try repo.write("android/app/build.gradle", gradle("2.3.0", 230))
        try repo.commitAll("chore: Tidewater with its version gate")
        try repo.tag("v2.3.0")
        for (version, code) in [("2.4.0", 240), ("2.5.0", 250), ("3.0.0", 300)] {
            try repo.write("android/app/build.gradle", gradle(version, code))
            try repo.commitAll("feat: tides for \(version)")
            try repo.tag("v\(version)")
        }
        return repo
    }

    static let bothStores = #"{"appStoreConnect": {"bundleId": "com.example.tidewater"}, "googlePlay": {"packageName": "com.example.tidewater"}}"#
    static let playOnly = #"{"googlePlay": {"packageName": "com.example.tidewater"}}"#
    static let appleOnly = #"{"appStoreConnect": {"bundleId": "com.example.tidewater"}}"#

    /// The fakes' shared state: tokens issued, and what each API answers.
    final class World: @unchecked Sendable {
        let keys: StoreTestKeys
        let lock = NSLock()
        /// Guards every value below: the test thread sets them between runs and the server's thread reads them,
        /// with no other ordering between the two that ThreadSanitizer can see.
        private let stateLock = NSLock()
        private var _issued: [String] = []
        private var _jwts: [String] = []
        private var _tokenURI = ""
        private var _production = #"{"track": "production", "releases": [{"name": "2.5.0 (250)", "versionCodes": ["250"], "status": "completed"}]}"#
        private var _scripted: [(prefix: String, reply: FakeStoreServer.Reply)] = []
        private var _versionPages: [String] = []
        private var _baseURL = ""

        private func guarded<T>(_ body: () -> T) -> T { stateLock.lock(); defer { stateLock.unlock() }; return body() }

        var issued: [String] { get { guarded { _issued } } set { guarded { _issued = newValue } } }
        var jwts: [String] { get { guarded { _jwts } } set { guarded { _jwts = newValue } } }
        var tokenURI: String { get { guarded { _tokenURI } } set { guarded { _tokenURI = newValue } } }
        /// The production track's JSON.
        var production: String { get { guarded { _production } } set { guarded { _production = newValue } } }
        /// Answers before the real one, per path prefix, one each request.
        var scripted: [(prefix: String, reply: FakeStoreServer.Reply)] { get { guarded { _scripted } } set { guarded { _scripted = newValue } } }
        /// App Store versions pages (the JSON of each page, `NEXT` replaced by the next page's URL).
        var versionPages: [String] { get { guarded { _versionPages } } set { guarded { _versionPages = newValue } } }
        var baseURL: String { get { guarded { _baseURL } } set { guarded { _baseURL = newValue } } }

        init(keys: StoreTestKeys) { self.keys = keys }

        func record(jwt: String) { guarded { _jwts.append(jwt) } }

        func scriptedReply(for request: FakeStoreServer.Request) -> FakeStoreServer.Reply? {
            lock.lock()
            defer { lock.unlock() }
            return guarded {
                guard let index = _scripted.firstIndex(where: { request.target.hasPrefix($0.prefix) }) else { return nil }
                return _scripted.remove(at: index).reply
            }
        }

        func answer(_ request: FakeStoreServer.Request, _ server: FakeStoreServer) -> FakeStoreServer.Reply {
            if let reply = scriptedReply(for: request) { return reply }
            if request.path == "/token" { return token(request) }
            if request.path.hasPrefix("/androidpublisher/") { return play(request) }
            if request.path.hasPrefix("/v1/") { return appStoreConnect(request) }
            return .json(#"{"error": {"code": 404, "message": "no such path"}}"#, status: 404)
        }

        func token(_ request: FakeStoreServer.Request) -> FakeStoreServer.Reply {
            var form: [String: String] = [:]
            for pair in request.body.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
                if parts.count == 2 { form[parts[0]] = parts[1] }
            }
            guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = form["assertion"],
                  let (header, claims) = keys.verified(assertion, publicKey: keys.rsaPublic, es256: false),
                  header["alg"] as? String == "RS256",
                  claims["iss"] as? String == "relctl@tidewater-prod.iam.gserviceaccount.com",
                  claims["aud"] as? String == tokenURI,
                  (claims["scope"] as? String).map({ $0.contains("androidpublisher") || $0.contains("firebase.remoteconfig") }) == true,
                  let iat = claims["iat"] as? Int, let exp = claims["exp"] as? Int, exp - iat <= 3600 else {
                return .json(#"{"error": "invalid_grant", "error_description": "Invalid JWT Signature."}"#, status: 400)
            }
            record(jwt: assertion)
            lock.lock()
            let token = "ya29.fake-access-\(issued.count + 1)-\(UUID().uuidString)"
            guarded { _issued.append(token) }
            lock.unlock()
            return .json(#"{"access_token": "\#(token)", "expires_in": 3599, "token_type": "Bearer"}"#)
        }

        func play(_ request: FakeStoreServer.Request) -> FakeStoreServer.Reply {
            lock.lock()
            let known = request.bearer.map { issued.contains($0) || $0 == "ya29.from-gcloud" } ?? false
            let track = production
            lock.unlock()
            guard known else {
                return .json(#"{"error": {"code": 401, "message": "Request had invalid authentication credentials.", "status": "UNAUTHENTICATED"}}"#, status: 401)
            }
            let edits = "/androidpublisher/v3/applications/\(StoreLiveTests.package)/edits"
            guard request.path.hasPrefix(edits) else {
                return .json(#"{"error": {"code": 404, "message": "Package not found: \#(request.path)", "status": "NOT_FOUND"}}"#, status: 404)
            }
            switch (request.method, request.path) {
            case ("POST", edits): return .json(#"{"id": "edit-4711", "expiryTimeSeconds": "1790000000"}"#)
            case ("GET", edits + "/edit-4711/tracks/production"): return .json(track)
            case ("DELETE", edits + "/edit-4711"): return .json("")
            default: return .json(#"{"error": {"code": 404, "message": "not found", "status": "NOT_FOUND"}}"#, status: 404)
            }
        }

        func appStoreConnect(_ request: FakeStoreServer.Request) -> FakeStoreServer.Reply {
            guard let jwt = request.bearer, let (header, claims) = keys.verified(jwt, publicKey: keys.ecPublic, es256: true),
                  header["alg"] as? String == "ES256", header["kid"] as? String == StoreLiveTests.keyID,
                  claims["iss"] as? String == StoreLiveTests.issuer, claims["aud"] as? String == "appstoreconnect-v1",
                  let exp = claims["exp"] as? Int, exp - Int(Date().timeIntervalSince1970) <= 20 * 60 else {
                return .json(#"{"errors": [{"status": "401", "code": "NOT_AUTHORIZED", "title": "Authentication credentials are missing or invalid.", "detail": "Provide a properly configured and signed bearer token."}]}"#, status: 401)
            }
            record(jwt: jwt)
            if request.path == "/v1/apps" {
                guard request.target.contains("filter%5BbundleId%5D=com.example.tidewater") || request.target.contains("filter[bundleId]=com.example.tidewater") else {
                    return .json(#"{"data": [], "links": {"self": "x"}, "meta": {"paging": {"total": 0, "limit": 200}}}"#)
                }
                return .json(#"{"data": [{"type": "apps", "id": "6446001234", "attributes": {"bundleId": "com.example.tidewater"}}], "links": {"self": "x"}}"#)
            }
            if request.path == "/v1/apps/6446001234/appStoreVersions" {
                lock.lock()
                let pages = versionPages
                lock.unlock()
                let page = request.target.contains("cursor=") ? Int(request.target.components(separatedBy: "cursor=").last ?? "") ?? 0 : 0
                guard page < pages.count else { return .json(#"{"data": []}"#) }
                let next = page + 1 < pages.count ? "\"\(baseURL)/v1/apps/6446001234/appStoreVersions?limit=200&cursor=\(page + 1)\"" : "null"
                return .json(pages[page].replacingOccurrences(of: "NEXT", with: next))
            }
            return .json(#"{"errors": [{"status": "404", "code": "NOT_FOUND", "title": "The specified resource does not exist"}]}"#, status: 404)
        }

        static func version(_ id: String, _ version: String, _ state: String, phased: String? = nil) -> String {
            let relation = phased.map { _ in #", "relationships": {"appStoreVersionPhasedRelease": {"data": {"type": "appStoreVersionPhasedReleases", "id": "p\#(id)"}}}"# } ?? ""
            return #"{"type": "appStoreVersions", "id": "\#(id)", "attributes": {"platform": "IOS", "versionString": "\#(version)", "appStoreState": "\#(state)", "appVersionState": "\#(state)"}\#(relation)}"#
        }

        static func phased(_ id: String, _ state: String) -> String {
            #"{"type": "appStoreVersionPhasedReleases", "id": "p\#(id)", "attributes": {"phasedReleaseState": "\#(state)", "currentDayNumber": 3}}"#
        }
    }

    struct Fixture {
        let repo: TestRepository
        let world: World
        let server: FakeStoreServer
        let curl: RecordingCurl
        var environment: [String: String]

        func run(_ arguments: [String], _ extra: [String: String] = [:]) -> CLIResult {
            relctl(arguments, in: repo.path, environment: repo.goldenEnvironment(environment.merging(extra) { $1 }))
        }

        /// The runs' whole transcript compared with `Golden/stores/<name>`: the fake server's URL is `<server>`, its
        /// address `<server address>`, the repository `<repo>`.
        func expectGolden(_ runs: [([String], CLIResult)], _ name: String, placeholders: [(String, String)] = [],
                          sections: [(title: String, text: String)] = [], sourceLocation: SourceLocation = #_sourceLocation) {
            expectTranscript(runs, matches: "stores/\(name)", repo: repo,
                             placeholders: placeholders + [(server.baseURL, "<server>"), ("127.0.0.1:\(server.port)", "<server address>")],
                             sections: sections, sourceLocation: sourceLocation)
        }

        /// The last commit's message, as a golden section.
        func commitMessage() throws -> (title: String, text: String) { ("commit message", try repo.git(["log", "-1", "--format=%B"])) }

        /// Every secret the run could have leaked: the private keys' body lines, the access tokens, the JWTs.
        var secrets: [String] {
            world.lock.lock()
            defer { world.lock.unlock() }
            let pems = [world.keys.p8, (try? String(contentsOfFile: world.keys.rsaKey, encoding: .utf8)) ?? ""]
            let keyLines = pems.flatMap { $0.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init) }
            return keyLines + world.issued + world.jwts + ["ya29.from-gcloud"]
        }

        /// No secret in the outputs, the last commit, curl's argv or any file of the repository.
        func expectNoSecretLeaked(_ results: [CLIResult], sourceLocation: SourceLocation = #_sourceLocation) throws {
            let log = try repo.git(["log", "--format=%B"])
            let argv = curl.recorded
            let files = try runProcess("/bin/sh", ["-c", "find . -type f -exec cat {} + 2>/dev/null | strings"], in: repo.path).stdout
            for secret in secrets where secret.count >= 16 {
                for result in results {
                    #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "a secret in the output", sourceLocation: sourceLocation)
                }
                #expect(!log.contains(secret), "a secret in the commit", sourceLocation: sourceLocation)
                #expect(!argv.contains(secret), "a secret on curl's command line", sourceLocation: sourceLocation)
                #expect(!files.contains(secret), "a secret in a file", sourceLocation: sourceLocation)
            }
            // curl's whole argv, every time: its config comes on stdin.
            let invocations = argv.components(separatedBy: "---\n").filter { !$0.isEmpty }
            #expect(!invocations.isEmpty, sourceLocation: sourceLocation)
            #expect(invocations.allSatisfy { $0 == "-q\n--config\n-\n" }, "\(argv)", sourceLocation: sourceLocation)
        }
    }

    static func fixture(stores: String = bothStores, google: Bool = true, apple: Bool = true) throws -> Fixture {
        let keys = try StoreTestKeys()
        let world = World(keys: keys)
        let server = try FakeStoreServer { request, server in world.answer(request, server) }
        world.tokenURI = server.baseURL + "/token"
        world.baseURL = server.baseURL
        world.versionPages = [#"{"data": [\#(World.version("1", "3.0.0", "READY_FOR_SALE", phased: "1")), \#(World.version("2", "2.5.0", "REPLACED_WITH_NEW_VERSION"))], "included": [\#(World.phased("1", "COMPLETE"))], "links": {"self": "x", "next": NEXT}}"#]
        let curl = try RecordingCurl()
        var environment: [String: String] = ["PATH": curl.path, StoreHTTP.retryCapVariable: "0",
                                             GooglePlayAPI.baseURLVariable: server.baseURL,
                                             AppStoreConnectAPI.baseURLVariable: server.baseURL]
        if google { environment[GoogleCredentials.keyFileVariable] = try keys.serviceAccountFile(tokenURI: world.tokenURI) }
        if apple {
            environment[AppStoreConnectCredentials.keyIDVariable] = keyID
            environment[AppStoreConnectCredentials.issuerVariable] = issuer
            environment[AppStoreConnectCredentials.keyPathVariable] = keys.ecKey
        }
        return Fixture(repo: try app(stores: stores), world: world, server: server, curl: curl, environment: environment)
    }

    func errorLine(_ result: CLIResult) -> String {
        result.stderr.split(separator: "\n").first { $0.hasPrefix("error: ") }.map(String.init) ?? result.stderr
    }

    // MARK: Both stores verified

    @Test func bothStoresVerifiedThroughTheirAPIsAndRecordedInTheCommit() throws {
        let f = try Self.fixture()
        defer { f.server.stop(); f.curl.remove() }
        let arguments = ["gate", "raise-min", "2.5.0", "--confirm-live"]
        let result = f.run(arguments)
        // The notes say what each store serves, and the commit records both checks.
        f.expectGolden([(arguments, result)], "raise-min-both-stores-verified.txt", sections: [try f.commitMessage()])
        // The edit was opened, read and deleted (never committed).
        let play = f.server.requests.filter { $0.path.hasPrefix("/androidpublisher/") }.map { "\($0.method) \($0.path)" }
        #expect(play == ["POST /androidpublisher/v3/applications/com.example.tidewater/edits",
                         "GET /androidpublisher/v3/applications/com.example.tidewater/edits/edit-4711/tracks/production",
                         "DELETE /androidpublisher/v3/applications/com.example.tidewater/edits/edit-4711"])
        #expect(f.server.requests.filter { $0.path == "/token" }.count == 1)
        try f.expectNoSecretLeaked([result])
    }

    @Test func appStoreVersionsAreReadPastTheFirstPage() throws {
        let f = try Self.fixture(stores: Self.appleOnly)
        defer { f.server.stop(); f.curl.remove() }
        f.world.versionPages = [
            #"{"data": [\#(World.version("9", "3.1.0", "PREPARE_FOR_SUBMISSION"))], "links": {"self": "x", "next": NEXT}}"#,
            #"{"data": [\#(World.version("1", "3.0.0", "READY_FOR_DISTRIBUTION", phased: "1"))], "included": [\#(World.phased("1", "ACTIVE"))], "links": {"self": "x", "next": NEXT}}"#,
            #"{"data": [\#(World.version("2", "2.5.0", "REPLACED_WITH_NEW_VERSION"))], "links": {"self": "x"}}"#,
        ]
        let arguments = ["gate", "raise-min", "2.5.0", "--confirm-live"]
        let result = f.run(arguments)
        f.expectGolden([(arguments, result)], "raise-min-app-store-third-page.txt")
        #expect(f.server.requests.filter { $0.path.hasSuffix("/appStoreVersions") }.count == 3)
        try f.expectNoSecretLeaked([result])
    }

    @Test func anAppStoreVersionNotYetReadyForSaleIsRefused() throws {
        let f = try Self.fixture(stores: Self.appleOnly)
        defer { f.server.stop(); f.curl.remove() }
        f.world.versionPages = [#"{"data": [\#(World.version("1", "2.5.0", "PENDING_DEVELOPER_RELEASE")), \#(World.version("2", "2.4.0", "READY_FOR_SALE"))], "links": {"self": "x"}}"#]
        let before = try f.repo.snapshot()
        let result = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"])
        #expect(result.code == 1)
        #expect(errorLine(result) == "error: App Store Connect: no version ≥ 2.5.0 of com.example.tidewater is READY_FOR_SALE (2.5.0 is PENDING_DEVELOPER_RELEASE; the live version is 2.4.0): raising the minimum now would block users below 2.5.0 with nothing to install; wait until 2.5.0 is live and rerun")
        #expect(try f.repo.snapshot() == before)
    }

    @Test func aNextPageOnAnotherHostIsNotFollowed() throws {
        let f = try Self.fixture(stores: Self.appleOnly)
        defer { f.server.stop(); f.curl.remove() }
        f.world.versionPages = [#"{"data": [], "links": {"self": "x", "next": "https://elsewhere.example/v1/apps/6446001234/appStoreVersions?cursor=1"}}"#]
        let arguments = ["gate", "raise-min", "2.5.0", "--confirm-live"]
        let result = f.run(arguments)
        f.expectGolden([(arguments, result)], "raise-min-next-page-on-another-host.txt")
    }

    @Test func withoutAppStoreConnectCredentialsThePublicLookupIsAskedAndSaysSo() throws {
        let f = try Self.fixture(stores: Self.appleOnly, apple: false)
        defer { f.server.stop(); f.curl.remove() }
        let lookup = try LoopbackHTTPServer(body: LoopbackHTTPServer.lookupAnswer("3.0.0"))
        defer { lookup.stop() }
        let arguments = ["gate", "raise-min", "2.5.0", "--confirm-live"]
        let result = f.run(arguments, [AppStoreClient.baseURLVariable: lookup.baseURL])
        f.expectGolden([(arguments, result)], "raise-min-public-lookup.txt", placeholders: [(lookup.baseURL, "<lookup server>")])
    }

    // MARK: Google Play

    @Test func aStagedRolloutIsNotLiveUnlessAllowed() throws {
        let f = try Self.fixture(stores: Self.playOnly)
        defer { f.server.stop(); f.curl.remove() }
        f.world.production = #"{"track": "production", "releases": [{"name": "2.4.0", "versionCodes": ["240"], "status": "completed"}, {"name": "2.5.0", "versionCodes": ["250"], "status": "inProgress", "userFraction": 0.2}]}"#
        let before = try f.repo.snapshot()
        let refused = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"])
        #expect(refused.code == 1)
        #expect(errorLine(refused) == "error: Google Play com.example.tidewater: versionCode 250 (v2.5.0) is in a staged rollout on the production track, offered to 20% of users: raising the minimum now would block the other 80% with nothing to install; complete the rollout in the Play Console and rerun, or rerun with --allow-staged-rollout to raise it anyway")
        #expect(try f.repo.snapshot() == before)
        // The edit is deleted after a refusal too.
        #expect(f.server.requests.last.map { "\($0.method) \($0.path)" } == "DELETE /androidpublisher/v3/applications/com.example.tidewater/edits/edit-4711")
        let allowedArguments = ["gate", "raise-min", "2.5.0", "--confirm-live", "--allow-staged-rollout"]
        let allowed = f.run(allowedArguments)
        f.expectGolden([(allowedArguments, allowed)], "raise-min-staged-rollout-allowed.txt", sections: [try f.commitMessage()])
        try f.expectNoSecretLeaked([refused, allowed])
    }

    @Test func aReleaseAboveTheMinimumCountsAndAnOlderOneDoesNot() throws {
        let f = try Self.fixture(stores: Self.playOnly)
        defer { f.server.stop(); f.curl.remove() }
        f.world.production = #"{"track": "production", "releases": [{"versionCodes": ["240"], "status": "completed"}, {"versionCodes": ["250"], "status": "halted", "userFraction": 0.05}]}"#
        let refused = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"])
        #expect(refused.code == 1)
        #expect(errorLine(refused) == "error: Google Play com.example.tidewater: the production track serves versionCode 240; the rollout of versionCode 250 (v2.5.0) is halted, none of versionCode 300 (v3.0.0), versionCode 250 (v2.5.0) (the releases ≥ 2.5.0): raising the minimum now would block users below 2.5.0 with nothing to install; wait until 2.5.0 is live and rerun")
        f.world.production = #"{"track": "production", "releases": [{"versionCodes": ["300"], "status": "completed"}]}"#
        let raised = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"])
        f.expectGolden([(["gate", "raise-min", "2.5.0", "--confirm-live"], raised)], "raise-min-a-later-release-is-live.txt")
    }

    @Test func anExpiredTokenIsRefreshedOnce() throws {
        let f = try Self.fixture(stores: Self.playOnly)
        defer { f.server.stop(); f.curl.remove() }
        f.world.scripted = [("/androidpublisher/", .json(#"{"error": {"code": 401, "message": "Request had invalid authentication credentials.", "status": "UNAUTHENTICATED"}}"#, status: 401))]
        let result = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"])
        #expect(result.code == 0, "\(result.stderr)")
        // Two exchanges: the first token, then a fresh one after the 401; the retried request carries the second.
        #expect(f.server.requests.filter { $0.path == "/token" }.count == 2)
        let edits = f.server.requests.filter { $0.method == "POST" && $0.path.hasSuffix("/edits") }
        #expect(edits.count == 2)
        #expect(edits.last?.bearer == f.world.issued.last)
        try f.expectNoSecretLeaked([result])
    }

    @Test func aTokenRefusedTwiceIsAFailureNamingTheFix() throws {
        let f = try Self.fixture(stores: Self.playOnly, google: false)
        defer { f.server.stop(); f.curl.remove() }
        let result = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"], [GoogleCredentials.tokenVariable: "ya29.expired-token-0123456789"])
        #expect(result.code == 1)
        #expect(errorLine(result) == "error: cannot check Google Play: Google Play (\(f.server.baseURL)/androidpublisher/v3/applications/com.example.tidewater/edits): HTTP 401: Google Play refused the access token in GOOGLE_OAUTH_ACCESS_TOKEN (Request had invalid authentication credentials.); the token in GOOGLE_OAUTH_ACCESS_TOKEN has expired or was revoked: get a new one (gcloud auth print-access-token), or use a service account's key in GOOGLE_APPLICATION_CREDENTIALS, which relctl refreshes itself; relctl does not raise the minimum without knowing that 2.5.0 is live there: rerun once it answers, or, having checked yourself, rerun with --unverified google-play")
        #expect(!result.stderr.contains("ya29.expired-token-0123456789"))
        #expect(!f.curl.recorded.contains("ya29.expired-token-0123456789"))
        let accepted = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"], [GoogleCredentials.tokenVariable: "ya29.from-gcloud"])
        #expect(accepted.code == 0, "\(accepted.stderr)")
        try f.expectNoSecretLeaked([result, accepted])
    }

    @Test func aForbiddenAnswerNamesTheRoleItNeeds() throws {
        let f = try Self.fixture(stores: Self.playOnly)
        defer { f.server.stop(); f.curl.remove() }
        f.world.scripted = [("/androidpublisher/", .json(#"{"error": {"code": 403, "message": "The caller does not have permission", "status": "PERMISSION_DENIED"}}"#, status: 403))]
        let result = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"])
        #expect(result.code == 1)
        // The error names the permission the service account needs.
        f.expectGolden([(["gate", "raise-min", "2.5.0", "--confirm-live"], result)], "raise-min-play-forbidden.txt")
    }

    @Test func anUnknownPackageIsNamed() throws {
        let f = try Self.fixture(stores: #"{"googlePlay": {"packageName": "com.example.typo"}}"#)
        defer { f.server.stop(); f.curl.remove() }
        let result = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"])
        #expect(result.code == 1)
        f.expectGolden([(["gate", "raise-min", "2.5.0", "--confirm-live"], result)], "raise-min-play-unknown-package.txt")
    }

    @Test func busyAndFailingServersAreRetriedABoundedNumberOfTimes() throws {
        let f = try Self.fixture(stores: Self.playOnly)
        defer { f.server.stop(); f.curl.remove() }
        // 429 with Retry-After, then 503: the third attempt answers.
        f.world.scripted = [("/androidpublisher/", .json(#"{"error": {"code": 429, "message": "Quota"}}"#, status: 429, headers: [("Retry-After", "1")])),
                            ("/androidpublisher/", .json(#"{"error": {"code": 503, "message": "Backend Error"}}"#, status: 503))]
        let retried = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"])
        #expect(retried.code == 0, "\(retried.stderr)")
        #expect(f.server.requests.filter { $0.method == "POST" && $0.path.hasSuffix("/edits") }.count == 3)
        // Always 500: three attempts, then a refusal (fail closed).
        let f2 = try Self.fixture(stores: Self.playOnly)
        defer { f2.server.stop(); f2.curl.remove() }
        f2.world.scripted = Array(repeating: ("/androidpublisher/", .json(#"{"error": {"code": 500, "message": "Internal error"}}"#, status: 500)), count: 10)
        let before = try f2.repo.snapshot()
        let failed = f2.run(["gate", "raise-min", "2.5.0", "--confirm-live"])
        #expect(failed.code == 1)
        f2.expectGolden([(["gate", "raise-min", "2.5.0", "--confirm-live"], failed)], "raise-min-play-failing-server.txt")
        #expect(f2.server.requests.filter { $0.path.hasPrefix("/androidpublisher/") }.count == 3)
        #expect(try f2.repo.snapshot() == before)
    }

    @Test func aSlowServerTimesOut() throws {
        let f = try Self.fixture(stores: Self.playOnly)
        defer { f.server.stop(); f.curl.remove() }
        f.world.scripted = [("/androidpublisher/", FakeStoreServer.Reply(status: 200, body: #"{"id": "edit-4711"}"#, delay: 3))]
        let result = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"], [StoreHTTP.timeoutVariable: "1"])
        #expect(result.code == 1)
        f.expectGolden([(["gate", "raise-min", "2.5.0", "--confirm-live"], result)], "raise-min-play-timeout.txt")
    }

    @Test func aRedirectToAnotherHostIsNotFollowedAndTheTokenStaysHere() throws {
        let f = try Self.fixture(stores: Self.playOnly)
        defer { f.server.stop(); f.curl.remove() }
        // The other "host": a second loopback server on another port, which must see no request.
        let other = try FakeStoreServer { _, _ in .json("{}") }
        defer { other.stop() }
        f.world.scripted = [("/androidpublisher/", .json("", status: 307, headers: [("Location", "http://localhost:\(other.port)/steal")]))]
        let result = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"])
        #expect(result.code == 1)
        f.expectGolden([(["gate", "raise-min", "2.5.0", "--confirm-live"], result)], "raise-min-play-redirect.txt", placeholders: [("localhost:\(other.port)", "<other host>")])
        #expect(other.requests.isEmpty)
        try f.expectNoSecretLeaked([result])
    }

    @Test func noGoogleCredentialsIsARefusalAndUnverifiedIsRecorded() throws {
        let f = try Self.fixture(stores: Self.playOnly, google: false)
        defer { f.server.stop(); f.curl.remove() }
        let before = try f.repo.snapshot()
        let refused = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"])
        #expect(refused.code == 1)
        #expect(errorLine(refused) == "error: cannot check Google Play: no Google credentials are set (GOOGLE_APPLICATION_CREDENTIALS, a service account's key, or GOOGLE_OAUTH_ACCESS_TOKEN; README, \"Stores and Remote Config\"); relctl does not raise the minimum without knowing that 2.5.0 is live there: rerun once it answers, or, having checked yourself, rerun with --unverified google-play")
        #expect(try f.repo.snapshot() == before)
        // A store the raise does not check cannot be overridden; a name that is no store is a usage error.
        let notChecked = f.run(["gate", "raise-min", "2.5.0", "--confirm-live", "--unverified", "app-store", "--dry-run"])
        #expect(notChecked.code == 1)
        #expect(errorLine(notChecked).hasPrefix("error: --unverified app-store: the App Store is not checked for this raise"))
        let typo = f.run(["gate", "raise-min", "2.5.0", "--confirm-live", "--unverified", "play"])
        #expect(typo.code == 64)
        #expect(errorLine(typo).hasPrefix("error: --unverified 'play' is not a store; give app-store, google-play or both (app-store,google-play)"))
        // The advice, followed.
        let overridden = f.run(["gate", "raise-min", "2.5.0", "--confirm-live", "--unverified", "google-play"])
        #expect(overridden.code == 0, "\(overridden.stderr)")
        f.expectGolden([(["gate", "raise-min", "2.5.0", "--confirm-live", "--unverified", "google-play"], overridden)], "raise-min-unverified-google-play.txt", sections: [try f.commitMessage()])
        #expect(f.server.requests.isEmpty)
    }

    @Test func aKeyFileOthersCanReadIsWarnedAbout() throws {
        let f = try Self.fixture(stores: Self.playOnly)
        defer { f.server.stop(); f.curl.remove() }
        let open = try f.world.keys.serviceAccountFile(tokenURI: f.world.tokenURI, mode: 0o644)
        let result = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"], [GoogleCredentials.keyFileVariable: open])
        #expect(result.code == 0, "\(result.stderr)")
        f.expectGolden([(["gate", "raise-min", "2.5.0", "--confirm-live"], result)], "raise-min-key-file-others-can-read.txt", placeholders: [(open, "<key file>")])
    }

    @Test func baseURLsAndTheTokenURIMustBeHTTPSOrLoopback() throws {
        let f = try Self.fixture(stores: Self.playOnly)
        defer { f.server.stop(); f.curl.remove() }
        let plain = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"], [GooglePlayAPI.baseURLVariable: "http://play.example.com"])
        f.expectGolden([(["gate", "raise-min", "2.5.0", "--confirm-live"], plain)], "raise-min-plain-http-base-url.txt")
        let key = try f.world.keys.serviceAccountFile(tokenURI: "http://oauth.example.com/token")
        let token = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"], [GoogleCredentials.keyFileVariable: key])
        f.expectGolden([(["gate", "raise-min", "2.5.0", "--confirm-live"], token)], "raise-min-plain-http-token-uri.txt", placeholders: [(key, "<key file>")])
        for result in [plain, token] { #expect(result.code == 1) }
        #expect(f.server.requests.isEmpty)
    }

    @Test func incompleteAppStoreConnectCredentialsAreNamed() throws {
        let f = try Self.fixture(stores: Self.appleOnly, apple: false)
        defer { f.server.stop(); f.curl.remove() }
        let result = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"], [AppStoreConnectCredentials.keyIDVariable: Self.keyID])
        #expect(result.code == 1)
        #expect(errorLine(result) == "error: cannot check the App Store: App Store Connect credentials are incomplete: APP_STORE_CONNECT_ISSUER_ID, APP_STORE_CONNECT_KEY or APP_STORE_CONNECT_KEY_PATH are not set; set all of APP_STORE_CONNECT_KEY_ID, APP_STORE_CONNECT_ISSUER_ID and APP_STORE_CONNECT_KEY (the .p8 text) or APP_STORE_CONNECT_KEY_PATH (README, \"Stores and Remote Config\"); relctl does not raise the minimum without knowing that 2.5.0 is live there: rerun once it answers, or, having checked yourself, rerun with --unverified app-store")
        // The .p8 text itself in APP_STORE_CONNECT_KEY works as the path does, and is never printed.
        let inline = f.run(["gate", "raise-min", "2.5.0", "--confirm-live"],
                           [AppStoreConnectCredentials.keyIDVariable: Self.keyID, AppStoreConnectCredentials.issuerVariable: Self.issuer,
                            AppStoreConnectCredentials.keyVariable: f.world.keys.p8])
        #expect(inline.code == 0, "\(inline.stderr)")
        try f.expectNoSecretLeaked([result, inline])
    }

    @Test func gateStatusLiveShowsEachStoreBesideTheDocument() throws {
        let f = try Self.fixture()
        defer { f.server.stop(); f.curl.remove() }
        f.world.production = #"{"track": "production", "releases": [{"versionCodes": ["250"], "status": "completed"}, {"name": "3.0.0", "versionCodes": ["300"], "status": "inProgress", "userFraction": 0.1}]}"#
        f.world.versionPages = [#"{"data": [\#(World.version("3", "3.1.0", "WAITING_FOR_REVIEW")), \#(World.version("1", "3.0.0", "READY_FOR_SALE", phased: "1"))], "included": [\#(World.phased("1", "ACTIVE"))], "links": {"self": "x"}}"#]
        let result = f.run(["gate", "status", "--live"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("""
        App Store:     com.example.tidewater 3.0.0 READY_FOR_SALE (phased release ACTIVE); next: 3.1.0 WAITING_FOR_REVIEW
        Google Play:   com.example.tidewater production: completed versionCode 250 (v2.5.0); inProgress versionCode 300 (v3.0.0) at 10% of users

        """), "\(result.stdout)")
        #expect(result.stdout.hasPrefix("gate:          remoteconfig.template.json (firebase)\n"))
        let json = f.run(["gate", "status", "--live", "--json"])
        #expect(json.code == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["schemaVersion"] as? Int == 1)
        #expect((object["live"] as? [String: Any])?["Google Play"] as? String == "com.example.tidewater production: completed versionCode 250 (v2.5.0); inProgress versionCode 300 (v3.0.0) at 10% of users")
        // Without --live, no store is asked.
        let before = f.server.requests.count
        let offline = f.run(["gate", "status"])
        #expect(offline.code == 0)
        #expect(!offline.stdout.contains("App Store:"))
        #expect(f.server.requests.count == before)
        try f.expectNoSecretLeaked([result])
    }

    @Test func theStoresConfigIsReadStrictly() throws {
        // Each error names the key and what is wrong with it.
        var runs: [([String], CLIResult)] = []
        var repos: [(String, String)] = []
        for stores in [#"{"googlePlay": {"package": "com.example.tidewater"}}"#, #"{"googlePlay": {"packageName": "tidewater app"}}"#, #"{"appStore": {}}"#] {
            let repo = try Self.app(stores: stores)
            let result = relctl(["gate", "check"], in: repo.path, environment: repo.goldenEnvironment())
            #expect(result.code != 0)
            runs.append((["gate", "check"], result))
            repos.append((repo.path, "<repo>"))
        }
        expectTranscript(runs, matches: "stores/config-read-strictly.txt", placeholders: repos)
    }
}
