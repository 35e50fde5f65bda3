import Foundation
import Testing
import RelctlTestSupport
import RelctlCore
@testable import RelctlCLI

// Calendar-versioned apps: the release date (SOURCE_DATE_EPOCH, UTC) and the commits decide the next version;
// the number of components is the scheme's; a product suffix in tagFormat is not a prerelease.

let august31 = ["SOURCE_DATE_EPOCH": "1788177600"]   // 2026-08-31
let september1 = ["SOURCE_DATE_EPOCH": "1788264000"]  // 2026-09-01

/// A Gradle file of an app at `version` with versionCode `code`.
func calendarGradle(_ version: String, code: Int) -> String {
    reactNativeGradle.replacingOccurrences(of: "versionCode 12", with: "versionCode \(code)")
        .replacingOccurrences(of: "\"1.2.0\"", with: "\"\(version)\"")
}

/// An Expo-style app at `version` with `versionScheme`, released as `tag`.
func calendarApp(_ version: String, scheme: String, tag: String, tagFormat: String = "v{version}") throws -> TestRepository {
    let repo = try TestRepository()
    try repo.git(["config", "user.name", "Release Bot"])
    try repo.git(["config", "user.email", "bot@example.com"])
    try repo.write("app.json", expoAppJSON(version: version, build: 30))
    try repo.write("android/app/build.gradle", calendarGradle(version, code: 30))
    try writeConfig(repo, files: [("app.json", "expo"), ("android/app/build.gradle", "gradle")],
                    extra: "\"versionScheme\": \"\(scheme)\",\n  \"tagFormat\": \"\(tagFormat)\"")
    try repo.commitAll("chore: initial commit")
    try repo.tag(tag)
    return repo
}

@Suite("calendar versions")
struct CalendarVersionTests {
    @Test func twoPartMonthlyVersionsKeepTwoParts() throws {
        let repo = try calendarApp("2026.8", scheme: "YYYY.M", tag: "v2026.8")
        try repo.commit("feat: offline maps", file: "a.txt")

        // Still August: the scheme has no counter, so there is no number for a second release this month.
        let reason = "2026.8 is already released for this month (2026-08-31, UTC) and versionScheme \"YYYY.M\" has no counter; add .MICRO to versionScheme in .relctl.json to release more than once a month, or release next month"
        let next = relctl(["next"], in: repo.path, environment: august31)
        #expect(next.code == 0)
        #expect(next.stdout.isEmpty)
        #expect(next.stderr == reason + "\n", "\(next.stderr)")
        let before = try repo.snapshot()
        let refused = relctl(["release"], in: repo.path, environment: august31)
        #expect(refused.code == 1)
        #expect(refused.stderr == "error: \(reason)\n", "\(refused.stderr)")
        #expect(try repo.snapshot() == before)

        // September: 2026.9, two parts, never 2026.9.0.
        #expect(relctl(["next"], in: repo.path, environment: september1).stdout == "2026.9\n")
        let head = try repo.head()
        let released = relctl(["release"], in: repo.path, environment: september1)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "2026.9\n")
        try expectReleased(repo, "2026.9", parent: head, files: ["CHANGELOG.md", "app.json", "android/app/build.gradle"])
        #expect(try repo.read("app.json") == expoAppJSON(version: "2026.9", build: 31))
        #expect(try repo.read("android/app/build.gradle") == calendarGradle("2026.9", code: 31))
        #expect(try repo.read("CHANGELOG.md").hasPrefix("# Changelog\n\n## 2026.9 (2026-09-01)\n"))
    }

    @Test func threePartVersionsWithAProductSuffixCountWithinTheMonth() throws {
        let repo = try calendarApp("2026.8.0", scheme: "YYYY.M.MICRO", tag: "v2026.8.0-bwpm", tagFormat: "v{version}-bwpm")
        // A beta of this product and a release of another product (no suffix) are not the base.
        try repo.commit("fix: sync", file: "a.txt")
        try repo.tag("v2026.8.1-beta.1-bwpm")
        try repo.tag("v2026.9.0", annotated: false)
        try repo.commit("fix: login", file: "a.txt")

        let json = relctl(["next", "--json"], in: repo.path, environment: august31)
        #expect(json.stdout.hasPrefix(#"{"schemaVersion":1,"current":"2026.8.0","next":"2026.8.1","bump":"patch","baseTag":"v2026.8.0-bwpm","#), "\(json.stdout)")
        let head = try repo.head()
        let released = relctl(["release"], in: repo.path, environment: august31)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "2026.8.1\n")
        #expect(try repo.git(["rev-parse", "v2026.8.1-bwpm^{commit}"]).trimmingCharacters(in: .newlines) == (try repo.head()))
        #expect(try repo.git(["rev-parse", "HEAD^"]).trimmingCharacters(in: .newlines) == head)
        #expect(try repo.read("app.json") == expoAppJSON(version: "2026.8.1", build: 31))

        // A new month starts the counter again.
        try repo.commit("feat: widgets", file: "b.txt")
        #expect(relctl(["next"], in: repo.path, environment: fixedDate).stdout == "2026.9.0\n")   // 2026-09-21
    }

    @Test func aBreakingChangeIsStillAMajorReleaseForTheGate() throws {
        let repo = try calendarApp("2026.8.0", scheme: "YYYY.M.MICRO", tag: "v2026.8.0")
        try repo.commit("feat!: drop the v1 API", file: "a.txt")
        let arguments = ["release", "--json", "--confirm-major"]
        let released = relctl(arguments, in: repo.path, environment: repo.goldenEnvironment(august31))
        #expect(released.code == 0, "\(released.stderr)")
        // 2026.8.1 is a major release (bump major) with its banner, and the marker holds 2026.8.1.
        let marker = [(title: ".major-release-pending", text: try repo.read(".major-release-pending"))]
        expectTranscript(arguments, released, matches: "release/calendar-breaking-change-is-major.txt", repo: repo, sections: marker)
    }

    @Test func syncAndAdoptUseTheScheme() throws {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write("android/app/build.gradle", calendarGradle("2024.11", code: 7))
        try writeConfig(repo, files: [("android/app/build.gradle", "gradle")], extra: "\"versionScheme\": \"YYYY.0M\"")
        try repo.commitAll("chore: initial commit")

        // The padding is the scheme's: 2024.11 parses, 2024.1 does not (0M).
        let bad = relctl(["sync", "2025.1"], in: repo.path)
        #expect(bad.code == 1)
        #expect(bad.stderr == "error: '2025.1' is not a version of versionScheme \"YYYY.0M\"; pass one such as 2024.03\n", "\(bad.stderr)")
        let lower = relctl(["sync", "2024.10"], in: repo.path)
        #expect(lower.code == 1)
        #expect(lower.stderr.hasPrefix("error: android/app/build.gradle:10: 2024.10 is lower than 2024.11"))
        #expect(relctl(["sync", "2024.12"], in: repo.path).code == 0)
        #expect(try repo.read("android/app/build.gradle") == calendarGradle("2024.12", code: 8))
        try repo.commitAll("chore: 2024.12")
        try repo.commit("fix: a", file: "a.txt")

        let adopted = relctl(["adopt"], in: repo.path)
        #expect(adopted.code == 0, "\(adopted.stderr)")
        #expect(adopted.stdout.contains("tag:      v2024.12 (annotated)"))
        #expect(adopted.stdout.hasSuffix("after it: 1 commit; the next release counts only those: \(currentMonthVersion()) (patch)\n"), "\(adopted.stdout)")
        #expect(relctl(["next"], in: repo.path, environment: september1).stdout == "2026.09\n")
    }

    @Test func aSchemeWithMoreThanThreePartsIsRefusedForIOSFiles() throws {
        let repo = try TestRepository()
        try repo.write("app.json", expoAppJSON(version: "2026.8.31.0", build: 3))
        try writeConfig(repo, files: [("app.json", "expo")], extra: "\"versionScheme\": \"YYYY.M.D.MICRO\"")
        try repo.commitAll("chore: initial commit")
        let refused = relctl(["next"], in: repo.path)
        #expect(refused.code == 1)
        #expect(refused.stderr == "error: .relctl.json:5: 'versionScheme' \"YYYY.M.D.MICRO\" has 4 components, but app.json is an iOS file and App Store Connect accepts at most three in CFBundleShortVersionString (ITMS-90060); use three, e.g. \"YYYY.M.D\"\n", "\(refused.stderr)")
        try writeConfig(repo, files: [("app.json", "expo")], extra: "\"versionScheme\": \"YYYY.Q\"")
        let unknown = relctl(["next"], in: repo.path)
        #expect(unknown.stderr.hasPrefix("error: .relctl.json:5: 'versionScheme' is not a scheme relctl knows: calendar scheme \"YYYY.Q\" has an unknown token \"Q\""), "\(unknown.stderr)")
    }
}

/// The `YYYY.0M` version of today (adopt previews the next release with the real date).
func currentMonthVersion() -> String {
    let date = CalendarDate(epochSeconds: Int64(Date().timeIntervalSince1970))
    return "\(date.year).\(date.month < 10 ? "0" : "")\(date.month)"
}
