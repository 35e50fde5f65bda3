import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// `release --all --push` in a repository with `projects`, against the loopback fake GitHub of `ForgeReleaseTests`:
/// one release object per project tag, its body that project's changelog section, each project's `release_url` in
/// `--json` and `$GITHUB_OUTPUT`; one project's release failing names what exists and how to finish, and both the
/// advice (`relctl publish-release <tag>`) and the next run finish it, never making a second release.
@Suite("forge releases of several projects")
struct ForgeProjectReleaseTests {
    static let config = """
    {
      "forge": {"provider": "github", "repository": "acme/app"},
      "projects": [
        {"name": "consumer", "path": "apps/consumer", "files": [{"path": "apps/consumer/package.json", "format": "json"}]},
        {"name": "driver", "path": "apps/driver", "files": [{"path": "apps/driver/package.json", "format": "json"}]}
      ]
    }

    """

    /// consumer 1.0.0 and driver 2.0.0 tagged and pushed to a bare origin; then a feature in consumer and a fix in driver.
    static func monorepo() throws -> (TestRepository, TestRepository) {
        let origin = try TestRepository(bare: true)
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write(".relctl.json", config)
        try repo.write("apps/consumer/package.json", "{\n  \"name\": \"consumer\",\n  \"version\": \"1.0.0\"\n}\n")
        try repo.write("apps/driver/package.json", "{\n  \"name\": \"driver\",\n  \"version\": \"2.0.0\"\n}\n")
        try repo.commitAll("chore: two apps")
        try repo.tag("consumer-v1.0.0")
        try repo.tag("driver-v2.0.0")
        try repo.git(["remote", "add", "origin", origin.path])
        try repo.git(["push", "-q", "origin", "main", "--tags"])
        try repo.commit("feat: tide tables", file: "apps/consumer/tides.js")
        try repo.commit("fix: crash on start", file: "apps/driver/start.js")
        return (repo, origin)
    }

    static func array(_ text: String) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] ?? []
    }

    /// The new section of a project's changelog, as committed.
    static func section(_ repo: TestRepository, _ project: String, _ version: String) throws -> String {
        let changelog = try repo.read("apps/\(project)/CHANGELOG.md")
        return try #require(ForgePublishing.section(of: version, in: changelog))
    }

    @Test func oneReleasePerProjectTagWithItsOwnSectionAndURL() throws {
        let forge = ForgeReleaseTests.Forge()
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, origin) = try Self.monorepo()
        defer { withExtendedLifetime(origin) {} }
        let outputFile = try makeTempDirectory(prefix: "relctl-gh-output") + "/output"
        _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
        let env = ForgeReleaseTests.environment(repo, server, ["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": outputFile])
        let result = relctl(["release", "--all", "--push", "--json"], in: repo.path, environment: env)
        #expect(result.code == 0, "\(result.stderr)")
        let consumerURL = "https://github.com/acme/app/releases/tag/consumer-v1.1.0"
        let driverURL = "https://github.com/acme/app/releases/tag/driver-v2.0.1"
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(Array(lines.suffix(3)) == [
            "pushed main and consumer-v1.1.0, driver-v2.0.1 to 'origin'",
            "created the GitHub release consumer-v1.1.0: \(consumerURL)",
            "created the GitHub release driver-v2.0.1: \(driverURL)",
        ], "\(result.stderr)")
        let reports = Self.array(result.stdout)
        #expect(reports.map { $0["project"] as? String } == ["consumer", "driver"])
        #expect(reports.map { $0["release_url"] as? String } == [consumerURL, driverURL])
        #expect(reports.map { $0["releaseUrl"] as? String } == [consumerURL, driverURL])

        let releases = forge.stored
        #expect(releases.map(\.tag) == ["consumer-v1.1.0", "driver-v2.0.1"])
        #expect(releases.map(\.name) == ["consumer-v1.1.0", "driver-v2.0.1"])
        let consumerSection = try Self.section(repo, "consumer", "1.1.0")
        let driverSection = try Self.section(repo, "driver", "2.0.1")
        #expect(releases[0].body == ForgePublishing.normalized(consumerSection))
        #expect(releases[1].body == ForgePublishing.normalized(driverSection))
        #expect(!consumerSection.contains("crash on start"), "\(consumerSection)")
        #expect(!driverSection.contains("tide tables"), "\(driverSection)")
        // Each section has its own project's entries only: the tide tables for consumer, the crash fix for driver.
        let sections = goldenSections([("apps/consumer/CHANGELOG.md: 1.1.0", consumerSection), ("apps/driver/CHANGELOG.md: 2.0.1", driverSection)])
        Golden.expect(sections, matches: "projects/forge-release-sections.txt")

        let outputs = try String(contentsOfFile: outputFile, encoding: .utf8)
        // Every output, each project's release URL among them.
        Golden.expect(outputs, matches: "projects/forge-release-github-outputs.txt")
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.git/" + ForgePublishing.pendingFile))
    }

    @Test func oneProjectsFailureNamesWhatExistsAndTheAdviceFinishesIt() throws {
        let forge = ForgeReleaseTests.Forge()
        forge.refusedTag = "driver-v2.0.1"
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, origin) = try Self.monorepo()
        let env = ForgeReleaseTests.environment(repo, server)
        let failed = relctl(["release", "--all", "--push"], in: repo.path, environment: env)
        #expect(failed.code == 1)
        let lines = failed.stderr.split(separator: "\n").map(String.init)
        #expect(Array(lines.suffix(3)) == [
            "pushed main and consumer-v1.1.0, driver-v2.0.1 to 'origin'",
            "created the GitHub release consumer-v1.1.0: https://github.com/acme/app/releases/tag/consumer-v1.1.0",
            "error: driver-v2.0.1 is released and on 'origin' (the commit and the tag), but its GitHub release was not made: GitHub refused creating the release driver-v2.0.1 (HTTP 500: Server Error); fix the cause and run 'relctl publish-release driver-v2.0.1' (the next 'relctl release --push' also retries it)",
        ], "\(failed.stderr)")
        #expect(failed.stdout == "consumer 1.1.0\ndriver 2.0.1\n")
        #expect(try origin.git(["tag", "--list", "driver-v2.0.1"]) == "driver-v2.0.1\n", "the tag stays published")
        #expect(forge.stored.map(\.tag) == ["consumer-v1.1.0"])
        #expect(ForgePublishing.pending(gitDir: repo.path + "/.git") == ["driver-v2.0.1"])

        // The advice, followed once the forge is back: driver's release, with driver's section (its own changelog).
        forge.lock.lock(); forge.refusedTag = nil; forge.lock.unlock()
        let outputFile = try makeTempDirectory(prefix: "relctl-gh-output") + "/output"
        _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
        let fixed = relctl(["publish-release", "driver-v2.0.1", "--json"], in: repo.path,
                           environment: env.merging(["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": outputFile]) { $1 })
        #expect(fixed.code == 0, "\(fixed.stderr)")
        #expect(try String(contentsOfFile: outputFile, encoding: .utf8) == "release_url=https://github.com/acme/app/releases/tag/driver-v2.0.1\n")
        #expect(fixed.stderr == "created the GitHub release driver-v2.0.1: https://github.com/acme/app/releases/tag/driver-v2.0.1\n")
        #expect(ForgeReleaseTests.json(fixed.stdout)["release_url"] as? String == "https://github.com/acme/app/releases/tag/driver-v2.0.1")
        let releases = forge.stored
        #expect(releases.map(\.tag) == ["consumer-v1.1.0", "driver-v2.0.1"])
        #expect(releases[1].body == ForgePublishing.normalized(try Self.section(repo, "driver", "2.0.1")))
        #expect(ForgePublishing.pending(gitDir: repo.path + "/.git").isEmpty)
    }

    @Test func theNextRunRetriesTheProjectsFailedRelease() throws {
        let forge = ForgeReleaseTests.Forge()
        forge.refusedTag = "driver-v2.0.1"
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, origin) = try Self.monorepo()
        defer { withExtendedLifetime(origin) {} }
        let outputFile = try makeTempDirectory(prefix: "relctl-gh-output") + "/output"
        _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
        let env = ForgeReleaseTests.environment(repo, server, ["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": outputFile])
        #expect(relctl(["release", "--all", "--push"], in: repo.path, environment: env).code == 1)
        forge.lock.lock(); forge.refusedTag = nil; forge.lock.unlock()
        try Data().write(to: URL(fileURLWithPath: outputFile))

        let rerun = relctl(["release", "--all", "--push", "--json"], in: repo.path, environment: env)
        #expect(rerun.code == 0, "\(rerun.stderr)")
        #expect(rerun.stderr.hasPrefix("""
            the forge release of driver-v2.0.1 was not made by an earlier run: making it now
            created the GitHub release driver-v2.0.1: https://github.com/acme/app/releases/tag/driver-v2.0.1

            """), "\(rerun.stderr)")
        let releases = forge.stored
        #expect(releases.map(\.tag) == ["consumer-v1.1.0", "driver-v2.0.1"])
        #expect(releases[1].body == ForgePublishing.normalized(try Self.section(repo, "driver", "2.0.1")))
        // The retried release is this run's: its URL in driver's outputs.
        let outputs = try String(contentsOfFile: outputFile, encoding: .utf8)
        Golden.expect(outputs, matches: "projects/forge-release-rerun-github-outputs.txt")
        #expect(Self.array(rerun.stdout).first { $0["project"] as? String == "driver" }?["release_url"] as? String
                == "https://github.com/acme/app/releases/tag/driver-v2.0.1")

        // Nothing left to retry; a publish-release by hand updates, never a second.
        let third = relctl(["release", "--all", "--push"], in: repo.path, environment: env)
        #expect(third.code == 0)
        #expect(!third.stderr.contains("forge release"), "\(third.stderr)")
        let again = relctl(["publish-release", "consumer-v1.1.0"], in: repo.path, environment: env)
        #expect(again.stderr == "updated the GitHub release consumer-v1.1.0: https://github.com/acme/app/releases/tag/consumer-v1.1.0\n")
        #expect(forge.stored.count == 2)
    }

    /// Killed right after the first project's release was created, and at the second tag's push: the rerun makes
    /// (or updates) every project's release, one per tag, never a second.
    @Test(arguments: ["forge-release", "push-tag-2"])
    func killedAfterThePushTheRerunMakesEveryProjectsRelease(step: String) throws {
        let forge = ForgeReleaseTests.Forge()
        let server = try FakeStoreServer { request, _ in forge.answer(request) }
        defer { server.stop() }
        let (repo, origin) = try Self.monorepo()
        defer { withExtendedLifetime(origin) {} }
        let env = ForgeReleaseTests.environment(repo, server)
        let killed = RunningProcessResult(try RunningProcess(try relctlExecutable(), ["release", "--all", "--push"], in: repo.path,
                                                             environment: env.merging(["RELCTL_TEST_CRASH": step]) { $1 }))
        #expect(killed.bySignal, "\(killed.result.stderr)")
        #expect(forge.stored.map(\.tag) == (step == "forge-release" ? ["consumer-v1.1.0"] : []))
        let rerun = try runRelctl(["release", "--all", "--push"], in: repo.path, environment: env)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let releases = forge.stored
        #expect(releases.map(\.tag).sorted() == ["consumer-v1.1.0", "driver-v2.0.1"], "\(rerun.stderr)")
        #expect(releases.first { $0.tag == "driver-v2.0.1" }?.body == ForgePublishing.normalized(try Self.section(repo, "driver", "2.0.1")))
        #expect(releases.first { $0.tag == "consumer-v1.1.0" }?.body == ForgePublishing.normalized(try Self.section(repo, "consumer", "1.1.0")))
        #expect(server.requests.filter { $0.method == "POST" }.count == 2)
        #expect(try origin.git(["tag", "--list", "driver-v2.0.1"]) == "driver-v2.0.1\n")
        #expect(ForgePublishing.pending(gitDir: repo.path + "/.git").isEmpty)
    }

    @Test func withoutATokenOneWarningNamesEveryTag() throws {
        let (repo, origin) = try Self.monorepo()
        defer { withExtendedLifetime(origin) {} }
        let result = relctl(["release", "--all", "--push"], in: repo.path,
                            environment: repo.goldenEnvironment(["GITHUB_API_URL": "http://127.0.0.1:9"]))
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("""
            pushed main and consumer-v1.1.0, driver-v2.0.1 to 'origin'
            warning: no GITHUB_TOKEN or GH_TOKEN is set, so no GitHub release was made for the tag; set GITHUB_TOKEN (a token that may create releases) and run 'relctl publish-release consumer-v1.1.0' (then the same for driver-v2.0.1)

            """), "\(result.stderr)")
        #expect(ForgePublishing.pending(gitDir: repo.path + "/.git").isEmpty)
    }
}
