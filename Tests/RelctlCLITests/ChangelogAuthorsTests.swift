import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// Changelog authors as `@user`, from a loopback fake of GitHub's commits API (`GET /repos/{owner}/{repo}/commits?sha=
/// <head>&per_page=100`, its real response shape: `[{sha, commit: {author: {name, email}}, author: {login} | null}]`,
/// pages linked by the `Link` header): asked only when `"changelog": {"authors": true}` or a template uses `authors`;
/// with a token, without one, a 500 and pages; never a failure, and without the setting the section and the requests
/// are today's (none).
@Suite("changelog authors from the forge")
struct ChangelogAuthorsTests {
    /// The fake's history: each commit's sha and subject, newest first; the login by subject (nil: a commit GitHub
    /// matched to no account, `author: null`).
    final class Commits: @unchecked Sendable {
        let lock = NSLock()
        var history: [(sha: String, subject: String)] = []
        var logins: [String: String] = ["feat(ui): dark mode": "alice", "fix: crash on start": "bob-smith"]
        var pageSize = 100
        var failing = false

        func answer(_ request: FakeStoreServer.Request, base: String) -> FakeStoreServer.Reply {
            lock.lock()
            defer { lock.unlock() }
            if failing { return .json(#"{"message": "Server Error"}"#, status: 500) }
            guard request.method == "GET", request.path == "/repos/acme/app/commits" else {
                return .json(#"{"message": "Not Found"}"#, status: 404)
            }
            let query = Dictionary(request.target.drop { $0 != "?" }.dropFirst().split(separator: "&").map { pair -> (String, String) in
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }) { $1 }
            guard let start = history.firstIndex(where: { $0.sha == query["sha"] }) else {
                return .json(#"{"message": "No commit found for SHA"}"#, status: 404)
            }
            let page = Int(query["page"] ?? "1") ?? 1
            let all = Array(history[start...])
            let slice = all.dropFirst((page - 1) * pageSize).prefix(pageSize)
            let objects: [[String: Any]] = slice.map { commit in
                ["sha": commit.sha, "node_id": "C_x", "html_url": "https://github.com/acme/app/commit/\(commit.sha)",
                 "commit": ["author": ["name": "Release Bot", "email": "bot@example.com", "date": "2026-09-21T00:00:00Z"],
                            "message": commit.subject],
                 "author": logins[commit.subject].map { ["login": $0, "id": 1, "type": "User"] as [String: Any] } ?? NSNull(),
                 "committer": NSNull(), "parents": []]
            }
            var headers: [(String, String)] = []
            let pages = (all.count + pageSize - 1) / pageSize
            if page < pages {
                let link = "\(base)/repos/acme/app/commits?sha=\(query["sha"] ?? "")&per_page=\(pageSize)"
                headers.append(("Link", "<\(link)&page=\(page + 1)>; rel=\"next\", <\(link)&page=\(pages)>; rel=\"last\""))
            }
            return .json(String(decoding: try! JSONSerialization.data(withJSONObject: objects), as: UTF8.self), headers: headers)
        }
    }

    /// An app on github.com (origin's URL; nothing is pushed), released as v1.2.3 after three older commits, then a
    /// feature, a fix and a fix GitHub knows no account for.
    static func app(config: String) throws -> TestRepository {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write("CHANGELOG.md", "# Changelog\n\n## 1.2.3 (2026-01-01)\n\n* old entry\n")
        try repo.write(".relctl.json", config)
        try repo.commit("chore: initial commit")
        for index in 1...3 { try repo.commit("chore: older \(index)") }
        try repo.tag("v1.2.3")
        try repo.commit("feat(ui): dark mode")
        try repo.commit("fix: crash on start")
        try repo.commit("fix: a typo")
        try repo.git(["remote", "add", "origin", "git@github.com:acme/app.git"])
        return repo
    }

    static func history(_ repo: TestRepository) throws -> [(sha: String, subject: String)] {
        try repo.git(["log", "--format=%H %s"]).split(separator: "\n").map { line in
            let space = line.firstIndex(of: " ")!
            return (String(line[..<space]), String(line[line.index(after: space)...]))
        }
    }

    /// The section `relctl changelog` prints, built here from the history: `authors` by subject.
    static func expected(_ repo: TestRepository, authors: [String: String]) throws -> String {
        let shas = Dictionary(try history(repo).map { ($0.subject, $0.sha) }) { a, _ in a }
        func entry(_ text: String, _ subject: String) -> String {
            let sha = shas[subject]!
            return "* \(text) ([\(sha.prefix(7))](https://github.com/acme/app/commit/\(sha)))" + (authors[subject].map { " by @\($0)" } ?? "") + "\n"
        }
        return "## [1.3.0](https://github.com/acme/app/compare/v1.2.3...v1.3.0) (2026-09-21)\n\n### Features\n\n"
            + entry("**ui:** dark mode", "feat(ui): dark mode") + "\n### Bug fixes\n\n"
            + entry("crash on start", "fix: crash on start") + entry("a typo", "fix: a typo") + "\n"
    }

    func serve(_ commits: Commits) throws -> FakeStoreServer {
        let box = BaseBox()
        let server = try FakeStoreServer { request, _ in commits.answer(request, base: box.base) }
        box.base = server.baseURL
        return server
    }

    final class BaseBox: @unchecked Sendable { var base = "" }

    static let authorsOn = #"{"changelog": {"authors": true}}"#

    @Test func withATokenOneRequestGivesEachEntryItsAuthor() throws {
        let repo = try Self.app(config: Self.authorsOn)
        let commits = Commits()
        commits.history = try Self.history(repo)
        let server = try serve(commits)
        defer { server.stop() }
        let result = relctl(["changelog"], in: repo.path, environment: repo.goldenEnvironment(
            ["GITHUB_API_URL": server.baseURL, "GITHUB_TOKEN": ForgeReleaseTests.token, "RELCTL_HTTP_RETRY_CAP": "0"]))
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == (try Self.expected(repo, authors: ["feat(ui): dark mode": "alice", "fix: crash on start": "bob-smith"])))
        #expect(result.stderr == "")
        let head = try repo.git(["rev-parse", "HEAD"]).trimmingCharacters(in: .newlines)
        #expect(server.requests.map(\.target) == ["/repos/acme/app/commits?sha=\(head)&per_page=100"])
        #expect(server.requests.first?.headers["authorization"] == "Bearer \(ForgeReleaseTests.token)")
        #expect(!result.stdout.contains(ForgeReleaseTests.token))

        // The release writes the same section, and its tag message stays plain text.
        let release = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment(
            ["GITHUB_API_URL": server.baseURL, "GITHUB_TOKEN": ForgeReleaseTests.token]))
        #expect(release.code == 0, "\(release.stderr)")
        #expect(ForgePublishing.section(of: "1.3.0", in: try repo.read("CHANGELOG.md")).map { $0 + "\n" } == result.stdout)
    }

    @Test func withoutATokenThePublicAPIIsAsked() throws {
        let repo = try Self.app(config: Self.authorsOn)
        let commits = Commits()
        commits.history = try Self.history(repo)
        let server = try serve(commits)
        defer { server.stop() }
        let result = relctl(["changelog"], in: repo.path, environment: repo.goldenEnvironment(["GITHUB_API_URL": server.baseURL]))
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == (try Self.expected(repo, authors: ["feat(ui): dark mode": "alice", "fix: crash on start": "bob-smith"])))
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.headers["authorization"] == nil)
    }

    @Test func aServerErrorLeavesTheAuthorsOutAndIsNoFailure() throws {
        let repo = try Self.app(config: Self.authorsOn)
        let commits = Commits()
        commits.history = try Self.history(repo)
        commits.failing = true
        let server = try serve(commits)
        defer { server.stop() }
        let env = repo.goldenEnvironment(["GITHUB_API_URL": server.baseURL, "GITHUB_TOKEN": ForgeReleaseTests.token, "RELCTL_HTTP_RETRY_CAP": "0"])
        let result = relctl(["changelog"], in: repo.path, environment: env)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == (try Self.expected(repo, authors: [:])))
        #expect(result.stderr == "")
        // Offline (nothing listens): the same.
        server.stop()
        let offline = relctl(["release"], in: repo.path, environment: env)
        #expect(offline.code == 0, "\(offline.stderr)")
        #expect(ForgePublishing.section(of: "1.3.0", in: try repo.read("CHANGELOG.md")).map { $0 + "\n" } == result.stdout)
    }

    @Test func pagesAreFollowedUntilTheRangesOldestCommit() throws {
        let repo = try Self.app(config: Self.authorsOn)
        let commits = Commits()
        commits.history = try Self.history(repo)
        commits.pageSize = 2
        let server = try serve(commits)
        defer { server.stop() }
        let result = relctl(["changelog"], in: repo.path, environment: repo.goldenEnvironment(["GITHUB_API_URL": server.baseURL]))
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == (try Self.expected(repo, authors: ["feat(ui): dark mode": "alice", "fix: crash on start": "bob-smith"])))
        // Seven commits, two a page: the range's three are on pages 1 and 2; pages 3 and 4 are never asked.
        let head = try repo.git(["rev-parse", "HEAD"]).trimmingCharacters(in: .newlines)
        #expect(server.requests.map(\.target) == ["/repos/acme/app/commits?sha=\(head)&per_page=100",
                                                  "/repos/acme/app/commits?sha=\(head)&per_page=2&page=2"])
    }

    @Test func withoutTheSettingNothingIsAskedAndTheSectionIsTodays() throws {
        let repo = try Self.app(config: "{}\n")
        let commits = Commits()
        commits.history = try Self.history(repo)
        let server = try serve(commits)
        defer { server.stop() }
        let result = relctl(["changelog"], in: repo.path, environment: repo.goldenEnvironment(
            ["GITHUB_API_URL": server.baseURL, "GITHUB_TOKEN": ForgeReleaseTests.token]))
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == (try Self.expected(repo, authors: [:])))
        #expect(server.requests.isEmpty)
    }

    @Test func aTemplateUsingAuthorsAsksForThem() throws {
        let repo = try Self.app(config: #"{"changelog": {"template": "changelog.mustache"}}"#)
        try repo.write("changelog.mustache", "## {{version}}\n{{#groups}}{{#commits}}\n* {{description}}{{#authors}} by [@{{login}}]({{url}}){{/authors}}{{/commits}}{{/groups}}\n")
        try repo.commitAll("chore: a template")
        let commits = Commits()
        commits.history = try Self.history(repo)
        let server = try serve(commits)
        defer { server.stop() }
        let result = relctl(["changelog"], in: repo.path, environment: repo.goldenEnvironment(["GITHUB_API_URL": server.baseURL]))
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == "## 1.3.0\n\n* dark mode by [@alice](https://github.com/alice)\n* crash on start by [@bob-smith](https://github.com/bob-smith)\n* a typo\n")
        #expect(server.requests.count == 1)
    }

    @Test func gitLabHasNoUsernamesSoNoneIsAsked() throws {
        let repo = try Self.app(config: Self.authorsOn)
        try repo.git(["remote", "set-url", "origin", "git@gitlab.com:acme/app.git"])
        let result = relctl(["changelog"], in: repo.path, environment: repo.goldenEnvironment(
            ["GITHUB_API_URL": "http://127.0.0.1:9", "CI_API_V4_URL": "http://127.0.0.1:9", "GITLAB_TOKEN": "x"]))
        #expect(result.code == 0, "\(result.stderr)")
        #expect(!result.stdout.contains(" by @"), "\(result.stdout)")
        #expect(result.stdout.contains("https://gitlab.com/acme/app/-/commit/"))
    }

    /// Several projects in one run: one walk of the commits API serves every project's section.
    @Test func severalProjectsShareOneRequest() throws {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write(".relctl.json", """
            {"changelog": {"authors": true}, "projects": [
              {"name": "consumer", "path": "apps/consumer", "files": [{"path": "apps/consumer/package.json", "format": "json"}]},
              {"name": "driver", "path": "apps/driver", "files": [{"path": "apps/driver/package.json", "format": "json"}]}]}

            """)
        try repo.write("apps/consumer/package.json", "{\n  \"version\": \"1.0.0\"\n}\n")
        try repo.write("apps/driver/package.json", "{\n  \"version\": \"2.0.0\"\n}\n")
        try repo.commitAll("chore: two apps")
        try repo.tag("consumer-v1.0.0")
        try repo.tag("driver-v2.0.0")
        try repo.commit("feat(ui): dark mode", file: "apps/consumer/ui.js")
        try repo.commit("fix: crash on start", file: "apps/driver/start.js")
        try repo.git(["remote", "add", "origin", "https://github.com/acme/app.git"])
        let commits = Commits()
        commits.history = try Self.history(repo)
        let server = try serve(commits)
        defer { server.stop() }
        let result = relctl(["changelog", "--all"], in: repo.path, environment: repo.goldenEnvironment(["GITHUB_API_URL": server.baseURL]))
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.contains("dark mode (["), "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: " by @alice\n").count == 2, "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: " by @bob-smith\n").count == 2, "\(result.stdout)")
        #expect(server.requests.count == 1, "\(server.requests.map(\.target))")
    }

    @Test func aWrongAuthorsSettingIsOneLineNamingIt() throws {
        for (config, error) in [(#"{"changelog": {"authors": "yes"}}"#, "error: .relctl.json:1: 'changelog.authors' must be true or false, not a string\n"),
                                (#"{"changelog": {"author": true}}"#, "error: .relctl.json:1: unknown key 'changelog.author'; did you mean 'changelog.authors'?\n")] {
            let repo = try Self.app(config: config)
            let result = relctl(["changelog"], in: repo.path, environment: repo.goldenEnvironment(["GITHUB_API_URL": "http://127.0.0.1:9"]))
            #expect(result.code == 1)
            #expect(result.stderr == error)
            #expect(result.stdout == "")
        }
    }

    @Test func theLinkHeaderIsRead() {
        let api = "https://api.github.com"
        let pages = #"<https://api.github.com/repositories/1/commits?page=2>; rel="next", <https://api.github.com/repositories/1/commits?page=5>; rel="last""#
        #expect(ForgeReleases.nextLink(pages, under: api) == "https://api.github.com/repositories/1/commits?page=2")
        let back = #"<https://api.github.com/x?page=1>; rel="prev", <https://api.github.com/x?page=1>; rel="first""#
        #expect(ForgeReleases.nextLink(back, under: api) == nil)
        #expect(ForgeReleases.nextLink(nil, under: api) == nil)
        #expect(ForgeReleases.nextLink(#"<https://evil.example/x?page=2>; rel="next""#, under: api) == nil)
        #expect(ForgeAuthors.isLogin("dependabot[bot]"))
        #expect(!ForgeAuthors.isLogin("a) [x](y"))
    }
}
