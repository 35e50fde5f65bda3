import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// End-to-end tests of `relctl release` on real git repositories shaped like mobile apps: the version files,
// the changelog, the release commit and tag, the major marker, preflight refusals, rollback, dry run and JSON.

// MARK: - Apps

/// app.json of the Expo app at a version and build numbers (the shared fixture has 1.2.0 / "12" / 12).
func expoAppJSON(version: String, build: Int) -> String {
    expoAppJSON
        .replacingOccurrences(of: "\"version\": \"1.2.0\"", with: "\"version\": \"\(version)\"")
        .replacingOccurrences(of: "\"buildNumber\": \"12\"", with: "\"buildNumber\": \"\(build)\"")
        .replacingOccurrences(of: "\"versionCode\": 12", with: "\"versionCode\": \(build)")
}

/// A Flutter Runner project: both app configurations defer to flutter build, the RunnerTests target stays at 1.0.
let flutterRunnerPbxproj = pbxproj(marketing: "\"$(FLUTTER_BUILD_NAME)\"", build: "\"$(FLUTTER_BUILD_NUMBER)\"")
    .replacingOccurrences(of: "AppTests", with: "RunnerTests")
    .replacingOccurrences(of: "/* App */", with: "/* Runner */")
    .replacingOccurrences(of: "= App;", with: "= Runner;")
    .replacingOccurrences(of: "\"App\"", with: "\"Runner\"")
    .replacingOccurrences(of: "App/Info.plist", with: "Runner/Info.plist")
    .replacingOccurrences(of: "com.example.app", with: "com.example.trail")

/// `.relctl.json` as `relctl init` writes it, listing the given files.
func initStyleConfig(_ files: [(path: String, format: String)]) -> String {
    let entries = files.map { "    {\n      \"path\": \"\($0.path)\",\n      \"format\": \"\($0.format)\"\n    }" }
    return "{\n  \"tagFormat\": \"v{version}\",\n  \"files\": [\n" + entries.joined(separator: ",\n")
        + "\n  ],\n  \"buildNumber\": {\n    \"strategy\": \"increment\",\n    \"shared\": true\n  }\n}\n"
}

enum ReleaseApp {
    case expo, flutter

    /// The app committed with its configuration, a committer identity in the repository config, and tag v1.2.0.
    func make() throws -> TestRepository {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        switch self {
        case .expo:
            try repo.write("app.json", expoAppJSON)
            try repo.write("package.json", packageJSON("1.2.0"))
            try repo.write(".relctl.json", initStyleConfig([("app.json", "expo"), ("package.json", "json")]))
        case .flutter:
            try repo.write("pubspec.yaml", pubspec)
            try repo.write("ios/Runner.xcodeproj/project.pbxproj", flutterRunnerPbxproj)
            try repo.write("lib/main.dart", "void main() {}\n")
            try repo.write(".relctl.json", initStyleConfig([("pubspec.yaml", "pubspec"),
                                                            ("ios/Runner.xcodeproj/project.pbxproj", "pbxproj")]))
        }
        try repo.commitAll("chore: initial commit")
        try repo.tag("v1.2.0")
        return repo
    }
}

/// The files the HEAD commit changed, sorted.
func filesOfHead(_ repo: TestRepository) throws -> [String] {
    try repo.git(["show", "--name-only", "--format=", "HEAD"]).split(separator: "\n").map(String.init).sorted()
}

/// Checks what every release leaves: one commit on top of `parent` holding exactly `files`, the annotated tag on it,
/// the release subject, a clean work tree.
func expectReleased(_ repo: TestRepository, _ version: String, parent: String, files: [String],
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
    let head = try repo.head()
    #expect(try repo.git(["rev-parse", "HEAD^"]).trimmingCharacters(in: .newlines) == parent, sourceLocation: sourceLocation)
    #expect(try repo.git(["log", "-1", "--format=%s"]) == "chore(release): \(version)\n", sourceLocation: sourceLocation)
    #expect(try filesOfHead(repo) == files.sorted(), sourceLocation: sourceLocation)
    #expect(try repo.git(["cat-file", "-t", "v\(version)"]) == "tag\n", sourceLocation: sourceLocation)
    #expect(try repo.git(["rev-parse", "v\(version)^{commit}"]).trimmingCharacters(in: .newlines) == head, sourceLocation: sourceLocation)
    #expect(try repo.git(["status", "--porcelain", "--untracked-files=all"]).isEmpty, sourceLocation: sourceLocation)
}

// MARK: - Tests

@Suite("relctl release on apps")
struct ReleaseAppTests {
    @Test func expoPatchMinorMajor() throws {
        let repo = try ReleaseApp.expo.make()

        // Patch.
        let fix = try repo.commit("fix(map): crash when the trail has no points", file: "src/map.ts")
        let patch = try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], CLIResult(patch), matches: "release-app/expo-patch.txt", repo: repo,
                         sections: [("CHANGELOG.md", try repo.read("CHANGELOG.md"))])
        #expect(try repo.read("app.json") == expoAppJSON(version: "1.2.1", build: 13))
        #expect(try repo.read("package.json") == packageJSON("1.2.1"))
        try expectReleased(repo, "1.2.1", parent: fix, files: ["CHANGELOG.md", "app.json", "package.json"])
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.major-release-pending"))

        // Minor: the build numbers move on from 13.
        let feat = try repo.commit("feat(trails): offline maps", file: "src/offline.ts")
        let minor = try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], CLIResult(minor), matches: "release-app/expo-minor.txt", repo: repo,
                         sections: [("CHANGELOG.md", try repo.read("CHANGELOG.md"))])
        #expect(try repo.read("app.json") == expoAppJSON(version: "1.3.0", build: 14))
        #expect(try repo.read("package.json") == packageJSON("1.3.0"))
        try expectReleased(repo, "1.3.0", parent: feat, files: ["CHANGELOG.md", "app.json", "package.json"])

        // Major, from a BREAKING CHANGE footer: halted first (only the marker written), then confirmed.
        let breaking = try repo.commit("feat(sync): new sync protocol\n\nBREAKING CHANGE: 1.x clients can no longer sync",
                                       file: "src/sync.ts")
        let halted = try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(try repo.read("app.json") == expoAppJSON(version: "1.3.0", build: 14))
        #expect(try repo.git(["status", "--porcelain"]) == "?? .major-release-pending\n")
        let major = try runRelctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript([(["release"], CLIResult(halted)), (["release", "--confirm-major"], CLIResult(major))],
                         matches: "release-app/expo-major-halted-then-confirmed.txt", repo: repo,
                         sections: [(".major-release-pending", try repo.read(".major-release-pending"))])
        #expect(try repo.read("app.json") == expoAppJSON(version: "2.0.0", build: 15))
        #expect(try repo.read("package.json") == packageJSON("2.0.0"))
        try expectReleased(repo, "2.0.0", parent: breaking,
                           files: ["CHANGELOG.md", "app.json", "package.json", ".major-release-pending"])

        // The marker is in the release commit, and every following command reminds of it.
        // The files agree with each other and with the tag.
        let runs = try [["next"], ["status"], ["current"]].map { ($0, CLIResult(try runRelctl($0, in: repo.path, environment: repo.goldenEnvironment()))) }
        expectTranscript(runs, matches: "release-app/expo-after-major.txt", repo: repo)
        #expect(!runs[2].1.stdout.contains("1.3.0"), "\(runs[2].1.stdout)")
    }

    @Test func flutterPatchMinorMajorKeepsTheXcodeIndirection() throws {
        let repo = try ReleaseApp.flutter.make()
        let pbxprojPath = "ios/Runner.xcodeproj/project.pbxproj"
        let steps: [(message: String, version: String, build: Int, major: Bool)] = [
            ("fix: trail list flickers", "1.2.1", 13, false),
            ("feat(map): elevation profile", "1.3.0", 14, false),
            ("feat(api)!: v2 endpoints only", "2.0.0", 15, true),
        ]
        for (index, step) in steps.enumerated() {
            let parent = try repo.commit(step.message, file: "lib/change\(index).dart")
            let result = relctl(["release"] + (step.major ? ["--confirm-major"] : []), in: repo.path, environment: repo.goldenEnvironment())
            #expect(result.code == 0, "\(step.version): \(result.stderr)")
            #expect(result.stdout == "\(step.version)\n")
            expectTranscript(["release"] + (step.major ? ["--confirm-major"] : []), result, matches: "release-app/flutter-\(step.version).txt", repo: repo)
            #expect(try repo.read("pubspec.yaml") == pubspec.replacingOccurrences(of: "1.2.0+12", with: "\(step.version)+\(step.build)"))
            // Xcode takes its numbers from flutter build: the project is byte for byte as it was.
            #expect(try repo.read(pbxprojPath) == flutterRunnerPbxproj)
            #expect(try repo.read("CHANGELOG.md").hasPrefix("# Changelog\n\n## \(step.version) (2026-09-21)\n"))
            try expectReleased(repo, step.version, parent: parent,
                               files: ["CHANGELOG.md", "pubspec.yaml"] + (step.major ? [".major-release-pending"] : []))
        }
        #expect(try repo.read(pbxprojPath) == flutterRunnerPbxproj)
        #expect(try repo.git(["log", "--format=%H", "v1.2.0..HEAD", "--", pbxprojPath]).isEmpty)
        let status = relctl(["status"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["status"], status, matches: "release-app/flutter-status-after-major.txt", repo: repo)
    }

    @Test func storeRuleViolationFailsInPreflight() throws {
        let repo = try ReleaseApp.expo.make()
        // Google Play's maximum: the next versionCode would be above it.
        try repo.write("app.json", expoAppJSON.replacingOccurrences(of: "\"versionCode\": 12", with: "\"versionCode\": 2100000000"))
        try repo.commitAll("chore: last versionCode Google Play takes")
        try repo.commit("fix: battery drain", file: "src/gps.ts")
        let line = lineOf("versionCode", in: try repo.read("app.json"))
        let before = try repo.snapshot()
        let result = try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], CLIResult(result), matches: "release-app/store-rule-violation.txt", repo: repo)
        #expect(result.stderr.hasPrefix("error: app.json:\(line): "), "\(result.stderr)")
        #expect(try repo.snapshot() == before)
        #expect(try repo.git(["tag", "-l", "v1.2.1"]).isEmpty)
    }

    @Test func computedVersionCodeFailsInPreflight() throws {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write("package.json", packageJSON("1.2.0"))
        try repo.write("android/app/build.gradle", reactNativeGradle.replacingOccurrences(of: "versionCode 12", with: "versionCode getBuildNumber()"))
        try repo.write(".relctl.json", initStyleConfig([("package.json", "json"), ("android/app/build.gradle", "gradle")]))
        try repo.commitAll("chore: initial commit")
        try repo.tag("v1.2.0")
        try repo.commit("feat: routes", file: "src/routes.ts")
        let line = lineOf("versionCode getBuildNumber()", in: try repo.read("android/app/build.gradle"))
        let before = try repo.snapshot()
        let result = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], result, matches: "release-app/computed-version-code.txt", repo: repo)
        #expect(result.stderr.hasPrefix("error: android/app/build.gradle:\(line): versionCode is a computed value"), "\(result.stderr)")
        #expect(try repo.snapshot() == before)
        // The dry run fails exactly as the real run does: same lines on stderr, same exit code.
        let dry = relctl(["release", "--dry-run"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(dry.code == result.code)
        #expect(dry.stderr == result.stderr, "\(dry.stderr)")
        #expect(dry.stdout.isEmpty)
        #expect(try repo.snapshot() == before)
    }

    @Test(arguments: ["after-write", "after-commit", "after-tag"])
    func injectedFaultRestoresTheApp(point: String) throws {
        let repo = try ReleaseApp.expo.make()
        try repo.commit("feat!: accounts are required", file: "src/auth.ts")
        let before = try repo.snapshot()
        let failed = try runRelctl(["release", "--confirm-major"], in: repo.path,
                                   environment: repo.goldenEnvironment(["RELCTL_TEST_FAULT": point]))
        expectTranscript(["release", "--confirm-major"], CLIResult(failed), matches: "release-app/expo-fault-\(point).txt", repo: repo)
        #expect(try repo.snapshot() == before)
        #expect(try repo.read("app.json") == expoAppJSON)
        #expect(try repo.read("package.json") == packageJSON("1.2.0"))
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/CHANGELOG.md"))
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.major-release-pending"))
        #expect(try repo.git(["tag", "-l"]) == "v1.2.0\n")
        // Nothing left behind stops the next run.
        let parent = try repo.head()
        let clean = try runRelctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(clean.stdout == "2.0.0\n")
        #expect(try repo.read("app.json") == expoAppJSON(version: "2.0.0", build: 13))
        try expectReleased(repo, "2.0.0", parent: parent,
                           files: ["CHANGELOG.md", "app.json", "package.json", ".major-release-pending"])
    }

    @Test func allowDirtyCommitsOnlyTheReleaseFilesAndKeepsWhatIsStaged() throws {
        let repo = try ReleaseApp.expo.make()
        try repo.commit("fix: gps drift", file: "src/gps.ts")
        try repo.write("src/wip.ts", "export const wip = true\n")
        try repo.git(["add", "src/wip.ts"])
        try repo.write("src/gps.ts", "edited, not staged\n")
        let dirty = " M src/gps.ts\nA  src/wip.ts\n"
        #expect(try repo.git(["status", "--porcelain"]) == dirty)

        // A failed release gives the index back as it was, the staged file included.
        let before = try repo.snapshot()
        let failed = try runRelctl(["release", "--allow-dirty"], in: repo.path, environment: repo.goldenEnvironment(["RELCTL_TEST_FAULT": "after-commit"]))
        // The rollback ran, not a preflight refusal.
        expectTranscript(["release", "--allow-dirty"], CLIResult(failed), matches: "release-app/allow-dirty-fault-after-commit.txt", repo: repo)
        #expect(try repo.snapshot() == before)

        let parent = try repo.head()
        let result = try runRelctl(["release", "--allow-dirty"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "1.2.1\n")
        // "they are not committed": the release commit holds the release files only; the rest stays as it was.
        #expect(try filesOfHead(repo) == ["CHANGELOG.md", "app.json", "package.json"])
        #expect(try repo.git(["rev-parse", "HEAD^"]).trimmingCharacters(in: .newlines) == parent)
        #expect(try repo.git(["status", "--porcelain"]) == dirty)
        #expect(try repo.git(["show", "HEAD:src/gps.ts"]) != "edited, not staged\n")
    }

    @Test func dotSlashPathsInTheConfigAreCommittedByTheirRepositoryPath() throws {
        let repo = try ReleaseApp.expo.make()
        try repo.write(".relctl.json", initStyleConfig([("./app.json", "expo"), ("package.json", "json")]))
        try repo.commitAll("chore: hand-written config")
        let parent = try repo.commit("feat: trail sharing", file: "src/share.ts")
        let result = relctl(["release", "--json"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 0, "\(result.stderr)")
        let files = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])["files"]
        #expect(files as? [String] == ["app.json", "package.json", "CHANGELOG.md"], "\(result.stdout)")
        #expect(try repo.read("app.json") == expoAppJSON(version: "1.3.0", build: 13))
        try expectReleased(repo, "1.3.0", parent: parent, files: ["CHANGELOG.md", "app.json", "package.json"])

        // A file outside the repository cannot go into the release commit: the config is refused before any write.
        let outside = try makeTempDirectory(prefix: "relctl-outside")
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try expoAppJSON.write(toFile: outside + "/app.json", atomically: true, encoding: .utf8)
        let escaping = "../" + URL(fileURLWithPath: outside).lastPathComponent + "/app.json"
        try repo.write(".relctl.json", initStyleConfig([(escaping, "expo"), ("package.json", "json")]))
        try repo.commitAll("fix: point at the shared app.json")
        let before = try repo.snapshot()
        let refused = try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr == "error: .relctl.json:5: 'files[0].path' \"\(escaping)\" is outside the repository; give it relative to the repository root, like \"app.json\"\n", "\(refused.stderr)")
        #expect(try repo.snapshot() == before)
        #expect(try String(contentsOfFile: outside + "/app.json", encoding: .utf8) == expoAppJSON)
    }

    @Test func dryRunOnFlutterShowsThePlanAndChangesNothing() throws {
        let repo = try ReleaseApp.flutter.make()
        try repo.commit("feat(map): elevation profile", file: "lib/profile.dart")
        let before = try repo.snapshot()
        let result = relctl(["release", "--dry-run"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(try repo.snapshot() == before)
        // The plan: version, tag, files (no project file), the pubspec diff, the changelog section, the messages.
        expectTranscript(["release", "--dry-run"], result, matches: "release-app/flutter-dry-run.txt", repo: repo)
        let out = result.stdout
        #expect(!out.contains("project.pbxproj"))
        // The dry run printed exactly what the release then writes.
        #expect(relctl(["release"], in: repo.path, environment: repo.goldenEnvironment()).code == 0)
        #expect(try repo.read("pubspec.yaml") == pubspec.replacingOccurrences(of: "1.2.0+12", with: "1.3.0+13"))
        let section = try repo.read("CHANGELOG.md").replacingOccurrences(of: "# Changelog\n\n", with: "")
        #expect(out.components(separatedBy: "\nchangelog section:\n\n" + section).count == 2, "\(out)")
    }

    @Test func jsonOnExpoNamesTheChangedFilesAndTheCommit() throws {
        let repo = try ReleaseApp.expo.make()
        try repo.commit("feat: trail sharing", file: "src/share.ts")
        let result = try runRelctl(["release", "--json"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["files"] as? [String] == ["app.json", "package.json", "CHANGELOG.md"])
        #expect(object["version"] as? String == "1.3.0")
        #expect(object["previousVersion"] as? String == "1.2.0")
        #expect(object["bump"] as? String == "minor")
        #expect(object["tag"] as? String == "v1.3.0")
        let commit = try #require(object["commit"] as? String)
        #expect(commit.count == 40 && commit.allSatisfy(\.isHexDigit))
        #expect(commit == (try repo.head()))
        #expect(object["majorPending"] as? Bool == false)
        #expect(object["dryRun"] as? Bool == false)
        #expect(try filesOfHead(repo) == (object["files"] as? [String] ?? []).sorted())

        // A major lists the marker too, and says the decision is pending.
        try repo.commit("fix!: drop iOS 15", file: "src/platform.ts")
        let major = try runRelctl(["release", "--json", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(major.status == 0, "\(major.stderr)")
        let majorObject = try #require(try JSONSerialization.jsonObject(with: Data(major.stdout.utf8)) as? [String: Any])
        #expect(majorObject["files"] as? [String] == ["app.json", "package.json", "CHANGELOG.md", ".major-release-pending"])
        #expect(majorObject["version"] as? String == "2.0.0")
        #expect(majorObject["bump"] as? String == "major")
        #expect(majorObject["commit"] as? String == (try repo.head()))
        #expect(majorObject["majorPending"] as? Bool == true)
        #expect(try filesOfHead(repo) == (majorObject["files"] as? [String] ?? []).sorted())
    }
}

@Suite("relctl release in a sparse checkout")
struct SparseCheckoutReleaseTests {
    @Test func filesKeptOutOfTheWorkTreeAreNotUncommittedChanges() throws {
        let repo = try ReleaseApp.expo.make()
        try repo.write("website/index.html", "<html></html>\n")
        try repo.write("docs/guide.md", "# guide\n")
        try repo.commitAll("docs: site and guide")
        try repo.commit("feat: dark mode", file: "src/theme.ts")
        try repo.git(["sparse-checkout", "set", "--no-cone", "/*", "!/website/", "!/docs/"])
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/website/index.html"))
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)

        let result = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == "1.3.0\n")
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
        // The release commit holds the release files only; the sparse files are still in the tree.
        #expect(try repo.git(["show", "--name-only", "--format=", "HEAD"]) == "CHANGELOG.md\napp.json\npackage.json\n")
        #expect(try repo.git(["ls-tree", "-r", "--name-only", "HEAD", "website", "docs"]) == "docs/guide.md\nwebsite/index.html\n")
    }
}
