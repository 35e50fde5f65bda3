import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI
import RelctlCore

/// `release --push` and `publish-release` against loopback fakes of GitHub's and GitLab's release APIs (their real
/// paths, headers and JSON): created, updated on a rerun (never a second), prerelease and "latest" flags, a forge
/// failure after the tag with its advice followed, no token, and the token never printed nor on curl's argv.
@Suite("forge releases")
struct ForgeReleaseTests {
    static let token = "ghp_TESTSECRET0123456789abcdef"
    static let gitlabToken = "glpat-TESTSECRET0123456789"

    /// The fakes' state: releases by tag, and a status every request gets while `failing` is set.
    final class Forge: @unchecked Sendable {
        struct Stored { var id: Int; var tag: String; var name: String; var body: String; var prerelease: Bool; var makeLatest: String? }
        let lock = NSLock()
        var releases: [Stored] = []
        var failing: (status: Int, body: String)?
        /// Creating or updating the release of this tag answers 500 (one project's release failing, the others made).
        var refusedTag: String?
        var gitlab = false

        func answer(_ request: FakeStoreServer.Request) -> FakeStoreServer.Reply {
            lock.lock()
            defer { lock.unlock() }
            if let failing { return .json(failing.body, status: failing.status) }
            return gitlab ? gitlabAnswer(request) : githubAnswer(request)
        }

        func fields(_ request: FakeStoreServer.Request) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(request.body.utf8))) as? [String: Any] ?? [:]
        }

        func githubJSON(_ release: Stored) -> String {
            let object: [String: Any] = ["id": release.id, "tag_name": release.tag, "name": release.name, "body": release.body,
                                         "prerelease": release.prerelease, "draft": false,
                                         "html_url": "https://github.com/acme/app/releases/tag/\(release.tag)"]
            return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }

        func githubAnswer(_ request: FakeStoreServer.Request) -> FakeStoreServer.Reply {
            guard request.headers["authorization"] == "Bearer \(ForgeReleaseTests.token)" else {
                return .json(#"{"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"}"#, status: 401)
            }
            let prefix = "/repos/acme/app/releases"
            if request.method == "GET", request.path.hasPrefix(prefix + "/tags/") {
                let tag = String(request.path.dropFirst(prefix.count + 6)).removingPercentEncoding ?? ""
                guard let found = releases.first(where: { $0.tag == tag }) else {
                    return .json(#"{"message": "Not Found", "documentation_url": "https://docs.github.com/rest/releases/releases#get-a-release-by-tag-name"}"#, status: 404)
                }
                return .json(githubJSON(found))
            }
            let body = fields(request)
            if let refusedTag, body["tag_name"] as? String == refusedTag {
                return .json(#"{"message": "Server Error"}"#, status: 500)
            }
            if request.method == "POST", request.path == prefix {
                let release = Stored(id: 1000 + releases.count, tag: body["tag_name"] as? String ?? "", name: body["name"] as? String ?? "",
                                     body: body["body"] as? String ?? "", prerelease: body["prerelease"] as? Bool ?? false,
                                     makeLatest: body["make_latest"] as? String)
                releases.append(release)
                return .json(githubJSON(release), status: 201)
            }
            if request.method == "PATCH", request.path.hasPrefix(prefix + "/"), let id = Int(request.path.dropFirst(prefix.count + 1)),
               let index = releases.firstIndex(where: { $0.id == id }) {
                releases[index].name = body["name"] as? String ?? releases[index].name
                releases[index].body = body["body"] as? String ?? releases[index].body
                releases[index].prerelease = body["prerelease"] as? Bool ?? releases[index].prerelease
                releases[index].makeLatest = body["make_latest"] as? String
                return .json(githubJSON(releases[index]))
            }
            return .json(#"{"message": "Not Found"}"#, status: 404)
        }

        func gitlabJSON(_ release: Stored) -> String {
            let object: [String: Any] = ["tag_name": release.tag, "name": release.name, "description": release.body,
                                         "_links": ["self": "https://gitlab.example.com/group/sub/app/-/releases/\(release.tag)"]]
            return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }

        func gitlabAnswer(_ request: FakeStoreServer.Request) -> FakeStoreServer.Reply {
            guard request.headers["private-token"] == ForgeReleaseTests.gitlabToken || request.headers["job-token"] == ForgeReleaseTests.gitlabToken else {
                return .json(#"{"message": "401 Unauthorized"}"#, status: 401)
            }
            let prefix = "/api/v4/projects/group%2Fsub%2Fapp/releases"
            let body = fields(request)
            if request.path == prefix, request.method == "POST" {
                guard !releases.contains(where: { $0.tag == body["tag_name"] as? String }) else {
                    return .json(#"{"message": "Release already exists"}"#, status: 409)
                }
                let release = Stored(id: releases.count, tag: body["tag_name"] as? String ?? "", name: body["name"] as? String ?? "",
                                     body: body["description"] as? String ?? "", prerelease: false, makeLatest: nil)
                releases.append(release)
                return .json(gitlabJSON(release), status: 201)
            }
            if request.path.hasPrefix(prefix + "/") {
                let tag = String(request.path.dropFirst(prefix.count + 1)).removingPercentEncoding ?? ""
                guard let index = releases.firstIndex(where: { $0.tag == tag }) else { return .json(#"{"message": "404 Not Found"}"#, status: 404) }
                if request.method == "PUT" {
                    releases[index].name = body["name"] as? String ?? releases[index].name
                    releases[index].body = body["description"] as? String ?? releases[index].body
                }
                return .json(gitlabJSON(releases[index]))
            }
            return .json(#"{"message": "404 Not Found"}"#, status: 404)
        }

        var stored: [Stored] { lock.lock(); defer { lock.unlock() }; return releases }
    }

    /// An app released as v1.2.3 and pushed to a bare remote, then `messages`; the forge named in the config.
    static func app(_ messages: [String], forge: String = #"{"provider": "github", "repository": "acme/app"}"#) throws -> (TestRepository, TestRepository) {
        let remote = try TestRepository(bare: true)
        let repo = try releaseRepository([], config: "{\"forge\": \(forge)}\n")
        try repo.git(["remote", "add", "origin", remote.path])
        try repo.git(["push", "-q", "origin", "main", "v1.2.3"])
        for message in messages { try repo.commit(message) }
        return (repo, remote)
    }

    static func environment(_ repo: TestRepository, _ server: FakeStoreServer, _ extra: [String: String] = [:]) -> [String: String] {
        repo.goldenEnvironment(["GITHUB_TOKEN": token, "GITHUB_API_URL": server.baseURL, "RELCTL_HTTP_RETRY_CAP": "0"]).merging(extra) { $1 }
    }

    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    @Test func createdOnReleaseThenUpdatedByPublishRelease() throws {
        let forge = Forge()
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: tide tables"])
        defer { withExtendedLifetime(remote) {} }
        let curl = try RecordingCurl()
        defer { curl.remove() }
        let env = Self.environment(repo, server, ["PATH": curl.path])
        let result = relctl(["release", "--push", "--json"], in: repo.path, environment: env)
        #expect(result.code == 0, "\(result.stderr)")
        let report = Self.json(result.stdout)
        let commit = try #require(report["commit"] as? String)
        let url = "https://github.com/acme/app/releases/tag/v1.3.0"
        #expect(report["releaseUrl"] as? String == url)
        #expect(result.stderr == """
            released 1.3.0 (minor) as v1.3.0: commit \(commit.prefix(12)), 1 file (CHANGELOG.md)
            pushed main and v1.3.0 to 'origin'
            created the GitHub release v1.3.0: \(url)

            """)
        let changelog = try #require(report["changelog"] as? String)
        #expect(try remote.git(["tag", "-l", "v1.3.0"]) == "v1.3.0\n")
        var releases = forge.stored
        #expect(releases.count == 1)
        #expect(releases.first?.tag == "v1.3.0")
        #expect(releases.first?.name == "v1.3.0")
        #expect(releases.first?.body == ForgePublishing.normalized(changelog))
        #expect(releases.first?.prerelease == false)
        #expect(releases.first?.makeLatest == nil)
        #expect(server.requests.map { "\($0.method) \($0.path)" } == ["GET /repos/acme/app/releases/tags/v1.3.0", "POST /repos/acme/app/releases"])

        // A rerun by hand: the same release updated, never a second.
        let again = relctl(["publish-release", "v1.3.0"], in: repo.path, environment: env)
        #expect(again.code == 0, "\(again.stderr)")
        #expect(again.stdout == url + "\n")
        #expect(again.stderr == "updated the GitHub release v1.3.0: \(url)\n")
        releases = forge.stored
        #expect(releases.count == 1)
        #expect(releases.first?.body == ForgePublishing.normalized(changelog), "the body from the CHANGELOG at the tag is the release's")
        #expect(server.requests.suffix(2).map { "\($0.method) \($0.path)" } == ["GET /repos/acme/app/releases/tags/v1.3.0", "PATCH /repos/acme/app/releases/1000"])

        // The token: never in the output, only in curl's stdin (its argv is always `-q --config -`).
        for text in [result.stdout, result.stderr, again.stdout, again.stderr] { #expect(!text.contains(Self.token)) }
        let invocations = curl.recorded.components(separatedBy: "---\n").filter { !$0.isEmpty }
        #expect(invocations.count == 4)
        #expect(invocations.allSatisfy { $0 == "-q\n--config\n-\n" }, "\(curl.recorded)")
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.git/" + ForgePublishing.pendingFile))
    }

    @Test func aChannelReleaseIsAPrerelease() throws {
        let forge = Forge()
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: beta tides"])
        defer { withExtendedLifetime(remote) {} }
        let result = relctl(["release", "--push", "--prerelease", "beta", "--json"], in: repo.path, environment: Self.environment(repo, server))
        #expect(result.code == 0, "\(result.stderr)")
        #expect(forge.stored.map(\.tag) == ["v1.3.0-beta.1"])
        #expect(forge.stored.first?.prerelease == true)
        let body = try #require(forge.stored.first?.body)
        #expect(body.contains("beta tides"), "\(body)")
        #expect(Self.json(result.stdout)["releaseUrl"] as? String == "https://github.com/acme/app/releases/tag/v1.3.0-beta.1")
        // publish-release of the same tag keeps it a prerelease.
        #expect(relctl(["publish-release", "v1.3.0-beta.1"], in: repo.path, environment: Self.environment(repo, server)).code == 0)
        #expect(forge.stored.count == 1)
        #expect(forge.stored.first?.prerelease == true)
        #expect(forge.stored.first?.body == body, "the tag's notes, the same on the rerun")
    }

    @Test func aMaintenanceReleaseIsNotMadeLatest() throws {
        let forge = Forge()
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: new"])
        defer { withExtendedLifetime(remote) {} }
        #expect(relctl(["release", "--push"], in: repo.path, environment: Self.environment(repo, server)).code == 0)
        // A fix on the 1.2 line, released by hand and pushed: below 1.3.0, so not "latest".
        try repo.git(["checkout", "-q", "-b", "release/1.2.x", "v1.2.3"])
        try repo.write("CHANGELOG.md", "# Changelog\n\n## 1.2.4 (2026-09-22)\n\n* fix the tides\n\n## 1.2.3 (2026-01-01)\n\n* old entry\n")
        try repo.commitAll("fix: the tides")
        try repo.git(["tag", "-a", "v1.2.4", "-m", "v1.2.4"])
        try repo.git(["push", "-q", "origin", "v1.2.4"])
        let result = relctl(["publish-release", "v1.2.4"], in: repo.path, environment: Self.environment(repo, server))
        #expect(result.code == 0, "\(result.stderr)")
        let release = try #require(forge.stored.first { $0.tag == "v1.2.4" })
        #expect(release.makeLatest == "false")
        #expect(release.body == "## 1.2.4 (2026-09-22)\n\n* fix the tides\n")
        #expect(forge.stored.first { $0.tag == "v1.3.0" }?.makeLatest == nil)
    }

    @Test(arguments: [500, 401])
    func aForgeFailureAfterTheTagSaysWhatExistsAndTheAdviceWorks(status: Int) throws {
        let forge = Forge()
        forge.failing = status == 500 ? (500, #"{"message": "Server Error"}"#) : (401, #"{"message": "Bad credentials"}"#)
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: tide tables"])
        let env = Self.environment(repo, server)
        let failed = relctl(["release", "--push"], in: repo.path, environment: env)
        #expect(failed.code == 1)
        let why = status == 500 ? "HTTP 500: Server Error" : "HTTP 401: Bad credentials); the token was refused: check GITHUB_TOKEN / GH_TOKEN"
        let lines = failed.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.dropFirst().joined(separator: "\n") == """
            pushed main and v1.3.0 to 'origin'
            error: v1.3.0 is released and on 'origin' (the commit and the tag), but its GitHub release was not made: GitHub refused looking up the release v1.3.0 (\(why)\(status == 500 ? ")" : ""); fix the cause and run 'relctl publish-release v1.3.0' (the next 'relctl release --push' also retries it)

            """)
        #expect(failed.stdout == "1.3.0\n")
        #expect(try remote.git(["tag", "-l", "v1.3.0"]) == "v1.3.0\n", "the tag stays published")
        #expect(forge.stored.isEmpty)

        // The advice, followed once the forge is back.
        forge.lock.lock(); forge.failing = nil; forge.lock.unlock()
        let fixed = relctl(["publish-release", "v1.3.0"], in: repo.path, environment: env)
        #expect(fixed.code == 0, "\(fixed.stderr)")
        #expect(fixed.stderr == "created the GitHub release v1.3.0: https://github.com/acme/app/releases/tag/v1.3.0\n")
        #expect(forge.stored.count == 1)
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.git/" + ForgePublishing.pendingFile))
    }

    @Test func theNextReleaseRunRetriesAFailedForgeRelease() throws {
        let forge = Forge()
        forge.failing = (503, #"{"message": "Service Unavailable"}"#)
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: tide tables"])
        defer { withExtendedLifetime(remote) {} }
        let env = Self.environment(repo, server)
        #expect(relctl(["release", "--push"], in: repo.path, environment: env).code == 1)
        forge.lock.lock(); forge.failing = nil; forge.lock.unlock()
        let rerun = relctl(["release", "--push"], in: repo.path, environment: env)
        #expect(rerun.code == 0, "\(rerun.stderr)")
        #expect(rerun.stderr.hasPrefix("""
            the forge release of v1.3.0 was not made by an earlier run: making it now
            created the GitHub release v1.3.0: https://github.com/acme/app/releases/tag/v1.3.0

            """), "\(rerun.stderr)")
        #expect(rerun.stderr.hasSuffix("v1.3.0 is already on 'origin'\n"), "\(rerun.stderr)")
        #expect(forge.stored.count == 1)
        // And the run after that has nothing left to retry.
        let third = relctl(["release", "--push"], in: repo.path, environment: env)
        #expect(third.code == 0)
        #expect(!third.stderr.contains("forge release"))
        #expect(forge.stored.count == 1)
    }

    /// A release made here without --push (its tag never published), then a new one pushed with it: both tags get
    /// their release, the older one not "latest", its notes its own section from the changelog at its tag.
    @Test func aBasePublishedWithTheNextReleaseGetsItsReleaseToo() throws {
        let forge = Forge()
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: tide tables"])
        let env = Self.environment(repo, server)
        #expect(relctl(["release"], in: repo.path, environment: env).code == 0)
        try repo.commit("fix: crash on start")
        let result = relctl(["release", "--push", "--json"], in: repo.path, environment: env)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try remote.git(["tag", "-l", "v1.3.*"]) == "v1.3.0\nv1.3.1\n")
        #expect(Self.json(result.stdout)["release_url"] as? String == "https://github.com/acme/app/releases/tag/v1.3.1")
        let releases = forge.stored
        #expect(releases.map(\.tag) == ["v1.3.1", "v1.3.0"])
        #expect(releases.map(\.makeLatest) == [nil, "false"])
        let changelog = try repo.read("CHANGELOG.md")
        #expect(releases.last?.body == ForgePublishing.normalized(try #require(ForgePublishing.section(of: "1.3.0", in: changelog))))
        #expect(releases.first?.body == ForgePublishing.normalized(try #require(ForgePublishing.section(of: "1.3.1", in: changelog))))
        #expect(result.stderr.hasSuffix("""
            created the GitHub release v1.3.1: https://github.com/acme/app/releases/tag/v1.3.1
            created the GitHub release v1.3.0: https://github.com/acme/app/releases/tag/v1.3.0

            """), "\(result.stderr)")
        #expect(ForgePublishing.pending(gitDir: repo.path + "/.git").isEmpty)
    }

    @Test func withoutATokenTheReleaseIsMadeWithAWarning() throws {
        let forge = Forge()
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: tide tables"])
        let result = relctl(["release", "--push"], in: repo.path, environment: repo.goldenEnvironment(["GITHUB_API_URL": server.baseURL]))
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("""
            pushed main and v1.3.0 to 'origin'
            warning: no GITHUB_TOKEN or GH_TOKEN is set, so no GitHub release was made for the tag; set GITHUB_TOKEN (a token that may create releases) and run 'relctl publish-release v1.3.0'

            """), "\(result.stderr)")
        #expect(server.requests.isEmpty)
        #expect(try remote.git(["tag", "-l", "v1.3.0"]) == "v1.3.0\n")
        // publish-release without a token is a failure naming the variable.
        let publish = relctl(["publish-release", "v1.3.0"], in: repo.path, environment: repo.goldenEnvironment(["GITHUB_API_URL": server.baseURL]))
        #expect(publish.code == 1)
        #expect(publish.stderr == "error: no GITHUB_TOKEN or GH_TOKEN is set, so no GitHub release was made for the tag; set GITHUB_TOKEN (a token that may create releases) and run 'relctl publish-release v1.3.0'\n")
    }

    @Test func releasesFalseTurnsItOff() throws {
        let forge = Forge()
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: x"], forge: #"{"provider": "github", "repository": "acme/app", "releases": false}"#)
        defer { withExtendedLifetime(remote) {} }
        let result = relctl(["release", "--push", "--json"], in: repo.path, environment: Self.environment(repo, server))
        #expect(result.code == 0)
        #expect(server.requests.isEmpty)
        #expect(Self.json(result.stdout)["releaseUrl"] is NSNull)
    }

    @Test(arguments: ["GITLAB_TOKEN", "CI_JOB_TOKEN"])
    func gitlabCreatedThenUpdated(variable: String) throws {
        let forge = Forge()
        forge.gitlab = true
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: tide tables"], forge: #"{"provider": "gitlab", "repository": "group/sub/app"}"#)
        defer { withExtendedLifetime(remote) {} }
        let env = repo.goldenEnvironment([variable: Self.gitlabToken, "CI_API_V4_URL": server.baseURL + "/api/v4", "RELCTL_HTTP_RETRY_CAP": "0"])
        let result = relctl(["release", "--push", "--json"], in: repo.path, environment: env)
        #expect(result.code == 0, "\(result.stderr)")
        let url = "https://gitlab.example.com/group/sub/app/-/releases/v1.3.0"
        #expect(Self.json(result.stdout)["releaseUrl"] as? String == url)
        #expect(result.stderr.hasSuffix("created the GitLab release v1.3.0: \(url)\n"))
        #expect(server.requests.first?.headers[variable == "GITLAB_TOKEN" ? "private-token" : "job-token"] == Self.gitlabToken)
        let again = relctl(["publish-release", "v1.3.0", "--json"], in: repo.path, environment: env)
        #expect(again.code == 0, "\(again.stderr)")
        #expect(Self.json(again.stdout)["action"] as? String == "updated")
        #expect(forge.stored.count == 1)
        #expect(forge.stored.first?.body == ForgePublishing.normalized(try #require(Self.json(result.stdout)["changelog"] as? String)))
        #expect(server.requests.map { "\($0.method) \($0.path)" } == [
            "GET /api/v4/projects/group%2Fsub%2Fapp/releases/v1.3.0", "POST /api/v4/projects/group%2Fsub%2Fapp/releases",
            "GET /api/v4/projects/group%2Fsub%2Fapp/releases/v1.3.0", "PUT /api/v4/projects/group%2Fsub%2Fapp/releases/v1.3.0",
        ])
        for text in [result.stdout, result.stderr, again.stdout, again.stderr] { #expect(!text.contains(Self.gitlabToken)) }
    }

    @Test func publishReleaseRefusesATagNotOnTheRemote() throws {
        let forge = Forge()
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: x"])
        defer { withExtendedLifetime(remote) {} }
        #expect(relctl(["release"], in: repo.path, environment: Self.environment(repo, server)).code == 0)
        let result = relctl(["publish-release", "v1.3.0"], in: repo.path, environment: Self.environment(repo, server))
        #expect(result.code == 1)
        #expect(result.stderr == "error: tag v1.3.0 is not on 'origin'; push it first ('relctl release --push' pushes a release made here, or git push origin refs/tags/v1.3.0), then rerun 'relctl publish-release v1.3.0'\n")
        #expect(server.requests.isEmpty)
    }

    @Test func theForgeFromTheRemoteURL() throws {
        let env = ["GITHUB_TOKEN": "t", "GITLAB_TOKEN": "t"]
        func target(_ url: String, _ environment: [String: String] = env) -> ForgeReleases.Target? {
            if case .target(let target) = ForgeReleases.resolve(config: Config(), remoteURL: url, environment: environment) { return target }
            return nil
        }
        #expect(target("git@github.com:acme/app.git")?.api == "https://api.github.com")
        #expect(target("https://x-access-token:abc@github.com/acme/app")?.project == "acme/app")
        #expect(target("https://github.acme.com/acme/app.git")?.api == "https://github.acme.com/api/v3")
        #expect(target("git@gitlab.acme.com:group/sub/app.git")?.api == "https://gitlab.acme.com/api/v4")
        #expect(target("git@gitlab.acme.com:group/sub/app.git")?.project == "group/sub/app")
        #expect(target("https://gitlab.com/group/app", ["CI_JOB_TOKEN": "t", "CI_API_V4_URL": "https://gitlab.internal/api/v4/"])?.api == "https://gitlab.internal/api/v4")
        #expect(target("/srv/git/app.git") == nil)
        if case .unavailable(let why) = ForgeReleases.resolve(config: Config(), remoteURL: "git@github.com:acme/app.git",
                                                              environment: ["GITHUB_TOKEN": "t", "GITHUB_API_URL": "http://api.example.com"]) {
            #expect(why == "the GitHub release is not made: GITHUB_API_URL must be an https URL (plain http only to a loopback address, for tests)")
        } else {
            Issue.record("plain http to another host was accepted")
        }
    }

    @Test func theChangelogSectionOfAVersion() {
        let changelog = "# Changelog\n\n## [1.3.0](https://x/compare/v1.2.3...v1.3.0) (2026-09-21)\n\n### Features\n\n* a\n\n## 1.2.3 (2026-01-01)\n\n* old\n"
        #expect(ForgePublishing.section(of: "1.3.0", in: changelog) == "## [1.3.0](https://x/compare/v1.2.3...v1.3.0) (2026-09-21)\n\n### Features\n\n* a\n")
        #expect(ForgePublishing.section(of: "1.2.3", in: changelog) == "## 1.2.3 (2026-01-01)\n\n* old\n")
        #expect(ForgePublishing.section(of: "1.3", in: changelog) == nil)
        #expect(ForgePublishing.version(of: "app-v1.3.0", format: "app-v{version}") == "1.3.0")
        #expect(ForgePublishing.version(of: "v1.3.0.120", format: "v{version}.{build}") == "1.3.0")
    }

    @Test func forgeConfigErrors() {
        #expect(throws: Problem.self) { try Config.parse(#"{"forge": {"provider": "bitbucket"}}"#, path: ".relctl.json") }
        #expect(throws: Problem.self) { try Config.parse(#"{"forge": {"repository": "nope"}}"#, path: ".relctl.json") }
        #expect(throws: Problem.self) { try Config.parse(#"{"forge": {"relases": true}}"#, path: ".relctl.json") }
        #expect((try? Config.parse(#"{"forge": {"provider": "gitlab", "releases": true}}"#, path: ".relctl.json"))?.forgeSettings?.provider == .gitlab)
    }
}
