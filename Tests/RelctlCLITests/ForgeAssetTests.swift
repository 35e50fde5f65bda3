import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// `publish-release <tag> --asset FILE` against loopback fakes of GitHub's release assets (the release's
/// `upload_url` and `assets`, the upload answering the asset with its `browser_download_url`, the delete) and of
/// GitLab's generic package registry and release links: two files attached, a rerun replacing them (one asset per
/// name), a missing file refused with nothing sent, an upload failing midway and the advised rerun finishing, the
/// token never on a command line.
@Suite("forge release assets")
struct ForgeAssetTests {
    typealias Base = ForgeReleaseTests

    /// The release fake of `ForgeReleaseTests`, with the asset endpoints around it.
    final class Fake: @unchecked Sendable {
        struct Stored { var id: Int; var release: Int; var name: String; var bytes: String; var contentType: String? }
        struct Link { var id: Int; var name: String; var url: String }
        let releases = Base.Forge()
        let lock = NSLock()
        var assets: [Stored] = []
        var packages: [(name: String, bytes: String)] = []
        var links: [Link] = []
        var nextID = 5000
        /// Uploading a file of this name answers 500 (a forge failing midway).
        var failingUpload: String?
        /// Where the release's upload_url points instead of the fake itself (an answer naming another host).
        var uploadBase: String?

        init(gitlab: Bool = false) { releases.gitlab = gitlab }

        func answer(_ request: FakeStoreServer.Request, _ server: FakeStoreServer) -> FakeStoreServer.Reply {
            releases.gitlab ? gitlab(request, server) : github(request, server)
        }

        func github(_ request: FakeStoreServer.Request, _ server: FakeStoreServer) -> FakeStoreServer.Reply {
            let uploads = "/uploads/repos/acme/app/releases/"
            let isAsset = request.path.hasPrefix(uploads) || request.path.hasPrefix("/repos/acme/app/releases/assets/")
            guard isAsset else {
                var reply = releases.answer(request)
                // The release's JSON as GitHub gives it: its upload_url (here on the fake) and its assets.
                var object = Base.json(reply.body)
                if reply.status == 200 || reply.status == 201, let id = (object["id"] as? NSNumber)?.intValue {
                    lock.lock()
                    object["upload_url"] = "\(uploadBase ?? server.baseURL)\(uploads)\(id)/assets{?name,label}"
                    object["assets"] = assets.filter { $0.release == id }.map { ["id": $0.id, "name": $0.name, "state": "uploaded"] as [String: Any] }
                    lock.unlock()
                    reply.body = String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
                }
                return reply
            }
            guard request.headers["authorization"] == "Bearer \(Base.token)" else { return .json(#"{"message": "Bad credentials"}"#, status: 401) }
            lock.lock()
            defer { lock.unlock() }
            if request.method == "DELETE", let id = Int(request.path.dropFirst("/repos/acme/app/releases/assets/".count)) {
                guard assets.contains(where: { $0.id == id }) else { return .json(#"{"message": "Not Found"}"#, status: 404) }
                assets.removeAll { $0.id == id }
                return FakeStoreServer.Reply(status: 204)
            }
            let parts = request.path.dropFirst(uploads.count).split(separator: "/")
            guard request.method == "POST", parts.count == 2, parts[1] == "assets", let release = Int(parts[0]),
                let query = request.target.split(separator: "?").last, query.hasPrefix("name="),
                let name = String(query.dropFirst(5)).removingPercentEncoding
            else {
                return .json(#"{"message": "Not Found"}"#, status: 404)
            }
            if name == failingUpload { return .json(#"{"message": "Server Error"}"#, status: 500) }
            guard !assets.contains(where: { $0.release == release && $0.name == name }) else {
                return .json(
                    #"{"message": "Validation Failed", "errors": [{"resource": "ReleaseAsset", "code": "already_exists", "field": "name"}]}"#, status: 422)
            }
            nextID += 1
            assets.append(Stored(id: nextID, release: release, name: name, bytes: request.body, contentType: request.headers["content-type"]))
            let tag = releases.stored.first { $0.id == release }?.tag ?? "?"
            let object: [String: Any] = [
                "id": nextID, "name": name, "state": "uploaded", "size": request.body.utf8.count,
                "browser_download_url": "https://github.com/acme/app/releases/download/\(tag)/\(name)",
            ]
            return .json(String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self), status: 201)
        }

        func gitlab(_ request: FakeStoreServer.Request, _ server: FakeStoreServer) -> FakeStoreServer.Reply {
            let project = "/api/v4/projects/group%2Fsub%2Fapp"
            let packages = project + "/packages/generic/release/"
            let isLinks = request.path.hasPrefix(project + "/releases/") && request.path.contains("/assets/links")
            guard request.path.hasPrefix(packages) || isLinks else { return releases.answer(request) }
            guard request.headers["private-token"] == Base.gitlabToken || request.headers["job-token"] == Base.gitlabToken else {
                return .json(#"{"message": "401 Unauthorized"}"#, status: 401)
            }
            lock.lock()
            defer { lock.unlock() }
            if request.path.hasPrefix(packages), request.method == "PUT" {
                let name = String(request.path.split(separator: "/").last ?? "").removingPercentEncoding ?? ""
                if name == failingUpload { return .json(#"{"message": "500 Internal Server Error"}"#, status: 500) }
                self.packages.append((name, request.body))
                return .json(#"{"message": "201 Created"}"#, status: 201)
            }
            func json(_ link: Link) -> String {
                String(
                    decoding: try! JSONSerialization.data(
                        withJSONObject: [
                            "id": link.id, "name": link.name, "url": link.url,
                            "direct_asset_url": link.url, "link_type": "package",
                        ] as [String: Any]),
                    as: UTF8.self)
            }
            if request.method == "GET" { return .json("[" + links.map(json).joined(separator: ",") + "]") }
            if request.method == "POST" {
                let fields = Base.json(request.body)
                let name = fields["name"] as? String ?? ""
                guard !links.contains(where: { $0.name == name }) else { return .json(#"{"message": {"name": ["has already been taken"]}}"#, status: 400) }
                nextID += 1
                let link = Link(id: nextID, name: name, url: fields["url"] as? String ?? "")
                links.append(link)
                return .json(json(link), status: 201)
            }
            if request.method == "DELETE", let id = Int(request.path.split(separator: "/").last ?? ""), let link = links.first(where: { $0.id == id }) {
                links.removeAll { $0.id == id }
                return .json(json(link))
            }
            return .json(#"{"message": "404 Not Found"}"#, status: 404)
        }

        var storedAssets: [Stored] { lock.lock(); defer { lock.unlock() }; return assets }
        var storedLinks: [Link] { lock.lock(); defer { lock.unlock() }; return links }
    }

    /// The app of `ForgeReleaseTests`, released and pushed as v1.3.0 (its GitHub release made), and two dist files.
    static func released(_ fake: Fake, _ server: FakeStoreServer, gitlab: Bool = false) throws -> (TestRepository, TestRepository, [String: String]) {
        let (repo, remote) =
            gitlab
            ? try Base.app(["feat: tide tables"], forge: #"{"provider": "gitlab", "repository": "group/sub/app"}"#)
            : try Base.app(["feat: tide tables"])
        let env =
            gitlab
            ? repo.goldenEnvironment(["CI_JOB_TOKEN": Base.gitlabToken, "CI_API_V4_URL": server.baseURL + "/api/v4", "RELCTL_HTTP_RETRY_CAP": "0"])
            : Base.environment(repo, server)
        let released = relctl(["release", "--push"], in: repo.path, environment: env)
        #expect(released.code == 0, "\(released.stderr)")
        try repo.write("dist/app-1.3.0.tar.gz", "archive bytes 1\n")
        try repo.write("dist/app-1.3.0.tar.gz.sha256", "abc123  app-1.3.0.tar.gz\n")
        return (repo, remote, env)
    }

    static let assetArguments = ["publish-release", "v1.3.0", "--asset", "dist/app-1.3.0.tar.gz", "--asset", "dist/app-1.3.0.tar.gz.sha256"]

    @Test func githubAttachesTwoFilesAndARerunReplacesThem() throws {
        let fake = Fake()
        let server = try FakeStoreServer { request, server in fake.answer(request, server) }
        defer { server.stop() }
        let (repo, remote, baseEnv) = try Self.released(fake, server)
        defer { withExtendedLifetime(remote) {} }
        let curl = try RecordingCurl()
        defer { curl.remove() }
        let env = baseEnv.merging(["PATH": curl.path]) { $1 }
        let url = "https://github.com/acme/app/releases/tag/v1.3.0"
        let download = "https://github.com/acme/app/releases/download/v1.3.0/"
        let first = relctl(Self.assetArguments + ["--json"], in: repo.path, environment: env)
        #expect(first.code == 0, "\(first.stderr)")
        #expect(
            first.stderr == """
                updated the GitHub release v1.3.0: \(url)
                attached app-1.3.0.tar.gz to the GitHub release v1.3.0: \(download)app-1.3.0.tar.gz
                attached app-1.3.0.tar.gz.sha256 to the GitHub release v1.3.0: \(download)app-1.3.0.tar.gz.sha256

                """)
        let report = Base.json(first.stdout)
        let assets = try #require(report["assets"] as? [[String: String]])
        #expect(
            assets == [
                ["name": "app-1.3.0.tar.gz", "url": download + "app-1.3.0.tar.gz"],
                ["name": "app-1.3.0.tar.gz.sha256", "url": download + "app-1.3.0.tar.gz.sha256"],
            ])
        #expect(fake.storedAssets.map(\.name) == ["app-1.3.0.tar.gz", "app-1.3.0.tar.gz.sha256"])
        #expect(fake.storedAssets.map(\.bytes) == ["archive bytes 1\n", "abc123  app-1.3.0.tar.gz\n"])
        #expect(fake.storedAssets.allSatisfy { $0.contentType == "application/octet-stream" && $0.release == 1000 })

        // A rerun (a rebuilt archive): each asset replaced, never a second of one name.
        try repo.write("dist/app-1.3.0.tar.gz", "archive bytes 2\n")
        let before = server.requests.count
        let again = relctl(Self.assetArguments, in: repo.path, environment: env)
        #expect(again.code == 0, "\(again.stderr)")
        #expect(again.stdout == url + "\n")
        #expect(fake.storedAssets.map(\.name) == ["app-1.3.0.tar.gz", "app-1.3.0.tar.gz.sha256"])
        #expect(fake.storedAssets.map(\.bytes) == ["archive bytes 2\n", "abc123  app-1.3.0.tar.gz\n"])
        #expect(
            server.requests.dropFirst(before).map { "\($0.method) \($0.target)" } == [
                "GET /repos/acme/app/releases/tags/v1.3.0", "PATCH /repos/acme/app/releases/1000",
                "GET /repos/acme/app/releases/tags/v1.3.0",
                "DELETE /repos/acme/app/releases/assets/5001", "POST /uploads/repos/acme/app/releases/1000/assets?name=app-1.3.0.tar.gz",
                "DELETE /repos/acme/app/releases/assets/5002", "POST /uploads/repos/acme/app/releases/1000/assets?name=app-1.3.0.tar.gz.sha256",
            ])
        // The token: only in curl's stdin, never on its command line nor in the output.
        for text in [first.stdout, first.stderr, again.stdout, again.stderr] { #expect(!text.contains(Base.token)) }
        let invocations = curl.recorded.components(separatedBy: "---\n").filter { !$0.isEmpty }
        #expect(invocations.count == 2 * 5 + 2)
        #expect(invocations.allSatisfy { $0 == "-q\n--config\n-\n" }, "\(curl.recorded)")
    }

    /// An upload_url on another host than the API's: the token is never sent there.
    @Test func anUploadURLOnAnotherHostNeverGetsTheToken() throws {
        let fake = Fake()
        let server = try FakeStoreServer { request, server in fake.answer(request, server) }
        defer { server.stop() }
        let (repo, remote, env) = try Self.released(fake, server)
        defer { withExtendedLifetime(remote) {} }
        fake.lock.lock()
        fake.uploadBase = "https://uploads.example.net"
        fake.lock.unlock()
        let result = relctl(Self.assetArguments, in: repo.path, environment: env)
        #expect(result.code == 1)
        let expected =
            "but an upload failed: GitHub gave the release v1.3.0 an upload_url on another host (uploads.example.net), which the token is never sent to; "
            + "fix the cause and rerun 'relctl publish-release v1.3.0 --asset dist/app-1.3.0.tar.gz --asset dist/app-1.3.0.tar.gz.sha256'\n"
        #expect(result.stderr.hasSuffix(expected), "\(result.stderr)")
        #expect(fake.storedAssets.isEmpty)
        #expect(ForgeAssets.mayReceiveToken("https://uploads.github.com/repos/a/b/releases/1/assets", api: "https://api.github.com"))
        #expect(ForgeAssets.mayReceiveToken("https://ghe.example.com/api/uploads/repos/a/b/releases/1/assets", api: "https://ghe.example.com/api/v3"))
        #expect(!ForgeAssets.mayReceiveToken("https://uploads.github.com/x", api: "https://ghe.example.com/api/v3"))
        #expect(!ForgeAssets.mayReceiveToken("http://uploads.github.com/x", api: "https://api.github.com"))
    }

    @Test func aMissingFileIsRefusedBeforeAnythingIsSent() throws {
        let fake = Fake()
        let server = try FakeStoreServer { request, server in fake.answer(request, server) }
        defer { server.stop() }
        let (repo, remote, env) = try Self.released(fake, server)
        defer { withExtendedLifetime(remote) {} }
        try FileManager.default.removeItem(atPath: repo.path + "/dist/app-1.3.0.tar.gz.sha256")
        let before = server.requests.count
        let refused = relctl(Self.assetArguments, in: repo.path, environment: env)
        #expect(refused.code == 1)
        #expect(refused.stdout == "")
        #expect(
            refused.stderr == """
                error: --asset dist/app-1.3.0.tar.gz.sha256: no such file (\(repo.path)/dist/app-1.3.0.tar.gz.sha256); build it first (make dist writes .build/dist/) or fix the path, then rerun 'relctl publish-release v1.3.0 --asset dist/app-1.3.0.tar.gz --asset dist/app-1.3.0.tar.gz.sha256'

                """)
        #expect(server.requests.count == before, "nothing sent")
        #expect(fake.storedAssets.isEmpty)

        // A folder and two files of one name are refused the same way.
        let folder = relctl(["publish-release", "v1.3.0", "--asset", "dist"], in: repo.path, environment: env)
        #expect(folder.code == 1)
        #expect(folder.stderr.hasPrefix("error: --asset dist is a folder (\(repo.path)/dist); name a file"), "\(folder.stderr)")
        try repo.write("other/app-1.3.0.tar.gz", "x\n")
        let twice = relctl(
            ["publish-release", "v1.3.0", "--asset", "dist/app-1.3.0.tar.gz", "--asset", "other/app-1.3.0.tar.gz"], in: repo.path, environment: env)
        #expect(twice.code == 1)
        #expect(
            twice.stderr.hasPrefix("error: --asset other/app-1.3.0.tar.gz and --asset \(repo.path)/dist/app-1.3.0.tar.gz have one name (app-1.3.0.tar.gz)"),
            "\(twice.stderr)")
        #expect(server.requests.count == before, "nothing sent")

        // The advice followed: the file built, the same command.
        try repo.write("dist/app-1.3.0.tar.gz.sha256", "abc123  app-1.3.0.tar.gz\n")
        let fixed = relctl(Self.assetArguments, in: repo.path, environment: env)
        #expect(fixed.code == 0, "\(fixed.stderr)")
        #expect(fake.storedAssets.map(\.name) == ["app-1.3.0.tar.gz", "app-1.3.0.tar.gz.sha256"])
    }

    /// The words of the command an error line advises (`rerun 'relctl …'`), without `relctl`.
    static func advised(_ stderr: String) throws -> [String] {
        let command = try #require(stderr.components(separatedBy: "rerun 'relctl ").last?.components(separatedBy: "'").first)
        return command.split(separator: " ").map(String.init)
    }

    @Test func anUploadFailingMidwaySaysWhatExistsAndTheRerunFinishes() throws {
        let fake = Fake()
        fake.failingUpload = "app-1.3.0.tar.gz.sha256"
        let server = try FakeStoreServer { request, server in fake.answer(request, server) }
        defer { server.stop() }
        let (repo, remote, env) = try Self.released(fake, server)
        defer { withExtendedLifetime(remote) {} }
        let failed = relctl(Self.assetArguments, in: repo.path, environment: env)
        #expect(failed.code == 1)
        #expect(
            failed.stderr == """
                updated the GitHub release v1.3.0: https://github.com/acme/app/releases/tag/v1.3.0
                error: the GitHub release v1.3.0 exists (https://github.com/acme/app/releases/tag/v1.3.0; attached: app-1.3.0.tar.gz), but an upload failed: GitHub refused uploading app-1.3.0.tar.gz.sha256 to the release v1.3.0 (HTTP 500: Server Error); fix the cause and rerun 'relctl publish-release v1.3.0 --asset dist/app-1.3.0.tar.gz --asset dist/app-1.3.0.tar.gz.sha256'

                """)
        #expect(fake.storedAssets.map(\.name) == ["app-1.3.0.tar.gz"])

        // The forge back, the advice followed word for word.
        fake.lock.lock(); fake.failingUpload = nil; fake.lock.unlock()
        let rerun = relctl(try Self.advised(failed.stderr), in: repo.path, environment: env)
        #expect(rerun.code == 0, "\(rerun.stderr)")
        #expect(fake.storedAssets.map(\.name) == ["app-1.3.0.tar.gz", "app-1.3.0.tar.gz.sha256"], "one asset per name")
        #expect(fake.releases.stored.count == 1)
    }

    @Test func gitlabStoresThePackagesAndLinksThemAndARerunReplacesTheLinks() throws {
        let fake = Fake(gitlab: true)
        let server = try FakeStoreServer { request, server in fake.answer(request, server) }
        defer { server.stop() }
        let (repo, remote, env) = try Self.released(fake, server, gitlab: true)
        defer { withExtendedLifetime(remote) {} }
        let package = server.baseURL + "/api/v4/projects/group%2Fsub%2Fapp/packages/generic/release/v1.3.0/"
        let first = relctl(Self.assetArguments + ["--json"], in: repo.path, environment: env)
        #expect(first.code == 0, "\(first.stderr)")
        let assets = try #require(Base.json(first.stdout)["assets"] as? [[String: String]])
        #expect(
            assets == [
                ["name": "app-1.3.0.tar.gz", "url": package + "app-1.3.0.tar.gz"],
                ["name": "app-1.3.0.tar.gz.sha256", "url": package + "app-1.3.0.tar.gz.sha256"],
            ])
        #expect(fake.storedLinks.map(\.name) == ["app-1.3.0.tar.gz", "app-1.3.0.tar.gz.sha256"])
        #expect(fake.packages.map(\.bytes) == ["archive bytes 1\n", "abc123  app-1.3.0.tar.gz\n"])
        #expect(server.requests.allSatisfy { $0.headers["job-token"] == Base.gitlabToken })

        let again = relctl(Self.assetArguments, in: repo.path, environment: env)
        #expect(again.code == 0, "\(again.stderr)")
        #expect(fake.storedLinks.map(\.name) == ["app-1.3.0.tar.gz", "app-1.3.0.tar.gz.sha256"], "one link per name")
        #expect(fake.storedLinks.map(\.url) == [package + "app-1.3.0.tar.gz", package + "app-1.3.0.tar.gz.sha256"])
        for text in [first.stdout, first.stderr, again.stdout, again.stderr] { #expect(!text.contains(Base.gitlabToken)) }
    }

    @Test func gitlabUploadFailingMidwayThenTheAdvisedRerunFinishes() throws {
        let fake = Fake(gitlab: true)
        fake.failingUpload = "app-1.3.0.tar.gz.sha256"
        let server = try FakeStoreServer { request, server in fake.answer(request, server) }
        defer { server.stop() }
        let (repo, remote, baseEnv) = try Self.released(fake, server, gitlab: true)
        defer { withExtendedLifetime(remote) {} }
        let curl = try RecordingCurl()
        defer { curl.remove() }
        let env = baseEnv.merging(["PATH": curl.path]) { $1 }
        let failed = relctl(Self.assetArguments, in: repo.path, environment: env)
        #expect(failed.code == 1)
        let url = "https://gitlab.example.com/group/sub/app/-/releases/v1.3.0"
        #expect(
            failed.stderr == """
                updated the GitLab release v1.3.0: \(url)
                error: the GitLab release v1.3.0 exists (\(url); attached: app-1.3.0.tar.gz), but an upload failed: GitLab refused uploading app-1.3.0.tar.gz.sha256 to the package registry for the release v1.3.0 (HTTP 500: 500 Internal Server Error); fix the cause and rerun 'relctl publish-release v1.3.0 --asset dist/app-1.3.0.tar.gz --asset dist/app-1.3.0.tar.gz.sha256'

                """)
        #expect(fake.storedLinks.map(\.name) == ["app-1.3.0.tar.gz"])

        fake.lock.lock()
        fake.failingUpload = nil
        fake.lock.unlock()
        let rerun = relctl(try Self.advised(failed.stderr), in: repo.path, environment: env)
        #expect(rerun.code == 0, "\(rerun.stderr)")
        #expect(fake.storedLinks.map(\.name) == ["app-1.3.0.tar.gz", "app-1.3.0.tar.gz.sha256"], "one link per name")
        // The token only in curl's stdin: its command line is always `-q --config -`.
        let invocations = curl.recorded.components(separatedBy: "---\n").filter { !$0.isEmpty }
        #expect(invocations.count > 4)
        #expect(invocations.allSatisfy { $0 == "-q\n--config\n-\n" }, "\(curl.recorded)")
        for text in [failed.stderr, rerun.stdout, rerun.stderr] { #expect(!text.contains(Base.gitlabToken)) }
    }

    // MARK: relctl's own release workflow

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The publish step of .github/workflows/release.yml, run with `make` running scripts/dist on a stand-in binary
    /// (version 1.3.0) and `relctl` recording its arguments: it names both files scripts/dist wrote.
    @Test func theReleaseWorkflowPublishesBothDistFiles() throws {
        let workflow = try MiniYAML.parse(String(contentsOf: Self.root.appendingPathComponent(".github/workflows/release.yml"), encoding: .utf8))
        #expect(workflow["on"]?["push"]?["branches"]?.string == "[main]", "on a push to main")
        #expect(workflow["permissions"]?["contents"]?.string == "write")
        let steps = try #require(workflow["jobs"]?["release"]?["steps"]?.items)
        let checkout = try #require(steps.first { $0["uses"]?.string?.hasPrefix("actions/checkout@") == true })
        #expect(checkout["with"]?["fetch-depth"]?.string == "0")
        let release = try #require(steps.first { $0["id"]?.string == "release" })
        #expect(release["run"]?.string == "relctl release --push")
        let publish = try #require(steps.first { $0["run"]?.string?.contains("publish-release") == true })
        #expect(publish["if"]?.string == "steps.release.outputs.tag != ''")
        #expect(publish["env"]?["TAG"]?.string == "${{ steps.release.outputs.tag }}")
        let script = try #require(publish["run"]?.string)

        let work = try makeTempDirectory(prefix: "relctl-dist-workflow")
        defer { try? FileManager.default.removeItem(atPath: work) }
        let bin = work + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try writeExecutable("#!/bin/sh\ncase \"$1\" in --version) echo 'relctl 1.3.0' ;; *) echo stand-in ;; esac\n", to: work + "/stand-in-relctl")
        try writeExecutable(
            "#!/bin/sh\n[ \"$1\" = dist ] || exit 2\nexec '\(Self.root.path)/scripts/dist' '\(work)/stand-in-relctl' .build/dist >/dev/null\n",
            to: bin + "/make")
        try writeExecutable(
            "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '\(work)/relctl-args'\nfor f in \"$4\" \"$6\"; do [ -f \"$f\" ] || exit 9; done\n",
            to: bin + "/relctl")
        try writeExecutable("#!/bin/sh\nexit 0\n", to: bin + "/strip")
        let job = work + "/checkout"
        try FileManager.default.createDirectory(atPath: job, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-e", "-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: job)
        process.environment = ["PATH": bin + ":/usr/bin:/bin", "TAG": "v1.3.0", "HOME": work, "SOURCE_DATE_EPOCH": "0"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let written = try FileManager.default.contentsOfDirectory(atPath: job + "/.build/dist").sorted()
        let arch = try #require(written.first?.components(separatedBy: "-linux-").last?.components(separatedBy: ".tar.gz").first)
        let name = "relctl-1.3.0-linux-\(arch).tar.gz"
        #expect(written == [name, name + ".sha256"])
        #expect(
            try String(contentsOfFile: work + "/relctl-args", encoding: .utf8)
                == "publish-release\nv1.3.0\n--asset\n.build/dist/\(name)\n--asset\n.build/dist/\(name).sha256\n")
    }
}
