import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// The dry run is the command a release engineer trusts before a release: its diff must be exactly what the
// real run writes. Each test prints the dry-run diff, applies it with `git apply` (which checks every context
// line), then undoes it, runs the real command, and compares the bytes.

/// A version file of one format, taken from the editors' golden fixtures, with the config entry that syncs it.
struct DryRunCase: CustomTestStringConvertible, Sendable {
    let fixture: String
    let path: String
    let entry: String

    var testDescription: String { fixture }

    init(_ fixture: String, _ path: String, _ entry: String) {
        (self.fixture, self.path, self.entry) = (fixture, path, entry)
    }

    static let all: [DryRunCase] = [
        DryRunCase("expo/managed-json5", "app.json", #""format": "expo""#),
        DryRunCase("expo/number-build-no-final-newline", "app.json", #""format": "expo""#),
        DryRunCase("json/package", "package.json", #""format": "json""#),
        DryRunCase("expo-js/literals", "app.config.js", #""format": "expo-js""#),
        DryRunCase("pbxproj/react-native", "ios/App.xcodeproj/project.pbxproj", #""format": "pbxproj""#),
        DryRunCase("pbxproj/native-two-apps-extension", "Orbit.xcodeproj/project.pbxproj", #""format": "pbxproj""#),
        DryRunCase("plist/literal-crlf-no-final-newline", "ios/App/Info.plist", #""format": "plist""#),
        DryRunCase("xcconfig/build", "Config/Version.xcconfig", #""format": "xcconfig""#),
        DryRunCase("gradle/groovy-comment-and-flavors", "android/app/build.gradle", #""format": "gradle""#),
        DryRunCase("gradle/kotlin-trailing-comment", "android/app/build.gradle.kts", #""format": "gradle""#),
        DryRunCase("gradle/groovy-crlf-no-final-newline", "android/app/build.gradle", #""format": "gradle""#),
        DryRunCase("properties/app-version", "android/gradle.properties",
                   #""format": "properties", "versionNameKey": "APP_VERSION_NAME", "versionCodeKey": "APP_VERSION_CODE""#),
        DryRunCase("pubspec/anchor", "pubspec.yaml", #""format": "pubspec""#),
        DryRunCase("pubspec/zero-padded", "pubspec.yaml", #""format": "pubspec", "padBuildNumber": true"#),
        DryRunCase("regex/swift-constant", "Sources/App/Version.swift",
                   #""format": "regex", "pattern": "static let version = \"(?<version>[0-9.]+)\"""#),
    ]
}

enum GoldenFixtures {
    static let root = FixtureFiles.root

    static func bytes(_ name: String) throws -> Data {
        try FixtureFiles.data(name + ".before")
    }
}

extension TestRepository {
    /// The bytes of every file below the work tree (not `.git`), by relative path.
    func files() throws -> [String: Data] {
        try fileTree(at: path, skipping: [".git"])
    }

    /// Applies a patch with `git apply` (every context line checked) and returns the resulting files; then
    /// puts the work tree back as it was.
    func filesAfterApplying(_ patch: String) throws -> [String: Data] {
        try git(["apply", "--check", "--whitespace=nowarn", "-"], input: patch)
        try git(["apply", "--whitespace=nowarn", "-"], input: patch)
        let patched = try files()
        try git(["checkout", "--", "."])
        try git(["clean", "-fdq"])
        return patched
    }
}

/// The diffs of a `release --dry-run` text: from the first `diff --git` to the changelog section.
func diffPart(ofReleaseDryRun text: String) -> String {
    guard let start = text.range(of: "diff --git ") else { return "" }
    let rest = text[start.lowerBound...]
    let end = rest.range(of: "\nchangelog section:")?.lowerBound ?? rest.range(of: "\ncommit message:")?.lowerBound ?? rest.endIndex
    return String(rest[..<end])
}

@Suite("The dry-run diff is exactly what the real run writes")
struct DryRunDiffTests {
    @Test(arguments: DryRunCase.all)
    func syncDryRunAppliesToTheBytesSyncWrites(_ c: DryRunCase) throws {
        let repo = try TestRepository()
        try repo.write(c.path, "")
        try GoldenFixtures.bytes(c.fixture).write(to: URL(fileURLWithPath: repo.path + "/" + c.path))
        try repo.write(".relctl.json", "{\n  \"files\": [ { \"path\": \"\(c.path)\", \(c.entry) } ],\n  \"buildNumber\": { \"maxJump\": 0 }\n}\n")
        try repo.commitAll("chore: app")

        let arguments = ["sync", "41.2.0", "--build", "700000"]
        let dry = relctl(arguments + ["--dry-run"], in: repo.path)
        #expect(dry.code == 0, "\(dry.stderr)")
        #expect(dry.stdout.hasPrefix("diff --git a/\(c.path) b/\(c.path)\n"), "\(dry.stdout)")
        #expect(!dry.stdout.contains("\0"))
        let patched = try repo.filesAfterApplying(dry.stdout)

        let real = relctl(arguments, in: repo.path)
        #expect(real.code == 0, "\(real.stderr)")
        let written = try repo.files()
        #expect(written[c.path] != (try GoldenFixtures.bytes(c.fixture)), "the real run changed nothing")
        #expect(patched == written, "the dry-run diff of \(c.path) does not give the bytes sync writes")
    }

    @Test func releaseDryRunShowsEveryFileIncludingNewOnesExactly() throws {
        // An Expo + Xcode + Gradle app with no changelog yet, released with a breaking change: the dry run
        // shows the version files, the new CHANGELOG.md and the new .major-release-pending.
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write("app.json", expoAppJSON)
        try repo.write("package.json", packageJSON("1.2.0"))
        try repo.write("ios/App.xcodeproj/project.pbxproj", pbxproj(marketing: "1.2.0", build: "12"))
        try repo.write("android/app/build.gradle", reactNativeGradle)
        try repo.write(".relctl.json", "{\n  \"onMajor\": \"warn\",\n  \"files\": [\n"
                       + "    {\"path\": \"app.json\", \"format\": \"expo\"},\n"
                       + "    {\"path\": \"package.json\", \"format\": \"json\"},\n"
                       + "    {\"path\": \"ios/App.xcodeproj/project.pbxproj\", \"format\": \"pbxproj\"},\n"
                       + "    {\"path\": \"android/app/build.gradle\", \"format\": \"gradle\"}\n  ]\n}\n")
        try repo.commitAll("chore: initial commit")
        try repo.tag("v1.2.0")
        try repo.commit("feat!: drop the v1 sync API\n\nBREAKING CHANGE: old builds cannot sync")
        try repo.commit("fix: crash on start")
        let environment = ["SOURCE_DATE_EPOCH": "1767225600"]

        let dry = relctl(["release", "--dry-run"], in: repo.path, environment: environment)
        #expect(dry.code == 0, "\(dry.stderr)")
        let diff = diffPart(ofReleaseDryRun: dry.stdout)
        for file in ["app.json", "package.json", "ios/App.xcodeproj/project.pbxproj", "android/app/build.gradle"] {
            #expect(diff.contains("diff --git a/\(file) b/\(file)\n--- a/\(file)\n"), "\(diff)")
        }
        for file in ["CHANGELOG.md", MajorReleaseMarker.fileName] {
            #expect(diff.contains("diff --git a/\(file) b/\(file)\nnew file mode 100644\n--- /dev/null\n+++ b/\(file)\n"), "\(diff)")
        }
        let head = try repo.head()
        let patched = try repo.filesAfterApplying(diff)

        let real = relctl(["release"], in: repo.path, environment: environment)
        #expect(real.code == 0, "\(real.stderr)")
        #expect(try repo.head() != head)
        let written = try repo.files()
        #expect(Set(patched.keys) == Set(written.keys))
        for (path, bytes) in written {
            #expect(patched[path] == bytes, "\(path): the dry-run diff does not give what the release wrote")
        }
    }

    @Test func releaseDryRunOnAnExistingChangelogIsAPureInsertion() throws {
        let repo = try ReleaseApp.expo.make()
        try repo.write("CHANGELOG.md", "# Changelog\r\n\r\n## 1.2.0\r\n\r\n- first\r\n")
        try repo.commitAll("docs: changelog")
        try repo.commit("feat: dark mode")
        let environment = ["SOURCE_DATE_EPOCH": "1767225600"]
        let dry = relctl(["release", "--dry-run"], in: repo.path, environment: environment)
        #expect(dry.code == 0, "\(dry.stderr)")
        let diff = diffPart(ofReleaseDryRun: dry.stdout)
        let changelogDiff = String(diff[diff.range(of: "diff --git a/CHANGELOG.md")!.lowerBound...])
        #expect(!changelogDiff.split(separator: "\n").contains { $0.hasPrefix("-") && !$0.hasPrefix("---") },
                "prepending a section removes no line: \(changelogDiff)")
        let patched = try repo.filesAfterApplying(diff)
        #expect(relctl(["release"], in: repo.path, environment: environment).code == 0)
        #expect(try repo.files() == patched)
    }
}

@Suite("The dry-run diff of a Keep a Changelog file is what the release writes")
struct KeepAChangelogDryRunDiffTests {
    /// With links (an edited definition, a new one), CRLF with a byte-order mark and no final newline, GitLab links.
    @Test(arguments: ["github-links", "crlf-bom-no-final-newline", "gitlab", "first-release-section"])
    func releaseDryRunAppliesToTheBytesReleaseWrites(_ fixture: String) throws {
        let repo = try ReleaseApp.expo.make()
        try repo.git(["remote", "add", "origin", "git@github.com:acme/trail.git"])
        try Data(contentsOf: GoldenFixtures.root.appendingPathComponent("keep-a-changelog/\(fixture).before"))
            .write(to: URL(fileURLWithPath: repo.path + "/CHANGELOG.md"))
        try repo.commitAll("docs: changelog")
        try repo.commit("feat(ui): dark mode", file: "src/theme.ts")
        try repo.commit("fix(sync): retry after a timeout", file: "src/sync.ts")
        let environment = ["SOURCE_DATE_EPOCH": "1796040000"]

        let dry = relctl(["release", "--dry-run"], in: repo.path, environment: environment)
        #expect(dry.code == 0, "\(dry.stderr)")
        let diff = diffPart(ofReleaseDryRun: dry.stdout)
        let changelogDiff = String(diff[try #require(diff.range(of: "diff --git a/CHANGELOG.md"))!.lowerBound...])
        if fixture != "crlf-bom-no-final-newline" {
            #expect(changelogDiff.contains("-[unreleased]: ") || changelogDiff.contains("-[Unreleased]: "), "\(changelogDiff)")
        }
        #expect(changelogDiff.contains("+## [1.3.0] - 2026-11-30") || changelogDiff.contains("+## [v1.3.0] - 2026-11-30"), "\(changelogDiff)")
        let patched = try repo.filesAfterApplying(diff)

        let real = relctl(["release"], in: repo.path, environment: environment)
        #expect(real.code == 0, "\(real.stderr)")
        let written = try repo.files()
        #expect(written["CHANGELOG.md"] != (try Data(contentsOf: GoldenFixtures.root.appendingPathComponent("keep-a-changelog/\(fixture).before"))))
        #expect(patched == written, "the dry-run diff of CHANGELOG.md does not give the bytes the release writes")
    }
}
