import Foundation
import Testing
import RelctlCore
import RelctlTestSupport
@testable import RelctlCLI

// Several apps in one repository (`projects` in .relctl.json): which commits and which tags count for each project,
// the commands with --project/--all and the folder they run in, and `release --all` (one commit, one tag each, all
// or nothing). Real repositories, the CLI run in-process.

private let monorepoConfig = """
{"projects": [
  {"name": "consumer", "path": "apps/consumer", "tagFormat": "consumer-v{version}",
   "files": [{"path": "apps/consumer/package.json", "format": "json"}], "dependsOn": ["ui"]},
  {"name": "driver", "path": "apps/driver", "tagFormat": "driver-v{version}",
   "files": [{"path": "apps/driver/package.json", "format": "json"}], "dependsOn": ["ui"], "scopes": ["driver"]},
  {"name": "ui", "path": "packages/ui", "tagFormat": "ui-v{version}", "changelog": false}
]}

"""

private func packageJSON(_ name: String, _ version: String) -> String {
    "{\n  \"name\": \"\(name)\",\n  \"version\": \"\(version)\"\n}\n"
}

/// consumer at 0.4.0, driver at 3.1.0, ui at 1.0.0, each tagged; a root README.
private func monorepo() throws -> TestRepository {
    let repo = try identified()
    try repo.write(".relctl.json", monorepoConfig)
    try repo.write("README.md", "monorepo\n")
    try repo.write("apps/consumer/package.json", packageJSON("consumer", "0.4.0"))
    try repo.write("apps/driver/package.json", packageJSON("driver", "3.1.0"))
    try repo.write("packages/ui/index.js", "export {}\n")
    try repo.commitAll("chore: initial commit")
    try repo.tag("consumer-v0.4.0")
    try repo.tag("driver-v3.1.0")
    try repo.tag("ui-v1.0.0")
    return repo
}

/// A repository with a committer identity (a release commits).
private func identified() throws -> TestRepository {
    let repo = try TestRepository()
    try repo.git(["config", "user.name", "Release Bot"])
    try repo.git(["config", "user.email", "bot@example.com"])
    return repo
}

private func json(_ text: String) throws -> [[String: Any]] {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
}

@Suite("projects: several apps in one repository")
struct ProjectsTests {
    @Test func commitsCountForTheProjectsWhoseFoldersTheyChange() throws {
        let repo = try monorepo()
        try repo.commit("fix: consumer crash", file: "apps/consumer/src.js")
        var result = relctl(["next", "--json"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        var objects = try json(result.stdout)
        #expect(objects.map { $0["project"] as? String } == ["consumer", "driver", "ui"])
        #expect(objects.map { $0["next"] as? String } == ["0.4.1", nil, nil])
        #expect(objects[1]["reason"] as? String == "no commit since driver-v3.1.0 changes apps/driver (or packages/ui) (1 commit changed other folders)")

        // Both apps in one commit.
        try repo.write("apps/consumer/a.js", "a\n")
        try repo.write("apps/driver/a.js", "a\n")
        try repo.commitAll("feat: shared login screen")
        result = relctl(["next"], in: repo.path)
        #expect(result.stdout == "consumer 0.5.0\ndriver 3.2.0\n", "\(result.stderr)")
        #expect(result.stderr == "ui: no commit since ui-v1.0.0 changes packages/ui (2 commits changed other folders)\n")

        // Only the shared package: counts for ui and, through dependsOn, for both apps.
        try repo.commit("feat(ui)!: new button API\n\nBREAKING CHANGE: Button takes a kind", file: "packages/ui/button.js")
        result = relctl(["next"], in: repo.path)
        #expect(result.stdout == "consumer 0.5.0\ndriver 4.0.0\nui 2.0.0\n", "\(result.stderr)")

        // Only the root: counts for none.
        let before = relctl(["next", "--json"], in: repo.path).stdout
        try repo.commit("feat: root tooling", file: "scripts/tool.sh")
        objects = try json(relctl(["next", "--json"], in: repo.path).stdout)
        #expect(objects.map { $0["next"] as? String } == ["0.5.0", "4.0.0", "2.0.0"])
        #expect(objects.map { ($0["commits"] as? [Any])?.count } == (try json(before)).map { ($0["commits"] as? [Any])?.count })
    }

    @Test func aScopeNamingTheProjectCountsAnywhere() throws {
        let repo = try monorepo()
        try repo.commit("fix(driver): tune the map defaults", file: "config/maps.json")
        let result = relctl(["next", "--project", "driver"], in: repo.path)
        #expect(result.stdout == "3.1.1\n", "\(result.stderr)")
        #expect(relctl(["next", "--project", "consumer"], in: repo.path).stdout == "")
    }

    @Test func eachProjectReadsOnlyItsOwnTags() throws {
        let repo = try monorepo()
        // A higher tag of another project, and a tag of the old root format: neither is consumer's base.
        try repo.commit("fix: a", file: "apps/consumer/x.js")
        try repo.tag("driver-v9.0.0")
        try repo.tag("v7.0.0")
        try repo.commit("fix: b", file: "apps/consumer/y.js")
        let objects = try json(relctl(["status", "--json", "--project", "consumer"], in: repo.path).stdout)
        #expect(objects.count == 1)
        #expect(objects[0]["baseTag"] as? String == "consumer-v0.4.0")
        #expect(objects[0]["current"] as? String == "0.4.0")
        #expect(objects[0]["next"] as? String == "0.4.1")
        let driver = try json(relctl(["status", "--json", "--project", "driver"], in: repo.path).stdout)
        #expect(driver[0]["baseTag"] as? String == "driver-v9.0.0")
        #expect(driver[0]["commitsSinceRelease"] as? Int == 0)
    }

    @Test func theProjectIsInferredFromTheWorkingFolder() throws {
        let repo = try monorepo()
        try repo.commit("feat: offers", file: "apps/consumer/offers.js")
        try repo.commit("fix: eta", file: "apps/driver/eta.js")
        let inConsumer = relctl(["next"], in: repo.path + "/apps/consumer")
        #expect(inConsumer.stdout == "0.5.0\n", "\(inConsumer.stderr)")
        #expect(inConsumer.stderr == "")
        try FileManager.default.createDirectory(atPath: repo.path + "/apps/driver/src", withIntermediateDirectories: true)
        #expect(relctl(["next"], in: repo.path + "/apps/driver/src").stdout == "3.1.1\n")
        // At the root: every project.
        #expect(relctl(["next"], in: repo.path).stdout == "consumer 0.5.0\ndriver 3.1.1\n")
        // Released from inside a folder: only that project.
        let released = relctl(["release"], in: repo.path + "/apps/consumer", environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "0.5.0\n")
        #expect(try repo.git(["tag", "--points-at", "HEAD"]) == "consumer-v0.5.0\n")
        #expect(try repo.read("apps/driver/package.json") == packageJSON("driver", "3.1.0"))
    }

    @Test func releaseAtTheRootAsksForTheProjects() throws {
        let repo = try monorepo()
        try repo.commit("fix: a", file: "apps/consumer/x.js")
        let before = try repo.snapshot()
        let result = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(result.code == 64)
        #expect(result.stderr.hasPrefix("error: .relctl.json lists 3 projects (consumer (apps/consumer), driver (apps/driver), ui (packages/ui)); name the ones to act on with --project NAME (repeatable), or --all, or run it inside a project's folder\n"), "\(result.stderr)")
        #expect(try repo.snapshot() == before)
        let unknown = relctl(["release", "--project", "consumr"], in: repo.path, environment: fixedDate)
        #expect(unknown.code == 64)
        #expect(unknown.stderr.hasPrefix("error: no project \"consumr\" in .relctl.json; did you mean \"consumer\"?; the projects are consumer (apps/consumer), driver (apps/driver), ui (packages/ui)\n"), "\(unknown.stderr)")
        #expect(try repo.snapshot() == before)
    }

    @Test func releaseAllMakesOneCommitWithATagPerProjectAndABannerPerMajor() throws {
        let repo = try monorepo()
        try repo.commit("feat(driver)!: new routing\n\nBREAKING CHANGE: old routes are gone", file: "apps/driver/routes.js")
        try repo.commit("fix: consumer typo", file: "apps/consumer/copy.js")
        let head = try repo.head()
        let folder = try makeTempDirectory(prefix: "relctl-projects-gh")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let github = ["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": folder + "/output", "GITHUB_STEP_SUMMARY": folder + "/summary"]
        // The major halts the run: only driver's marker, inside its folder; nothing for consumer.
        let environment = repo.goldenEnvironment(fixedDate.merging(github) { $1 })
        let halted = relctl(["release", "--all"], in: repo.path, environment: environment)
        #expect(halted.code == 3, "\(halted.stderr)")
        #expect(try repo.head() == head)
        #expect(FileManager.default.fileExists(atPath: repo.path + "/apps/driver/.major-release-pending"))
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.major-release-pending"))
        #expect(try repo.read("apps/consumer/package.json") == packageJSON("consumer", "0.4.0"))
        #expect(halted.stderr.hasSuffix("error: halted before major release of driver 4.0.0 (onMajor is \"halt\"): nothing is released; review the breaking changes in apps/driver/.major-release-pending, then rerun with --confirm-major driver\n"), "\(halted.stderr)")

        // Following the advice releases both.
        try? FileManager.default.removeItem(atPath: folder + "/output")
        let result = relctl(["release", "--all", "--confirm-major", "driver", "--json"], in: repo.path, environment: environment)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "MAJOR RELEASE").count == 2, "one banner: \(result.stderr)")
        let objects = try json(result.stdout)
        #expect(objects.map { $0["project"] as? String } == ["consumer", "driver", "ui"])
        #expect(objects.map { $0["version"] as? String } == ["0.4.1", "4.0.0", nil])
        #expect(try repo.git(["rev-list", "--count", "\(head)..HEAD"]) == "1\n")
        #expect(try repo.git(["tag", "--points-at", "HEAD"]) == "consumer-v0.4.1\ndriver-v4.0.0\n")
        #expect(try repo.git(["log", "-1", "--format=%s"]) == "chore(release): consumer-v0.4.1, driver-v4.0.0\n")
        #expect(try repo.git(["show", "--name-only", "--format=", "HEAD"]) == """
            apps/consumer/CHANGELOG.md
            apps/consumer/package.json
            apps/driver/.major-release-pending
            apps/driver/CHANGELOG.md
            apps/driver/package.json

            """)
        #expect(try repo.read("apps/driver/package.json") == packageJSON("driver", "4.0.0"))
        let outputs = try String(contentsOfFile: folder + "/output", encoding: .utf8)
        // Every output: the projects released, each project's version, tag and pending major (ui's empty).
        Golden.expect(outputs, matches: "projects/release-all-github-outputs.txt")
        // Nothing is due afterwards, for any project.
        #expect(relctl(["next"], in: repo.path).stdout == "")
    }

    @Test func aFailedPreflightInOneProjectWritesNothingForAny() throws {
        let repo = try monorepo()
        try repo.commit("fix: a", file: "apps/consumer/x.js")
        try repo.commit("fix: b", file: "apps/driver/x.js")
        // driver-v3.1.1 already exists on another branch: driver's preflight refuses it.
        try repo.git(["checkout", "-q", "-b", "side", "HEAD~2"])
        try repo.commit("chore: side", file: "side.txt")
        try repo.tag("driver-v3.1.1")
        try repo.git(["checkout", "-q", "main"])
        let before = try repo.snapshot()
        let head = try repo.head()
        let result = relctl(["release", "--all"], in: repo.path, environment: fixedDate)
        #expect(result.code == 1, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("error: driver: tag driver-v3.1.1 already exists (\(String(try repo.git(["rev-parse", "driver-v3.1.1"]).prefix(12)))) but is not an ancestor release of HEAD; delete it (git tag -d driver-v3.1.1) if it is wrong, or check out the history it belongs to\nnothing was changed (1 preflight problem)\n"), "\(result.stderr)")
        #expect(try repo.head() == head)
        #expect(try repo.snapshot() == before)
        #expect(try repo.git(["tag", "--list", "consumer-*"]) == "consumer-v0.4.0\n")
    }

    @Test func twoAndroidAppsInOneGradleBuildKeepTheirOwnVersionCodes() throws {
        let repo = try identified()
        try repo.write(".relctl.json", """
            {"changelog": false, "projects": [
              {"name": "appa", "path": "appa", "tagFormat": "APPA_{version}", "files": [{"path": "appa/build.gradle", "format": "gradle"}]},
              {"name": "appb", "path": "appb", "tagFormat": "APPB_{version}", "files": [{"path": "appb/build.gradle", "format": "gradle"}]}
            ]}

            """)
        func gradle(_ id: String, _ code: Int, _ name: String) -> String {
            "android {\n    defaultConfig {\n        applicationId \"\(id)\"\n        versionCode \(code)\n        versionName \"\(name)\"\n    }\n}\n"
        }
        try repo.write("settings.gradle", "include ':appa', ':appb'\n")
        try repo.write("appa/build.gradle", gradle("com.example.a", 22, "22.0"))
        try repo.write("appb/build.gradle", gradle("com.example.b", 200_008_229, "22.0"))
        try repo.commitAll("chore: initial commit")
        try repo.tag("APPA_22.0.0")
        try repo.tag("APPB_22.0.0")
        let current = relctl(["current"], in: repo.path)
        #expect(current.code == 0, "no drift between two apps: \(current.stderr)")
        try repo.commit("fix: a crash", file: "appa/src/Main.kt")
        try repo.commit("fix: b crash", file: "appb/src/Main.kt")
        let result = relctl(["release", "--all"], in: repo.path, environment: fixedDate)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try repo.read("appa/build.gradle") == gradle("com.example.a", 23, "22.0.1"))
        #expect(try repo.read("appb/build.gradle") == gradle("com.example.b", 200_008_230, "22.0.1"))
        #expect(try repo.git(["tag", "--points-at", "HEAD"]) == "APPA_22.0.1\nAPPB_22.0.1\n")
        #expect(relctl(["current"], in: repo.path).code == 0)
    }

    @Test func aCanaryFlavourUnderItsOwnTagsDoesNotCountForProduction() throws {
        let repo = try identified()
        try repo.write(".relctl.json", """
            {"changelog": false, "projects": [
              {"name": "production", "path": "app", "tagFormat": "v{version}", "files": [{"path": "app/build.gradle", "format": "gradle"}]},
              {"name": "canary", "path": "app", "tagFormat": "canary-v{version}", "files": [{"path": "canary/version.properties", "format": "properties", "versionNameKey": "VERSION_NAME", "versionCodeKey": "VERSION_CODE"}]}
            ]}

            """)
        try repo.write("app/build.gradle", "android {\n    defaultConfig {\n        versionCode 3370\n        versionName \"3.37.0\"\n    }\n}\n")
        try repo.write("canary/version.properties", "VERSION_NAME=3.38.0\nVERSION_CODE=200008229\n")
        try repo.commitAll("chore: initial commit")
        try repo.tag("v3.37.0")
        try repo.tag("canary-v3.38.0")
        try repo.commit("fix: a crash", file: "app/src/Main.kt")
        let result = relctl(["release", "--project", "production"], in: repo.path, environment: fixedDate)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try repo.read("app/build.gradle") == "android {\n    defaultConfig {\n        versionCode 3371\n        versionName \"3.37.1\"\n    }\n}\n")
        #expect(try repo.git(["tag", "--points-at", "HEAD"]) == "v3.37.1\n")
    }

    @Test func configMistakesAreOneLineErrorsWithTheFix() throws {
        let cases: [(String, String)] = [
            (#"{"projects": [{"name": "a", "path": "a", "colour": 1}]}"#, "error: .relctl.json:1: unknown key 'projects[0].colour'; known keys: projects[0].name, projects[0].path, projects[0].tagFormat, projects[0].files, projects[0].changelog, projects[0].buildNumber, projects[0].gate, projects[0].dependsOn, projects[0].scopes, projects[0].initialVersion\n"),
            (#"{"projects": [{"name": "a", "path": "a"}, {"name": "a", "path": "b"}]}"#, "error: .relctl.json:1: 'projects[1].name' \"a\" is used twice (also at line 1); give each project its own name\n"),
            (#"{"projects": [{"name": "a", "path": "../a"}]}"#, "error: .relctl.json:1: 'projects[0].path' \"../a\" is outside the repository; give it relative to the repository root, like \"apps/a\"\n"),
            (#"{"projects": [{"name": "a", "path": "a", "dependsOn": ["uii"]}, {"name": "ui", "path": "b"}]}"#, "error: .relctl.json:1: 'projects[0].dependsOn' names \"uii\", which is not a project; did you mean \"ui\"?\n"),
            (#"{"projects": [{"name": "a", "path": "a", "dependsOn": ["b"]}, {"name": "b", "path": "b", "dependsOn": ["a"]}]}"#, "error: .relctl.json:1: 'projects' dependsOn makes a cycle (a -> b -> a); a project cannot depend on itself through others: remove one of these dependsOn entries\n"),
            (#"{"projects": [{"name": "a", "path": "a", "tagFormat": "v{version}"}, {"name": "b", "path": "b", "tagFormat": "v{version}"}]}"#, "error: .relctl.json:1: projects \"a\" and \"b\" both tag releases as \"v{version}\", so each would count the other's tags as its own releases; give each its own tagFormat, like \"b-v{version}\"\n"),
            (#"{"projects": [{"name": "a", "path": "missing"}]}"#, "error: .relctl.json:1: 'projects[0].path' \"missing\" (project \"a\") is not a folder of the repository; give the app's folder relative to the repository root, or \".\" for the root\n"),
        ]
        for (config, expected) in cases {
            let repo = try TestRepository()
            try repo.write(".relctl.json", config + "\n")
            try repo.write("a/x", "x\n")
            try repo.write("b/x", "x\n")
            try repo.commitAll("chore: initial commit")
            let result = relctl(["next"], in: repo.path)
            #expect(result.code == 1, "\(config)")
            #expect(result.stderr == expected, "\(config)")
        }
    }

    @Test func aMergeCountsByWhatItBroughtIn() throws {
        let repo = try monorepo()
        try repo.git(["checkout", "-q", "-b", "feature"])
        try repo.commit("feat: route planner", file: "apps/driver/routes.js")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("chore: root tooling", file: "tools/x.sh")
        try repo.git(["merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature"])
        let objects = try json(relctl(["next", "--json"], in: repo.path).stdout)
        #expect(objects.map { $0["next"] as? String } == [nil, "3.2.0", nil])
        #expect((objects[1]["commits"] as? [[String: Any]])?.map { $0["description"] as? String } == ["Merge branch 'feature'", "route planner"])
    }

    @Test func syncAndChangelogActOnTheNamedProject() throws {
        let repo = try monorepo()
        try repo.commit("feat: offers", file: "apps/consumer/offers.js")
        let asked = relctl(["sync", "0.6.0"], in: repo.path)
        #expect(asked.code == 64)
        #expect(try repo.read("apps/consumer/package.json") == packageJSON("consumer", "0.4.0"))
        let synced = relctl(["sync", "0.6.0", "--project", "consumer"], in: repo.path)
        #expect(synced.code == 0, "\(synced.stderr)")
        #expect(try repo.read("apps/consumer/package.json") == packageJSON("consumer", "0.6.0"))
        #expect(try repo.read("apps/driver/package.json") == packageJSON("driver", "3.1.0"))
        let changelog = relctl(["changelog", "--project", "consumer"], in: repo.path, environment: fixedDate)
        #expect(changelog.code == 0, "\(changelog.stderr)")
        #expect(changelog.stdout.hasPrefix("## 0.5.0 (2026-09-21)\n"), "\(changelog.stdout)")
        expectTranscript(["changelog", "--project", "consumer"], changelog, matches: "projects/changelog-of-one-project.txt", repo: repo)
        let both = try json(relctl(["current", "--json", "--project", "consumer", "--project", "driver"], in: repo.path).stdout)
        #expect(both.map { $0["project"] as? String } == ["consumer", "driver"])
        #expect(both.map { ($0["drift"] as? [Any])?.count } == [0, 0])
    }

    @Test func withoutProjectsTheOptionsAreRefusedClearly() throws {
        let repo = try TestRepository.released("1.0.0", then: ["fix: a"])
        let result = relctl(["next", "--project", "app"], in: repo.path)
        #expect(result.code == 64)
        #expect(result.stderr.hasPrefix("error: --project app: .relctl.json lists no projects (the repository is one app); drop --project, or list the apps under \"projects\"\n"), "\(result.stderr)")
        #expect(relctl(["next", "--all"], in: repo.path).stdout == "1.0.1\n")
    }
}
