import Foundation
import Testing
import RelctlTestSupport
import RelctlCore
@testable import RelctlCLI

/// `relctl release-pr` against real repositories, bare remotes and the loopback fakes of GitHub's pulls/labels and
/// GitLab's merge requests APIs: created, updated on a rerun, closed when nothing is due; merged (merge commit,
/// squash, rebase) → `relctl release --push` only tags, makes the forge release and moves the label; a major
/// release's request; a protected main (a pre-receive hook refusing pushes to main) through the whole cycle; forge
/// failures; the dry run.
@Suite("release pull requests")
struct ReleasePullRequestTests {
    static let token = ForgeReleaseTests.token

    static func server(_ fake: ReleasePullRequestFake) throws -> FakeStoreServer {
        let server = try FakeStoreServer { request, _ in fake.answer(request) }
        fake.baseURL = server.baseURL
        return server
    }

    static func environment(_ repo: TestRepository, _ server: FakeStoreServer, gitlab: Bool = false,
                            _ extra: [String: String] = [:]) -> [String: String] {
        let forge = gitlab ? ["GITLAB_TOKEN": ForgeReleaseTests.gitlabToken, "CI_API_V4_URL": server.baseURL + "/api/v4"]
            : ["GITHUB_TOKEN": token, "GITHUB_API_URL": server.baseURL]
        return repo.goldenEnvironment(forge.merging(["RELCTL_HTTP_RETRY_CAP": "0"]) { $1 }).merging(extra) { $1 }
    }

    static let gitlabForge = #"{"provider": "gitlab", "repository": "group/sub/app"}"#

    /// An app released as v1.2.3, `messages` committed and pushed to its bare remote.
    static func app(_ messages: [String], forge: String = #"{"provider": "github", "repository": "acme/app"}"#) throws -> (TestRepository, TestRepository) {
        let (repo, remote) = try ForgeReleaseTests.app(messages, forge: forge)
        try repo.git(["push", "-q", "origin", "main"])
        return (repo, remote)
    }

    static func state(_ repo: TestRepository) throws -> String {
        try repo.git(["status", "--porcelain", "--untracked-files=all"]) + repo.git(["rev-parse", "HEAD", "main"])
            + repo.git(["diff", "--cached", "--stat"]) + repo.git(["ls-files", "-s"])
    }

    static let footer = "\n<sub>Made by `relctl release-pr`; rerunning it updates this request, and closes it when nothing is due.</sub>\n"

    // MARK: Created, updated, closed

    @Test func createdThenUpdatedThenClosedOnGitHub() throws {
        let fake = ReleasePullRequestFake()
        let server = try Self.server(fake)
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: tide tables"])
        let env = Self.environment(repo, server)
        let before = try Self.state(repo)
        let head = try repo.git(["rev-parse", "HEAD"]).trimmingCharacters(in: .newlines)

        let made = relctl(["release-pr"], in: repo.path, environment: env)
        #expect(made.code == 0, "\(made.stderr)")
        let branchCommit = try remote.git(["rev-parse", "relctl/release-main"]).trimmingCharacters(in: .newlines)
        #expect(made.stdout == "https://github.com/acme/app/pull/1\n")
        #expect(made.stderr == """
            pushed relctl/release-main to 'origin': 'chore(release): 1.3.0' on \(head.prefix(12)) (\(branchCommit.prefix(12)), 1 file: CHANGELOG.md)
            created pull request #1 'chore(release): 1.3.0' (labelled 'relctl: pending'): https://github.com/acme/app/pull/1

            """)
        // The checkout, the index and main are as they were; the branch is one commit on top of main.
        #expect(try Self.state(repo) == before)
        #expect(try remote.git(["rev-parse", "relctl/release-main^"]) == head + "\n")
        #expect(try remote.git(["log", "-1", "--format=%B", "relctl/release-main"]) == "chore(release): 1.3.0\n\n")
        #expect(try remote.git(["diff", "--name-only", "main", "relctl/release-main"]) == "CHANGELOG.md\n")
        let changelog = try remote.git(["show", "relctl/release-main:CHANGELOG.md"])
        let section = try #require(ForgePublishing.section(of: "1.3.0", in: changelog))
        Golden.expect(section, matches: "release-pr/github-changelog-section.md")
        var pulls = fake.stored
        #expect(pulls.count == 1)
        #expect(pulls[0].title == "chore(release): 1.3.0")
        #expect(pulls[0].head == "relctl/release-main")
        #expect(pulls[0].base == "main")
        #expect(pulls[0].body == ForgePublishing.normalized(section) + Self.footer)
        #expect(pulls[0].labels == ["relctl: pending"])
        #expect(fake.repositoryLabels == ["relctl: pending"])
        #expect(server.requests.map { "\($0.method) \($0.target)" } == [
            "GET /repos/acme/app/pulls?head=acme%3Arelctl%2Frelease-main&state=open&per_page=100",
            "POST /repos/acme/app/pulls",
            "GET /repos/acme/app/labels/relctl%3A%20pending",
            "POST /repos/acme/app/labels",
            "POST /repos/acme/app/issues/1/labels",
        ])

        // A rerun with nothing new: the same commit, not pushed again; the same request.
        let same = relctl(["release-pr", "--json"], in: repo.path, environment: env)
        #expect(same.code == 0, "\(same.stderr)")
        #expect(same.stderr == """
            relctl/release-main on 'origin' already holds 'chore(release): 1.3.0' on \(head.prefix(12)) (\(branchCommit.prefix(12))): not pushed again
            updated pull request #1 'chore(release): 1.3.0' (labelled 'relctl: pending'): https://github.com/acme/app/pull/1

            """)
        let report = ForgeReleaseTests.json(same.stdout)
        #expect(report["action"] as? String == "updated")
        #expect(report["prNumber"] as? Int == 1)
        #expect(report["version"] as? String == "1.3.0")
        #expect(try remote.git(["rev-parse", "relctl/release-main"]) == branchCommit + "\n")

        // New commits on main: a new version, the branch force-pushed, the same request updated.
        try repo.commit("feat!: drop the old tide format")
        try repo.git(["push", "-q", "origin", "main"])
        let newHead = try repo.git(["rev-parse", "HEAD"]).trimmingCharacters(in: .newlines)
        let updated = relctl(["release-pr"], in: repo.path, environment: env.merging(["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": repo.path + "/../out-\(UUID().uuidString)"]) { $1 })
        #expect(updated.code == 0, "\(updated.stderr)")
        #expect(try remote.git(["rev-parse", "relctl/release-main^"]) == newHead + "\n")
        #expect(try remote.git(["log", "-1", "--format=%s", "relctl/release-main"]) == "chore(release): 2.0.0\n")
        pulls = fake.stored
        #expect(pulls.count == 1)
        #expect(pulls[0].title == "chore(release): 2.0.0")
        // The body is the new section, with the breaking change (drop the old tide format).
        Golden.expect(pulls[0].body, matches: "release-pr/github-updated-body.md")
        #expect(updated.stdout == "https://github.com/acme/app/pull/1\n")

        // Released directly meanwhile: nothing is due; the request is closed and its branch deleted.
        try remote.git(["update-ref", "-d", "refs/heads/relctl/release-main"])
        try repo.git(["push", "-q", "origin", "HEAD:refs/heads/relctl/release-main"])
        let released = relctl(["release", "--push", "--confirm-major"], in: repo.path, environment: env)
        #expect(released.code == 0, "\(released.stderr)")
        let closed = relctl(["release-pr", "--json"], in: repo.path, environment: env)
        #expect(closed.code == 0, "\(closed.stderr)")
        let pending = "warning: major release 2.0.0 is pending: min_supported_version is unchanged; no version gate is configured, so there is no minimum to raise yet: add \"gate\" to .relctl.json, such as \"gate\": {\"document\": \"remoteconfig.template.json\", \"format\": \"firebase\"} (see the README's \"Version gate\"); relctl status then names the command that raises it once 2.0.0 is live in every store the app ships to (or keep it: relctl gate keep-min --reason \"<why>\")\n"
        #expect(closed.stderr == pending + "HEAD is already released as v2.0.0: closed pull request #1 and deleted relctl/release-main from 'origin': https://github.com/acme/app/pull/1\n")
        #expect(ForgeReleaseTests.json(closed.stdout)["action"] as? String == "closed")
        #expect(fake.stored.map(\.state) == ["closed"])
        #expect(try remote.git(["branch", "--list", "relctl/*"]).isEmpty)
        // And again: nothing open, nothing to do.
        let none = relctl(["release-pr", "--json"], in: repo.path, environment: env)
        #expect(none.code == 0)
        #expect(none.stderr == pending + "HEAD is already released as v2.0.0; no pull request is open from relctl/release-main: nothing to do\n")
        #expect(ForgeReleaseTests.json(none.stdout)["action"] as? String == "none")
        for text in [made.stderr, made.stdout, same.stdout, updated.stderr, closed.stderr] { #expect(!text.contains(Self.token)) }
    }

    @Test func githubOutputKeys() throws {
        let fake = ReleasePullRequestFake()
        let server = try Self.server(fake)
        defer { server.stop() }
        let (repo, remote) = try Self.app(["fix: tide rounding"])
        defer { withExtendedLifetime(remote) {} }
        let outputs = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputs) }
        FileManager.default.createFile(atPath: outputs, contents: nil)
        let result = relctl(["release-pr"], in: repo.path, environment: Self.environment(repo, server, ["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": outputs]))
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: outputs, encoding: .utf8) == """
            action=created
            version=1.2.4
            pr_number=1
            pr_url=https://github.com/acme/app/pull/1

            """)
    }

    // MARK: Merged → release only tags

    @Test(arguments: ["merge", "squash", "rebase"])
    func mergedRequestIsOnlyTagged(how: String) throws {
        let fake = ReleasePullRequestFake()
        // Two earlier requests from the branch, closed unmerged; one per page: the merged one is on page 3.
        fake.seed(.init(number: 1, head: "relctl/release-main", base: "main", title: "chore(release): 1.2.4", body: "", state: "closed"))
        fake.seed(.init(number: 2, head: "relctl/release-main", base: "main", title: "chore(release): 1.3.0", body: "", state: "closed"))
        fake.pageSize = 1
        let server = try Self.server(fake)
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: tide tables", "fix: moon phase"])
        let env = Self.environment(repo, server)
        let made = relctl(["release-pr"], in: repo.path, environment: env)
        #expect(made.code == 0, "\(made.stderr)")
        #expect(fake.stored.last?.number == 3)

        // The forge's merge, made here and pushed as the forge would write main.
        try Self.merge(how, number: 3, in: repo)
        fake.markMerged(3)
        let merged = try repo.git(["rev-parse", "HEAD"]).trimmingCharacters(in: .newlines)
        let before = try repo.git(["rev-list", "--count", "HEAD"])

        let released = relctl(["release", "--push", "--json"], in: repo.path, environment: env)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stderr == """
            released 1.3.0 (minor) as v1.3.0: HEAD \(merged.prefix(12)) is its merged pull request, so only the tag was made
            pushed v1.3.0 to 'origin'
            created the GitHub release v1.3.0: https://github.com/acme/app/releases/tag/v1.3.0
            labelled pull request #3 'relctl: tagged': https://github.com/acme/app/pull/3

            """)
        let report = ForgeReleaseTests.json(released.stdout)
        #expect(report["version"] as? String == "1.3.0")
        #expect(report["tag"] as? String == "v1.3.0")
        #expect(report["pushed"] as? Bool == true)
        #expect(report["releaseUrl"] as? String == "https://github.com/acme/app/releases/tag/v1.3.0")
        // Only the tag: no new commit, the tag on the merged commit, on the remote too.
        #expect(try repo.git(["rev-list", "--count", "HEAD"]) == before)
        #expect(try remote.git(["rev-parse", "v1.3.0^{commit}"]) == merged + "\n")
        #expect(try remote.git(["rev-parse", "main"]) == merged + "\n")
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
        let changelog = try repo.read("CHANGELOG.md")
        #expect(fake.releases.stored.map(\.tag) == ["v1.3.0"])
        #expect(fake.releases.stored.first?.body == ForgePublishing.normalized(try #require(ForgePublishing.section(of: "1.3.0", in: changelog))))
        #expect(fake.stored.first { $0.number == 3 }?.labels == ["relctl: tagged"])
        #expect(try repo.git(["tag", "-l", "v1.3.0", "--format=%(contents:subject)"]) == "v1.3.0\n")

        // Released: the next release-pr has nothing to do, the next release nothing to release.
        let after = relctl(["release-pr"], in: repo.path, environment: env)
        #expect(after.code == 0)
        #expect(after.stderr == "HEAD is already released as v1.3.0; no pull request is open from relctl/release-main: nothing to do\n")
        let again = relctl(["release", "--push"], in: repo.path, environment: env)
        #expect(again.code == 0, "\(again.stderr)")
        #expect(try repo.git(["tag", "-l"]) == "v1.2.3\nv1.3.0\n")
    }

    /// The forge's three merge buttons, on the clone, then main pushed to the remote as the forge writes it.
    static func merge(_ how: String, number: Int, version: String = "1.3.0", in repo: TestRepository, push: Bool = true) throws {
        try repo.git(["fetch", "-q", "origin"])
        switch how {
        case "merge":
            try repo.git(["merge", "-q", "--no-ff", "origin/relctl/release-main", "-m",
                          "Merge pull request #\(number) from acme/relctl/release-main\n\nchore(release): \(version)"])
        case "squash":
            try repo.git(["merge", "-q", "--squash", "origin/relctl/release-main"])
            try repo.git(["commit", "-q", "-m", "chore(release): \(version) (#\(number))"])
        default:
            try repo.git(["cherry-pick", "origin/relctl/release-main"])
        }
        if push { try repo.git(["push", "-q", "origin", "main"]) }
    }

    // MARK: A major release on GitLab

    @Test func majorMergeRequestOnGitLab() throws {
        let fake = ReleasePullRequestFake(gitlab: true)
        // An earlier merge request from the branch, merged (1.2.4's); one per page (X-Next-Page).
        fake.seed(.init(number: 1, head: "relctl/release-main", base: "main", title: "chore(release): 1.2.4", body: "", state: "merged", merged: true))
        fake.pageSize = 1
        let server = try Self.server(fake)
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat!: drop iOS 15"], forge: Self.gitlabForge)
        defer { withExtendedLifetime(remote) {} }
        let env = Self.environment(repo, server, gitlab: true)
        let made = relctl(["release-pr"], in: repo.path, environment: env)
        #expect(made.code == 0, "\(made.stderr)")
        #expect(made.stdout == "https://gitlab.example.com/group/sub/app/-/merge_requests/2\n")
        let head = try repo.git(["rev-parse", "HEAD"]).prefix(12)
        let branchCommit = try remote.git(["rev-parse", "relctl/release-main"]).prefix(12)
        #expect(made.stderr == """
            note: major release 2.0.0: the merge request is the review of its breaking changes and merging it is the confirmation (no --confirm-major); min_supported_version is not changed: the floor decision waits for 'relctl gate' once 2.0.0 is live
            pushed relctl/release-main to 'origin': 'chore(release): 2.0.0' on \(head) (\(branchCommit), 2 files: CHANGELOG.md, .major-release-pending)
            created merge request !2 'chore(release): 2.0.0' (labelled 'relctl: pending'): https://gitlab.example.com/group/sub/app/-/merge_requests/2

            """)
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.major-release-pending"), "the checkout is not touched")
        // The marker is in the commit.
        #expect(try remote.git(["diff", "--name-only", "main", "relctl/release-main"]) == ".major-release-pending\nCHANGELOG.md\n")
        let marker = try remote.git(["show", "relctl/release-main:.major-release-pending"])
        let notice = try #require(MajorReleaseNotice.parse(marker))
        #expect(notice.version == "2.0.0")
        let pull = try #require(fake.stored.last)
        #expect(pull.labels == ["relctl: pending"])
        #expect(pull.title == "chore(release): 2.0.0")
        let changelog = try remote.git(["show", "relctl/release-main:CHANGELOG.md"])
        let section = try #require(ForgePublishing.section(of: "2.0.0", in: changelog))
        let sha = head
        #expect(pull.body == ForgePublishing.normalized(section) + """

            ---

            **Major release 2.0.0.** Merging this pull request is the confirmation a major release needs: `relctl release` then tags v2.0.0 without `--confirm-major`. The breaking changes:

            - feat!: drop iOS 15 (\(sha))

            \(notice.decision)

            \(notice.instruction). `.major-release-pending` is committed with the release and stays until `relctl gate` records that decision.

            """ + Self.footer)

        try Self.merge("squash", number: 2, version: "2.0.0", in: repo)
        fake.markMerged(2)
        let released = relctl(["release", "--push"], in: repo.path, environment: env)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "2.0.0\n")
        let merged = try repo.git(["rev-parse", "HEAD"]).prefix(12)
        #expect(released.stderr == """
            warning: major release 2.0.0 is pending: min_supported_version is unchanged; no version gate is configured, so there is no minimum to raise yet: add "gate" to .relctl.json, such as "gate": {"document": "remoteconfig.template.json", "format": "firebase"} (see the README's "Version gate"); relctl status then names the command that raises it once 2.0.0 is live in every store the app ships to (or keep it: relctl gate keep-min --reason "<why>")
            note: major release 2.0.0 was confirmed by merging its pull request: no --confirm-major needed; min_supported_version is not changed (.major-release-pending stays for 'relctl gate')
            released 2.0.0 (major) as v2.0.0: HEAD \(merged) is its merged pull request, so only the tag was made
            pushed v2.0.0 to 'origin'
            created the GitLab release v2.0.0: https://gitlab.example.com/group/sub/app/-/releases/v2.0.0
            labelled merge request !2 'relctl: tagged': https://gitlab.example.com/group/sub/app/-/merge_requests/2

            """)
        #expect(try remote.git(["rev-parse", "v2.0.0^{commit}"]) == (try repo.git(["rev-parse", "HEAD"])))
        // The marker stays, as merged, for the gate's decision; nothing else was written or committed.
        #expect(try repo.read(".major-release-pending") == marker)
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
        #expect(try repo.git(["log", "-1", "--format=%s"]) == "chore(release): 2.0.0 (#2)\n")
        #expect(fake.stored.map(\.labels) == [[], ["relctl: tagged"]])
        #expect(fake.releases.stored.map(\.tag) == ["v2.0.0"])
        #expect(server.requests.filter { $0.target.contains("state=merged") }.map(\.target) == [
            "/api/v4/projects/group%2Fsub%2Fapp/merge_requests?source_branch=relctl%2Frelease-main&state=merged&per_page=100",
            "/api/v4/projects/group%2Fsub%2Fapp/merge_requests?source_branch=relctl%2Frelease-main&state=merged&per_page=100&page=2",
        ])
        // The decision still waits: status says so.
        let status = relctl(["status"], in: repo.path, environment: env)
        expectTranscript(["status"], status, matches: "release-pr/gitlab-status-major-pending.txt", repo: repo, placeholders: [(server.baseURL, "<server>")])
    }

    @Test func gitlabUpdatedThenClosed() throws {
        let fake = ReleasePullRequestFake(gitlab: true)
        let server = try Self.server(fake)
        defer { server.stop() }
        let (repo, remote) = try Self.app(["fix: tide rounding"], forge: Self.gitlabForge)
        let env = Self.environment(repo, server, gitlab: true)
        let made = relctl(["release-pr", "--json"], in: repo.path, environment: env)
        #expect(made.code == 0, "\(made.stderr)")
        let report = ForgeReleaseTests.json(made.stdout)
        #expect(report["action"] as? String == "created")
        #expect(report["version"] as? String == "1.2.4")
        #expect(report["prUrl"] as? String == "https://gitlab.example.com/group/sub/app/-/merge_requests/1")
        #expect(report["commit"] as? String == (try remote.git(["rev-parse", "relctl/release-main"]).trimmingCharacters(in: .newlines)))

        try repo.commit("feat: moon phases")
        try repo.git(["push", "-q", "origin", "main"])
        let updated = relctl(["release-pr"], in: repo.path, environment: env)
        #expect(updated.code == 0, "\(updated.stderr)")
        #expect(updated.stderr.hasSuffix("updated merge request !1 'chore(release): 1.3.0' (labelled 'relctl: pending'): https://gitlab.example.com/group/sub/app/-/merge_requests/1\n"), "\(updated.stderr)")
        #expect(fake.stored.map(\.title) == ["chore(release): 1.3.0"])
        Golden.expect(fake.stored.first?.body ?? "", matches: "release-pr/gitlab-updated-body.md")

        #expect(relctl(["release", "--push"], in: repo.path, environment: env).code == 0)
        let closed = relctl(["release-pr"], in: repo.path, environment: env)
        #expect(closed.code == 0, "\(closed.stderr)")
        #expect(closed.stdout == "https://gitlab.example.com/group/sub/app/-/merge_requests/1\n")
        #expect(closed.stderr == "HEAD is already released as v1.3.0: closed merge request !1 and deleted relctl/release-main from 'origin': https://gitlab.example.com/group/sub/app/-/merge_requests/1\n")
        #expect(fake.stored.map(\.state) == ["closed"])
        #expect(server.requests.filter { $0.method == "PUT" && $0.path.hasSuffix("/merge_requests/1") }.map(\.body).last == #"{"state_event":"close"}"#)
        #expect(try remote.git(["branch", "--list", "relctl/*"]).isEmpty)
    }

    // MARK: A protected main

    @Test func protectedMainWholeCycle() throws {
        let fake = ReleasePullRequestFake()
        let server = try Self.server(fake)
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: offline maps"])
        try writeExecutable("""
            #!/bin/sh
            while read old new ref; do
              if [ "$ref" = refs/heads/main ]; then
                echo "error: GH006: Protected branch update failed for refs/heads/main." >&2
                exit 1
              fi
            done
            """, to: remote.path + "/hooks/pre-receive")
        let daemon = try GitDaemon(serving: remote.path)
        defer { daemon.stop() }
        try repo.git(["remote", "set-url", "origin", daemon.url])
        let env = Self.environment(repo, server)
        let mainBefore = try remote.git(["rev-parse", "main"])

        let made = relctl(["release-pr"], in: repo.path, environment: env)
        #expect(made.code == 0, "\(made.stderr)")
        #expect(try remote.git(["rev-parse", "main"]) == mainBefore)
        #expect(try remote.git(["log", "-1", "--format=%s", "relctl/release-main"]) == "chore(release): 1.3.0\n")

        // The human's merge on the forge (which the hook does not see), then the clone pulls it.
        try Self.merge("merge", number: 1, in: repo, push: false)
        let merged = try repo.git(["rev-parse", "HEAD"]).trimmingCharacters(in: .newlines)
        try repo.git(["push", "-q", "origin", "HEAD:refs/heads/merge-staging"])
        try remote.git(["update-ref", "refs/heads/main", merged])
        try remote.git(["update-ref", "-d", "refs/heads/merge-staging"])
        fake.markMerged(1)
        try repo.git(["fetch", "-q", "origin"])

        let released = relctl(["release", "--push"], in: repo.path, environment: env)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stderr == """
            released 1.3.0 (minor) as v1.3.0: HEAD \(merged.prefix(12)) is its merged pull request, so only the tag was made
            pushed v1.3.0 to 'origin'
            created the GitHub release v1.3.0: https://github.com/acme/app/releases/tag/v1.3.0
            labelled pull request #1 'relctl: tagged': https://github.com/acme/app/pull/1

            """)
        #expect(try remote.git(["rev-parse", "main"]) == merged + "\n")
        #expect(try remote.git(["rev-parse", "v1.3.0^{commit}"]) == merged + "\n")

        // The next change goes the same way: a new request, main untouched by relctl.
        try repo.commit("fix: tide rounding")
        try repo.git(["push", "-q", "origin", "HEAD:refs/heads/merge-staging"])
        try remote.git(["update-ref", "refs/heads/main", try repo.git(["rev-parse", "HEAD"]).trimmingCharacters(in: .newlines)])
        try repo.git(["fetch", "-q", "origin"])
        let next = relctl(["release-pr"], in: repo.path, environment: env)
        #expect(next.code == 0, "\(next.stderr)")
        #expect(fake.stored.map(\.title) == ["chore(release): 1.3.0", "chore(release): 1.3.1"])
    }

    /// Another request merged on top of the release before `relctl release` ran: the release is tagged where it
    /// was merged, the commits after it go into the next request.
    @Test func aMergeAfterTheReleaseIsLeftForTheNextRequest() throws {
        let fake = ReleasePullRequestFake()
        let server = try Self.server(fake)
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: tide tables"])
        let env = Self.environment(repo, server)
        #expect(relctl(["release-pr"], in: repo.path, environment: env).code == 0)
        try Self.merge("squash", number: 1, in: repo)
        fake.markMerged(1)
        let squashed = try repo.git(["rev-parse", "HEAD"]).trimmingCharacters(in: .newlines)
        try repo.commit("feat: moon phases")
        try repo.git(["push", "-q", "origin", "main"])

        let waiting = relctl(["release-pr"], in: repo.path, environment: env)
        #expect(waiting.code == 0)
        #expect(waiting.stderr == "\(squashed.prefix(12)) (1 commit below HEAD) is the merged release pull request of 1.3.0 (not tagged yet): 'relctl release --push' tags it as v1.3.0 first; then rerun 'relctl release-pr' for the commits after it\n")
        #expect(fake.stored.count == 1)

        let dry = relctl(["release", "--push", "--dry-run"], in: repo.path, environment: env)
        #expect(dry.code == 0, "\(dry.stderr)")
        #expect(dry.stderr == "dry run: 1 commit below HEAD, (\(squashed.prefix(12))) is the merged release pull request of 1.3.0: the real run only tags it as v1.3.0 and pushes the tag; no file is written\n")
        #expect(try repo.git(["tag", "-l"]) == "v1.2.3\n")

        let released = relctl(["release", "--push"], in: repo.path, environment: env)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stderr == """
            released 1.3.0 (minor) as v1.3.0: \(squashed.prefix(12)), 1 commit below HEAD, is its merged pull request, so only the tag was made there; the commits after it are for the next release ('relctl release-pr')
            pushed v1.3.0 to 'origin'
            created the GitHub release v1.3.0: https://github.com/acme/app/releases/tag/v1.3.0
            labelled pull request #1 'relctl: tagged': https://github.com/acme/app/pull/1

            """)
        #expect(try remote.git(["rev-parse", "v1.3.0^{commit}"]) == squashed + "\n")

        let next = relctl(["release-pr"], in: repo.path, environment: env)
        #expect(next.code == 0, "\(next.stderr)")
        #expect(fake.stored.map(\.title) == ["chore(release): 1.3.0", "chore(release): 1.4.0"])
        // The next pull request's body has the moon phases, and not the released tide tables.
        Golden.expect(fake.stored.last?.body ?? "", matches: "release-pr/after-squash-next-body.md")
    }

    /// The token reaches curl on its stdin only: curl's argv is `-q --config -` for every request.
    @Test func theTokenIsNeverOnACommandLine() throws {
        let fake = ReleasePullRequestFake()
        let server = try Self.server(fake)
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: tide tables"])
        defer { withExtendedLifetime(remote) {} }
        let curl = try RecordingCurl()
        defer { curl.remove() }
        let result = relctl(["release-pr"], in: repo.path, environment: Self.environment(repo, server, ["PATH": curl.path]))
        #expect(result.code == 0, "\(result.stderr)")
        let invocations = curl.recorded.components(separatedBy: "---\n").filter { !$0.isEmpty }
        #expect(invocations.count == server.requests.count)
        #expect(invocations.allSatisfy { $0 == "-q\n--config\n-\n" }, "\(curl.recorded)")
        #expect(!result.stderr.contains(Self.token) && !result.stdout.contains(Self.token))
    }

    // MARK: Failures

    @Test func badTokenSaysSoAndPushesNothing() throws {
        let fake = ReleasePullRequestFake()
        let server = try Self.server(fake)
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: tide tables"])
        let before = try Self.state(repo)
        let bad = "ghp_WRONG0123456789"
        let result = relctl(["release-pr"], in: repo.path, environment: Self.environment(repo, server, ["GITHUB_TOKEN": bad]))
        #expect(result.code == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "error: the release pull request was not made: GitHub refused looking up the pull requests from relctl/release-main (HTTP 401: Bad credentials); the token was refused: check GITHUB_TOKEN / GH_TOKEN; nothing was pushed: fix the cause and rerun 'relctl release-pr'\n")
        #expect(!result.stderr.contains(bad))
        #expect(try remote.git(["branch", "--list", "relctl/*"]).isEmpty)
        #expect(try repo.git(["branch", "--list", "relctl/*"]).isEmpty)
        #expect(try Self.state(repo) == before)
    }

    @Test func noTokenAndNoForge() throws {
        let fake = ReleasePullRequestFake()
        let server = try Self.server(fake)
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: tide tables"])
        defer { withExtendedLifetime(remote) {} }
        let noToken = relctl(["release-pr"], in: repo.path, environment: repo.goldenEnvironment(["GITHUB_API_URL": server.baseURL]))
        #expect(noToken.code == 1)
        #expect(noToken.stderr == "error: no GITHUB_TOKEN or GH_TOKEN is set, so the release pull request cannot be made; set GITHUB_TOKEN (a token that may push branches and write pull requests) and rerun 'relctl release-pr'; nothing was pushed\n")
        #expect(server.requests.isEmpty)

        let (plain, plainRemote) = try Self.app(["feat: tide tables"], forge: "{}")
        defer { withExtendedLifetime(plainRemote) {} }
        let noForge = relctl(["release-pr"], in: plain.path, environment: Self.environment(plain, server))
        #expect(noForge.code == 1)
        #expect(noForge.stderr == "error: 'origin' is not on GitHub or GitLab (its URL does not say so) and .relctl.json names no forge, so no release pull request can be made; set \"forge\": {\"provider\": \"github\", \"repository\": \"owner/name\"} (or \"gitlab\"), or release directly with 'relctl release --push'\n")
        #expect(try plainRemote.git(["branch", "--list", "relctl/*"]).isEmpty)
    }

    /// The forge refuses the request after the branch is pushed: said with what exists; the rerun finishes.
    @Test func forgeFailureAfterThePushThenRerun() throws {
        let fake = ReleasePullRequestFake()
        fake.failingWrites = (403, #"{"message": "Resource not accessible by integration"}"#)
        let server = try Self.server(fake)
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: tide tables"])
        let env = Self.environment(repo, server)
        let failed = relctl(["release-pr"], in: repo.path, environment: env)
        #expect(failed.code == 1)
        let head = try repo.git(["rev-parse", "HEAD"]).prefix(12)
        let commit = try remote.git(["rev-parse", "relctl/release-main"]).prefix(12)
        #expect(failed.stderr == """
            pushed relctl/release-main to 'origin': 'chore(release): 1.3.0' on \(head) (\(commit), 1 file: CHANGELOG.md)
            error: relctl/release-main is on 'origin' with 'chore(release): 1.3.0', but its pull request was not made: GitHub refused creating the pull request from relctl/release-main (HTTP 403: Resource not accessible by integration); the token may not write pull requests of acme/app: give it the contents: write and pull-requests: write permissions; fix the cause and rerun 'relctl release-pr' (it finds the branch and the request and finishes)

            """)
        fake.failingWrites = nil
        let fixed = relctl(["release-pr"], in: repo.path, environment: env)
        #expect(fixed.code == 0, "\(fixed.stderr)")
        #expect(fake.stored.count == 1)
        #expect(fixed.stderr.hasPrefix("relctl/release-main on 'origin' already holds 'chore(release): 1.3.0'"), "\(fixed.stderr)")
    }

    @Test func dryRunWritesNothing() throws {
        let fake = ReleasePullRequestFake()
        let server = try Self.server(fake)
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: tide tables"])
        let before = try Self.state(repo)
        let result = relctl(["release-pr", "--dry-run"], in: repo.path, environment: Self.environment(repo, server))
        #expect(result.code == 0, "\(result.stderr)")
        let head = try repo.git(["rev-parse", "HEAD"]).prefix(12)
        #expect(result.stderr == "dry run: would force-push relctl/release-main with 'chore(release): 1.3.0' on \(head) (1 file: CHANGELOG.md) and create a pull request into main; nothing was pushed or changed\n")
        let json = relctl(["release-pr", "--dry-run", "--json"], in: repo.path, environment: Self.environment(repo, server))
        let body = try #require(ForgeReleaseTests.json(json.stdout)["body"] as? String)
        #expect(result.stdout == "chore(release): 1.3.0\n\n" + body)
        Golden.expect(body, matches: "release-pr/dry-run-body.md")
        #expect(try Self.state(repo) == before)
        #expect(try remote.git(["branch", "--list", "relctl/*"]).isEmpty)
        #expect(try repo.git(["branch", "--list", "relctl/*"]).isEmpty)
        #expect(fake.stored.isEmpty)
        #expect(server.requests.allSatisfy { $0.method == "GET" })
    }

    @Test func refusedOffTheRemoteOrWithProjects() throws {
        let fake = ReleasePullRequestFake()
        let server = try Self.server(fake)
        defer { server.stop() }
        let (repo, remote) = try Self.app(["feat: tide tables"])
        defer { withExtendedLifetime(remote) {} }
        try repo.commit("fix: not pushed yet")
        let ahead = relctl(["release-pr"], in: repo.path, environment: Self.environment(repo, server))
        #expect(ahead.code == 1)
        let head = try repo.git(["rev-parse", "HEAD"]).prefix(12)
        let there = try remote.git(["rev-parse", "main"]).prefix(12)
        #expect(ahead.stderr == """
            error: 'main' has commits that are not on 'origin' (\(head) here, \(there) there); the release pull request is made from what 'origin/main' holds: push them first (through a pull request where main is protected), or reset to it (git reset --keep origin/main), then rerun 'relctl release-pr'
            nothing was changed (1 preflight problem)

            """)
        #expect(try remote.git(["branch", "--list", "relctl/*"]).isEmpty)

        // A repository of projects: one request per repository is all release-pr makes.
        let (mono, monoRemote) = try Self.app(["feat: tide tables"], forge: #"{"provider": "github", "repository": "acme/app"}, "projects": [{"name": "ui", "path": ".", "tagFormat": "ui-v{version}", "changelog": false}]"#)
        defer { withExtendedLifetime(monoRemote) {} }
        let projects = relctl(["release-pr"], in: mono.path, environment: Self.environment(mono, server))
        #expect(projects.code == 1)
        #expect(projects.stderr == "error: relctl release-pr makes one pull request for a repository with one version, and .relctl.json lists projects (ui (.)); release them with 'relctl release --project NAME --push' (or --all)\n")

        // A prerelease channel's branch: stable releases only.
        let (beta, betaRemote) = try Self.app(["feat: tide tables"], forge: #"{"provider": "github", "repository": "acme/app"}, "branches": ["main", {"name": "beta", "prerelease": "beta"}]"#)
        defer { withExtendedLifetime(betaRemote) {} }
        try beta.git(["checkout", "-q", "-b", "beta"])
        try beta.git(["push", "-q", "origin", "beta"])
        let channel = relctl(["release-pr"], in: beta.path, environment: Self.environment(beta, server))
        #expect(channel.code == 1)
        #expect(channel.stderr == "error: 'beta' releases beta prereleases, and a release pull request makes stable releases only; release the prerelease directly ('relctl release --push'), or run 'relctl release-pr' on a stable branch (main)\n")
        #expect(try betaRemote.git(["branch", "--list", "relctl/*"]).isEmpty)
    }
}
