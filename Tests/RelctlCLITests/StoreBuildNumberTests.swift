import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// `"buildNumber": {"source": "stores"}` against loopback fakes of App Store Connect (JSON:API builds, ES256 JWT
/// checked with the public key, `links.next` pagination) and Google Play (edits.insert, tracks.list, bundles.list,
/// edits.delete; a service account's RS256 JWT exchanged at the token endpoint).
@Suite("store build numbers")
struct StoreBuildNumberTests {
    static let app = "com.example.tidewater"

    final class World: @unchecked Sendable {
        let keys: StoreTestKeys
        let lock = NSLock()
        private var _issued: [String] = []
        private var _jwts: [String] = []
        private var _tokenURI: String = ""
        private var _baseURL: String = ""
        /// Pages of App Store Connect's builds (the `version` attribute of each); a page per element.
        private var _buildPages: [[String]] = [["40", "58"]]
        /// `tracks.list`'s tracks JSON.
        private var _tracks: String = #"[{"track": "production", "releases": [{"name": "2.3.0", "versionCodes": ["57"], "status": "completed"}]}, {"track": "internal", "releases": [{"name": "2.4.0 (59)", "versionCodes": ["59", "60"], "status": "completed"}, {"name": "old", "versionCodes": ["33"], "status": "halted"}]}]"#
        private var _bundles: String = #"[{"versionCode": 61, "sha1": "a", "sha256": "b"}, {"versionCode": 12, "sha1": "c", "sha256": "d"}]"#
        /// Status codes answered instead, per path prefix, every time.
        private var _failing: [(prefix: String, status: Int, body: String)] = []

        /// Guards the values above: the test thread sets them while the server's thread reads them.
        private let stateLock = NSLock()
        private func guarded<T>(_ body: () -> T) -> T { stateLock.lock(); defer { stateLock.unlock() }; return body() }
        var issued: [String] { get { guarded { _issued } } set { guarded { _issued = newValue } } }
        var jwts: [String] { get { guarded { _jwts } } set { guarded { _jwts = newValue } } }
        var tokenURI: String { get { guarded { _tokenURI } } set { guarded { _tokenURI = newValue } } }
        var baseURL: String { get { guarded { _baseURL } } set { guarded { _baseURL = newValue } } }
        var buildPages: [[String]] { get { guarded { _buildPages } } set { guarded { _buildPages = newValue } } }
        var tracks: String { get { guarded { _tracks } } set { guarded { _tracks = newValue } } }
        var bundles: String { get { guarded { _bundles } } set { guarded { _bundles = newValue } } }
        var failing: [(prefix: String, status: Int, body: String)] { get { guarded { _failing } } set { guarded { _failing = newValue } } }

        init(keys: StoreTestKeys) { self.keys = keys }

        func answer(_ request: FakeStoreServer.Request) -> FakeStoreServer.Reply {
            lock.lock()
            let fail = failing.first { request.path.hasPrefix($0.prefix) }
            lock.unlock()
            if let fail { return .json(fail.body, status: fail.status) }
            if request.path == "/token" { return token(request) }
            if request.path.hasPrefix("/androidpublisher/") { return play(request) }
            return appStoreConnect(request)
        }

        func token(_ request: FakeStoreServer.Request) -> FakeStoreServer.Reply {
            let assertion = request.body.split(separator: "&").first { $0.hasPrefix("assertion=") }.map { String($0.dropFirst(10)) } ?? ""
            guard let (_, claims) = keys.verified(assertion, publicKey: keys.rsaPublic, es256: false), claims["aud"] as? String == tokenURI else {
                return .json(#"{"error": "invalid_grant", "error_description": "Invalid JWT Signature."}"#, status: 400)
            }
            lock.lock()
            defer { lock.unlock() }
            jwts.append(assertion)
            let token = "ya29.fake-access-\(issued.count + 1)-\(UUID().uuidString)"
            issued.append(token)
            return .json(#"{"access_token": "\#(token)", "expires_in": 3599, "token_type": "Bearer"}"#)
        }

        func play(_ request: FakeStoreServer.Request) -> FakeStoreServer.Reply {
            lock.lock()
            let known = request.bearer.map { issued.contains($0) } ?? false
            lock.unlock()
            guard known else { return .json(#"{"error": {"code": 401, "message": "invalid credentials"}}"#, status: 401) }
            let edits = "/androidpublisher/v3/applications/\(StoreBuildNumberTests.app)/edits"
            switch (request.method, request.path) {
            case ("POST", edits): return .json(#"{"id": "edit-77", "expiryTimeSeconds": "1790000000"}"#)
            case ("GET", edits + "/edit-77/tracks"): return .json(#"{"kind": "androidpublisher#tracksListResponse", "tracks": \#(tracks)}"#)
            case ("GET", edits + "/edit-77/bundles"): return .json(#"{"kind": "androidpublisher#bundlesListResponse", "bundles": \#(bundles)}"#)
            case ("DELETE", edits + "/edit-77"): return .json("")
            default: return .json(#"{"error": {"code": 404, "message": "not found"}}"#, status: 404)
            }
        }

        func appStoreConnect(_ request: FakeStoreServer.Request) -> FakeStoreServer.Reply {
            guard let jwt = request.bearer, let (header, claims) = keys.verified(jwt, publicKey: keys.ecPublic, es256: true),
                  header["kid"] as? String == StoreLiveTests.keyID, claims["aud"] as? String == "appstoreconnect-v1" else {
                return .json(#"{"errors": [{"status": "401", "title": "Authentication credentials are missing or invalid."}]}"#, status: 401)
            }
            lock.lock()
            jwts.append(jwt)
            let pages = buildPages
            lock.unlock()
            if request.path == "/v1/apps" {
                return .json(#"{"data": [{"type": "apps", "id": "6446001234", "attributes": {"bundleId": "com.example.tidewater"}}], "links": {"self": "x"}}"#)
            }
            if request.path == "/v1/builds", request.target.contains("filter%5Bapp%5D=6446001234") {
                let page = request.target.contains("cursor=") ? Int(request.target.components(separatedBy: "cursor=").last ?? "") ?? 0 : 0
                let items = (page < pages.count ? pages[page] : []).enumerated().map { i, version in
                    #"{"type": "builds", "id": "b\#(page)-\#(i)", "attributes": {"version": "\#(version)"}}"#
                }
                let next = page + 1 < pages.count ? "\"\(baseURL)/v1/builds?filter%5Bapp%5D=6446001234&limit=200&cursor=\(page + 1)\"" : "null"
                return .json(#"{"data": [\#(items.joined(separator: ", "))], "links": {"self": "x", "next": \#(next)}}"#)
            }
            return .json(#"{"errors": [{"status": "404", "title": "The specified resource does not exist"}]}"#, status: 404)
        }
    }

    struct Fixture {
        let repo: TestRepository
        let world: World
        let server: FakeStoreServer
        let curl: RecordingCurl
        let environment: [String: String]

        /// The runs' whole transcript compared with `Golden/stores/<name>`: the fake server's URL is `<server>`.
        func expectGolden(_ runs: [([String], CLIResult)], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
            expectTranscript(runs, matches: "stores/\(name)", repo: repo, placeholders: [(server.baseURL, "<server>")], sourceLocation: sourceLocation)
        }

        func run(_ arguments: [String], _ extra: [String: String] = [:]) -> CLIResult {
            relctl(arguments, in: repo.path, environment: repo.goldenEnvironment(environment.merging(extra) { $1 }))
        }

        func stop() { server.stop(); curl.remove() }

        var port: String { String(server.port) }

        /// No key line, token or JWT in the outputs, curl's argv or the repository's files.
        func expectNoSecretLeaked(_ results: [CLIResult], sourceLocation: SourceLocation = #_sourceLocation) throws {
            world.lock.lock()
            let pems = [world.keys.p8, (try? String(contentsOfFile: world.keys.rsaKey, encoding: .utf8)) ?? ""]
            let secrets = pems.flatMap { $0.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init) } + world.issued + world.jwts
            world.lock.unlock()
            let argv = curl.recorded
            let files = try runProcess("/bin/sh", ["-c", "find . -type f -exec cat {} + 2>/dev/null | strings"], in: repo.path).stdout
            #expect(!secrets.isEmpty, sourceLocation: sourceLocation)
            for secret in secrets where secret.count >= 16 {
                for result in results {
                    #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "a secret in the output", sourceLocation: sourceLocation)
                }
                #expect(!argv.contains(secret) && !files.contains(secret), sourceLocation: sourceLocation)
            }
            let invocations = argv.components(separatedBy: "---\n").filter { !$0.isEmpty }
            #expect(!invocations.isEmpty && invocations.allSatisfy { $0 == "-q\n--config\n-\n" }, "\(argv)", sourceLocation: sourceLocation)
        }
    }

    /// Tidewater (Expo) at 2.3.0, iOS build 57 and versionCode 57, released as v2.3.0, then a feature.
    static func fixture(buildNumber: String = #"{"source": "stores", "shared": false}"#) throws -> Fixture {
        let keys = try StoreTestKeys()
        let world = World(keys: keys)
        let server = try FakeStoreServer { request, _ in world.answer(request) }
        world.tokenURI = server.baseURL + "/token"
        world.baseURL = server.baseURL
        let curl = try RecordingCurl()
        let environment: [String: String] = [
            "PATH": curl.path, StoreHTTP.retryCapVariable: "0",
            GooglePlayAPI.baseURLVariable: server.baseURL, AppStoreConnectAPI.baseURLVariable: server.baseURL,
            GoogleCredentials.keyFileVariable: try keys.serviceAccountFile(tokenURI: world.tokenURI),
            AppStoreConnectCredentials.keyIDVariable: StoreLiveTests.keyID,
            AppStoreConnectCredentials.issuerVariable: StoreLiveTests.issuer,
            AppStoreConnectCredentials.keyPathVariable: keys.ecKey,
        ]
        let repo = try TestRepository()
        try repo.write(".relctl.json", """
        {
          "files": [{"path": "app.json", "format": "expo"}],
          "changelog": false,
          "buildNumber": \(buildNumber),
          "stores": {"appStoreConnect": {"bundleId": "\(app)"}, "googlePlay": {"packageName": "\(app)"}}
        }

        """)
        try repo.write("app.json", appJSON("2.3.0", 57, 57))
        try repo.commitAll("chore: Tidewater")
        try repo.tag("v2.3.0")
        try repo.write("tides.txt", "high\n")
        try repo.commitAll("feat: tide tables")
        return Fixture(repo: repo, world: world, server: server, curl: curl, environment: environment)
    }

    static func appJSON(_ version: String, _ ios: Int, _ android: Int) -> String {
        """
        {
          "expo": {
            "name": "Tidewater",
            "version": "\(version)",
            "ios": {
              "bundleIdentifier": "\(app)",
              "buildNumber": "\(ios)"
            },
            "android": {
              "package": "\(app)",
              "versionCode": \(android)
            }
          }
        }

        """
    }

    func notes(_ result: CLIResult) -> [String] {
        result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("note: iOS") || $0.hasPrefix("note: Android") || $0.hasPrefix("warning:") || $0.hasPrefix("error:") }
    }

    // MARK: The stores above the files

    @Test func theStoresBuildsAboveTheFilesWinAcrossPagesTracksAndBundles() throws {
        let f = try Self.fixture()
        defer { f.stop() }
        f.world.buildPages = [["40", "12"], ["58"], []]
        let dry = f.run(["release", "--dry-run"])
        #expect(dry.code == 0, "\(dry.stderr)")
        // The plan's builds: iOS 59 (one above App Store Connect's 58), Android 62 (one above Google Play's 61).
        f.expectGolden([(["release", "--dry-run"], dry)], "release--dry-run-builds-from-the-stores.txt")
        // Every page read, the edit opened, listed and deleted.
        #expect(f.server.requests.filter { $0.path == "/v1/builds" }.count == 3)
        let play = f.server.requests.filter { $0.path.hasPrefix("/androidpublisher/") }.map { "\($0.method) \($0.path.replacingOccurrences(of: "/androidpublisher/v3/applications/com.example.tidewater", with: ""))" }
        #expect(play == ["POST /edits", "GET /edits/edit-77/tracks", "GET /edits/edit-77/bundles", "DELETE /edits/edit-77"])

        let sync = f.run(["sync", "2.4.0"])
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(notes(sync) == ["note: iOS build: 59 (one above App Store Connect's 58)",
                                "note: Android versionCode: 62 (one above Google Play's 61, on an uploaded bundle)"])
        #expect(try f.repo.read("app.json") == Self.appJSON("2.4.0", 59, 62))
        try f.expectNoSecretLeaked([dry, sync])
    }

    @Test func aPlayTrackWithSeveralReleasesAndASharedCounter() throws {
        let f = try Self.fixture(buildNumber: #"{"source": "stores"}"#)
        defer { f.stop() }
        f.world.buildPages = [["58"]]
        f.world.bundles = "[]"
        f.world.tracks = #"[{"track": "beta", "releases": [{"versionCodes": ["70"], "status": "halted"}, {"versionCodes": ["64", "65"], "status": "inProgress", "userFraction": 0.1}]}, {"track": "production", "releases": [{"versionCodes": ["57"], "status": "completed"}]}]"#
        let result = f.run(["release"])
        #expect(result.code == 0, "\(result.stderr)")
        // Halted and staged releases count too: Play never takes a versionCode back.
        #expect(notes(result) == ["note: iOS build: 71 (one above Google Play's 70; App Store Connect's highest: 58); Android versionCode: 71 (one above Google Play's 70, on the beta track)"], "\(result.stderr)")
        #expect(try f.repo.read("app.json") == Self.appJSON("2.4.0", 71, 71))
    }

    // MARK: The files above the stores

    @Test func theFilesAboveTheStoresWinAndSaySo() throws {
        let f = try Self.fixture()
        defer { f.stop() }
        f.world.buildPages = [["12"]]
        f.world.tracks = #"[{"track": "production", "releases": [{"versionCodes": ["30"], "status": "completed"}]}]"#
        f.world.bundles = #"[{"versionCode": 31}]"#
        let sync = f.run(["sync", "2.4.0"])
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(notes(sync) == ["note: iOS build: 58 (one above the files' 57; App Store Connect's highest: 12)",
                                "note: Android versionCode: 58 (one above the files' 57; Google Play's highest: 31, on an uploaded bundle)"])
        #expect(try f.repo.read("app.json") == Self.appJSON("2.4.0", 58, 58))
    }

    @Test func perVersionReadsTheBuildsOfTheVersionBeingReleased() throws {
        let f = try Self.fixture(buildNumber: #"{"strategy": "perVersion", "source": "stores"}"#)
        defer { f.stop() }
        f.world.buildPages = [["3"]]
        f.world.bundles = "[]"
        let next = f.run(["next"])
        #expect(next.code == 0 && next.stdout == "2.4.0\n", "\(next.stderr)")
        #expect(notes(next) == ["note: iOS build: 4 (one above App Store Connect's 3 for 2.4.0)",
                                "note: Android versionCode: 61 (one above Google Play's 60, on the internal track)"])
        #expect(f.server.requests.contains { $0.path == "/v1/builds" && $0.target.contains("filter%5BpreReleaseVersion.version%5D=2.4.0") })
        f.world.buildPages = [[]]
        let status = f.run(["status"])
        #expect(status.code == 0, "\(status.stderr)")
        f.expectGolden([(["status"], status)], "status-per-version-builds-from-the-stores.txt")
    }

    // MARK: A store that cannot be read

    @Test func aStoreAnswering500AfterRetriesStopsTheReleaseAndWritesNothing() throws {
        let f = try Self.fixture()
        defer { f.stop() }
        f.world.failing = [("/v1/builds", 500, #"{"errors": [{"status": "500", "title": "An unexpected error occurred."}]}"#)]
        let before = try f.repo.snapshot()
        for arguments in [["release"], ["release", "--dry-run"], ["sync", "2.4.0"]] {
            let result = f.run(arguments)
            #expect(result.code == 1, "\(arguments) \(result.stderr)")
            #expect(notes(result).last == "error: App Store Connect: cannot read the builds of com.example.tidewater (http://127.0.0.1:\(f.port)/v1/builds?filter%5Bapp%5D=6446001234&fields%5Bbuilds%5D=version&limit=200): HTTP 500 while reading the app's builds (An unexpected error occurred.); 'buildNumber.source' is \"stores\" in .relctl.json: fix that, or pass --offline to let the files and release tags alone decide", "\(arguments) \(result.stderr)")
            #expect(try f.repo.snapshot() == before)
        }
        #expect(f.server.requests.filter { $0.path == "/v1/builds" }.count == 9)   // three attempts each
    }

    @Test func aPlayAnswering403NamesThePermission() throws {
        let f = try Self.fixture()
        defer { f.stop() }
        f.world.failing = [("/androidpublisher/", 403, #"{"error": {"code": 403, "message": "The caller does not have permission", "status": "PERMISSION_DENIED"}}"#)]
        let before = try f.repo.snapshot()
        let result = f.run(["sync", "2.4.0"])
        #expect(result.code == 1)
        #expect(notes(result) == ["error: Google Play: cannot read the versionCodes of com.example.tidewater (http://127.0.0.1:\(f.port)/androidpublisher/v3/applications/com.example.tidewater/edits): HTTP 403: the service account relctl@tidewater-prod.iam.gserviceaccount.com (GOOGLE_APPLICATION_CREDENTIALS) lacks the permission (The caller does not have permission); it needs \(GooglePlayAPI.role); 'buildNumber.source' is \"stores\" in .relctl.json: fix that, or pass --offline to let the files and release tags alone decide"], "\(result.stderr)")
        #expect(try f.repo.snapshot() == before)
        try f.expectNoSecretLeaked([result])
    }

    @Test func withoutCredentialsTheReleaseStopsAndOfflineProceedsWithAWarning() throws {
        let f = try Self.fixture()
        defer { f.stop() }
        let none = [AppStoreConnectCredentials.keyIDVariable: "", AppStoreConnectCredentials.issuerVariable: "",
                    AppStoreConnectCredentials.keyPathVariable: ""]
        let before = try f.repo.snapshot()
        let refused = f.run(["release"], none)
        #expect(refused.code == 1)
        #expect(notes(refused) == ["error: App Store Connect: cannot read the builds of com.example.tidewater: no credentials (APP_STORE_CONNECT_KEY_ID, APP_STORE_CONNECT_ISSUER_ID and APP_STORE_CONNECT_KEY or APP_STORE_CONNECT_KEY_PATH), and 'buildNumber.source' is \"stores\" in .relctl.json; set them (README, \"Stores and Remote Config\"), or pass --offline to let the files and release tags alone decide"], "\(refused.stderr)")
        #expect(try f.repo.snapshot() == before)

        // Following the advice: --offline.
        f.world.failing = [("/", 500, "{}")]
        let offline = f.run(["release", "--offline"], none)
        #expect(offline.code == 0, "\(offline.stderr)")
        #expect(notes(offline) == [
            "warning: --offline: App Store Connect and Google Play were not read; the files and release tags alone decided the build numbers, which a store may already hold (an upload with one is refused): run without --offline before uploading",
            "note: iOS build: 58 (the files and release tags alone: --offline, the stores were not read); Android versionCode: 58 (the files and release tags alone: --offline, the stores were not read)",
        ], "\(offline.stderr)")
        #expect(try f.repo.read("app.json") == Self.appJSON("2.4.0", 58, 58))
        #expect(f.server.requests.isEmpty)
    }

    // MARK: Configuration

    @Test func theSourceKeyIsStrict() throws {
        let f = try Self.fixture(buildNumber: #"{"strategy": "fromVersion", "source": "stores"}"#)
        defer { f.stop() }
        let result = f.run(["sync", "2.4.0"])
        #expect(result.code != 0)
        try f.repo.write(".relctl.json", (try f.repo.read(".relctl.json")).replacingOccurrences(of: #""strategy": "fromVersion", "source": "stores""#, with: #""source": "store""#))
        let typo = f.run(["sync", "2.4.0"])
        #expect(typo.code != 0)
        f.expectGolden([(["sync", "2.4.0"], result), (["sync", "2.4.0"], typo)], "build-number-source-refusals.txt")
    }
}
