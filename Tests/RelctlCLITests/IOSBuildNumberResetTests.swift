import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// Found on a real Expo app: its iOS build numbers were started again at a new version (1.6.0 had been built as
/// 5.6.0.2; from 1.6.1 on, builds are named after the version, 1.7.0.4). App Store Connect compares build numbers
/// within one version, so that is allowed, and the files at the later version hold what the stores took. The
/// increment strategy took the old tag's 5.6.0.2 as the highest build "any release holds", refused it as a
/// four-part number while naming the file's line (which holds 1.7.0.4), and advised `--build 5.6.1`: back to the
/// abandoned numbering. A tag below the version the files hold no longer raises the iOS build; Android's
/// versionCode, which Google Play compares across every version, still counts from every tag.
@Suite("iOS build numbers started again at a new version")
struct IOSBuildNumberResetTests {
    /// An Expo app.json holding the version, the iOS build and (when given) the Android versionCode.
    static func appJSON(_ version: String, ios: String, android: Int? = nil) -> String {
        let androidPart = android.map { ",\n    \"android\": {\n      \"package\": \"org.example.harbour\",\n      \"versionCode\": \($0)\n    }" } ?? ""
        return """
            {
              "expo": {
                "name": "Harbour",
                "slug": "harbour",
                "version": "\(version)",
                "ios": {
                  "bundleIdentifier": "org.example.harbour",
                  "buildNumber": "\(ios)"
                }\(androidPart)
              }
            }

            """
    }

    /// Releases, each committed and tagged, as (version, iOS build, Android versionCode); then a feature.
    static func app(_ releases: [(String, String, Int?)]) throws -> TestRepository {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write(".relctl.json", #"{"files": [{"path": "app.json", "format": "expo"}], "changelog": false}"# + "\n")
        for (version, ios, android) in releases {
            try repo.write("app.json", appJSON(version, ios: ios, android: android))
            try repo.commitAll("chore(release): \(version)")
            try repo.tag("v\(version)")
        }
        try repo.commit("feat(tides): weekly view", file: "src/tides.ts")
        return repo
    }

    @Test func anOlderVersionsHigherIOSBuildDoesNotCount() throws {
        let repo = try Self.app([("1.5.0", "55", nil), ("1.6.0", "3", nil)])
        let sync = relctl(["sync", "1.7.0", "--dry-run"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("+      \"buildNumber\": \"4\"\n"), "\(sync.stdout)")
        #expect(!sync.stderr.contains("build numbers go on"), "\(sync.stderr)")

        let released = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(try repo.read("app.json") == Self.appJSON("1.7.0", ios: "4"))
    }

    @Test func aFourPartBuildIsNamedWhereItIsWithTheFixFromIt() throws {
        let repo = try Self.app([("1.5.0", "5.5.0.2", nil), ("1.6.0", "1.6.0.4", nil)])
        let before = try repo.snapshot()
        let plan = relctl(["release", "--dry-run"], in: repo.path, environment: fixedDate)
        #expect(plan.code == 1)
        #expect(plan.stderr.hasPrefix("error: app.json:8: iOS build number \"1.6.0.4\" has 4 parts;"), "\(plan.stderr)")
        #expect(plan.stderr.contains("--build 1.6.1"), "\(plan.stderr)")
        #expect(!plan.stderr.contains("5.5"), "\(plan.stderr)")
        // Following the advice releases.
        let released = relctl(["release", "--build", "1.6.1"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(try repo.read("app.json") == Self.appJSON("1.7.0", ios: "1.6.1"))
        #expect(try repo.snapshot() != before)
    }

    /// Android is one space across every version: an older tag's higher versionCode still counts.
    @Test func anOlderVersionsHigherVersionCodeStillCounts() throws {
        let repo = try Self.app([("1.5.0", "55", 55), ("1.6.0", "3", 3)])
        try repo.write(".relctl.json", #"{"files": [{"path": "app.json", "format": "expo"}], "changelog": false, "buildNumber": {"shared": false}}"# + "\n")
        try repo.commitAll("chore: count each store on its own")
        let released = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(try repo.read("app.json") == Self.appJSON("1.7.0", ios: "4", android: 56))
    }
}
