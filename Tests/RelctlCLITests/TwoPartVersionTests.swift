import Foundation
import Testing
import RelctlTestSupport
import RelctlCore
@testable import RelctlCLI

// Apps numbered in two parts (`8.19`, `29.0`): versionScheme "major.minor" keeps two numbers in the files and the
// tags, bumps by the commits (a feat or a fix: 8.20, a breaking change: 9.0), and writes a prerelease the way the
// team's tags spell it (`8.20-rc-2`).

/// An Android app's build.gradle at `version` and versionCode `code`.
func twoPartGradle(_ version: String, code: Int) -> String {
    "android {\n    defaultConfig {\n        versionCode \(code)\n        versionName \"\(version)\"\n    }\n}\n"
}

/// An Android app at `version` (tagged `v<version>`), numbered by `scheme` (nil: no versionScheme key).
func twoPartApp(_ version: String, code: Int = 40, scheme: String? = "major.minor") throws -> TestRepository {
    let repo = try appRepository(["app/build.gradle": twoPartGradle(version, code: code)], entries: [])
    try writeConfig(repo, files: [("app/build.gradle", "gradle")],
                    extra: (scheme.map { "\"versionScheme\": \"\($0)\",\n  " } ?? "") + "\"changelog\": false")
    try repo.commitAll("chore: relctl")
    try repo.tag("v\(version)")
    return repo
}

@Suite("two-part versions")
struct TwoPartVersionTests {
    @Test func aFixAndAFeatMoveTheMinorABreakingChangeTheMajor() throws {
        let repo = try twoPartApp("8.19")
        try repo.commit("fix: crash on start", file: "a.txt")
        #expect(relctl(["next"], in: repo.path).stdout == "8.20\n")
        try repo.commit("feat: offline mode", file: "b.txt")
        let json = relctl(["next", "--json"], in: repo.path)
        #expect(json.stdout.hasPrefix(#"{"schemaVersion":1,"current":"8.19","next":"8.20","bump":"minor","baseTag":"v8.19","#), "\(json.stdout)")

        let released = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "8.20\n")
        #expect(try repo.read("app/build.gradle") == twoPartGradle("8.20", code: 41))
        #expect(try repo.git(["tag", "--points-at", "HEAD"]) == "v8.20\n")

        try repo.commit("feat!: new sync protocol", file: "c.txt")
        #expect(relctl(["next"], in: repo.path).stdout == "9.0\n")
    }

    @Test func syncTakesTwoPartsAndRefusesThree() throws {
        let repo = try twoPartApp("29.0")
        let synced = relctl(["sync", "29.1"], in: repo.path)
        #expect(synced.code == 0, "\(synced.stderr)")
        #expect(try repo.read("app/build.gradle") == twoPartGradle("29.1", code: 41))
        let before = try repo.snapshot()
        let three = relctl(["sync", "29.2.0"], in: repo.path)
        #expect(three.code == 1)
        #expect(three.stderr == "error: '29.2.0' is not a version of versionScheme \"major.minor\"; pass MAJOR.MINOR such as 1.3, or a prerelease such as 1.3-rc.1\n", "\(three.stderr)")
        #expect(try repo.snapshot() == before)
    }

    /// The team's rc tags are spelled `8.20-rc-1`: the next one is `8.20-rc-2`, never `8.20-rc.2`.
    @Test func aPrereleaseIsSpelledAsTheTeamsTags() throws {
        let repo = try twoPartApp("8.19")
        try repo.commit("feat: widgets", file: "a.txt")
        try repo.tag("v8.20-rc-1")
        try repo.commit("fix: widget size", file: "a.txt")
        #expect(relctl(["next", "--prerelease", "rc"], in: repo.path).stdout == "8.20-rc-2\n")
        let released = relctl(["release", "--prerelease", "rc"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "8.20-rc-2\n")
        #expect(try repo.git(["tag", "--points-at", "HEAD"]) == "v8.20-rc-2\n")
        // The final release follows its release candidates.
        #expect(relctl(["next"], in: repo.path).stdout == "8.20\n")
    }

    @Test func withoutATagTheDottedSpellingAndTheInitialVersionInTwoParts() throws {
        let repo = try appRepository(["app/build.gradle": twoPartGradle("1.0", code: 1)], entries: [])
        try writeConfig(repo, files: [("app/build.gradle", "gradle")], extra: "\"versionScheme\": \"major.minor\",\n  \"changelog\": false")
        try repo.commitAll("feat: first screen")
        #expect(relctl(["next"], in: repo.path).stdout == "1.0\n")
        #expect(relctl(["next", "--prerelease", "beta"], in: repo.path).stdout == "1.0-beta.1\n")
    }

    /// semver on two-part tags: the advice names the scheme, and following it releases from the last tag.
    @Test func theAdviceForTwoPartTagsIsTheSchemeAndFollowingItWorks() throws {
        let repo = try twoPartApp("8.19", scheme: nil)
        try repo.commit("fix: crash", file: "a.txt")
        let problem = "app/build.gradle:4: the next version 1.0.0 is lower than 8.19, the version this file holds, and the stores refuse a version below the last one; tags v8.19 are not versions of versionScheme semver (MAJOR.MINOR.PATCH such as 1.3.0): if the app numbers its versions that way, set \"versionScheme\": \"major.minor\" in .relctl.json (MAJOR.MINOR such as 1.3) and commit it, so releases continue from v8.19"
        let next = relctl(["next"], in: repo.path)
        #expect(next.stderr == "warning: \(problem); 'relctl release' will refuse it\n", "\(next.stderr)")
        try expectReleaseRefused(repo, contains: problem)
        // Followed: the release continues from v8.19 in two parts.
        try writeConfig(repo, files: [("app/build.gradle", "gradle")], extra: "\"versionScheme\": \"major.minor\",\n  \"changelog\": false")
        try repo.commitAll("chore: two-part versions")
        let released = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "8.20\n")
    }

    /// Calendar tags under semver: the advice names the calendar scheme, and following it releases by date.
    @Test func theAdviceForCalendarTagsIsTheirSchemeAndFollowingItWorks() throws {
        let repo = try appRepository(["package.json": "{\n  \"name\": \"tides\",\n  \"version\": \"2024.11\"\n}\n"], entries: [])
        try writeConfig(repo, files: [("package.json", "json")], extra: "\"changelog\": false")
        try repo.commitAll("chore: relctl")
        try repo.tag("v2024.11")
        try repo.commit("feat: tide tables", file: "a.txt")
        let problem = "package.json:3: the next version 1.0.0 is lower than 2024.11, the version this file holds, and the stores refuse a version below the last one; tags v2024.11 are not versions of versionScheme semver (MAJOR.MINOR.PATCH such as 1.3.0): if the app numbers its versions that way, set \"versionScheme\": \"YYYY.M\" in .relctl.json (YYYY.M such as 2024.3) and commit it, so releases continue from v2024.11"
        #expect(relctl(["next"], in: repo.path, environment: fixedDate).stderr == "warning: \(problem); 'relctl release' will refuse it\n")
        try expectReleaseRefused(repo, contains: problem)
        try writeConfig(repo, files: [("package.json", "json")], extra: "\"versionScheme\": \"YYYY.M\",\n  \"changelog\": false")
        try repo.commitAll("chore: calendar versions")
        let released = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "2026.9\n")
    }

    @Test func adoptAdvisesTheSchemeAndFollowingItAdopts() throws {
        let repo = try appRepository(["app/build.gradle": twoPartGradle("8.19", code: 40)], entries: [("app/build.gradle", "gradle")])
        let refused = relctl(["adopt"], in: repo.path)
        #expect(refused.stderr == "error: app/build.gradle:4: 8.19 is not a version of versionScheme semver (MAJOR.MINOR.PATCH such as 1.3.0); if the app numbers versions in two parts, set \"versionScheme\": \"major.minor\" in .relctl.json, commit it, and run relctl adopt again\n", "\(refused.stderr)")
        try writeConfig(repo, files: [("app/build.gradle", "gradle")], extra: "\"versionScheme\": \"major.minor\"")
        try repo.commitAll("chore: two-part versions")
        let adopted = relctl(["adopt"], in: repo.path)
        #expect(adopted.code == 0, "\(adopted.stderr)")
        #expect(try repo.git(["tag"]) == "v8.19\n")
        try repo.commit("fix: crash", file: "a.txt")
        #expect(relctl(["next"], in: repo.path).stdout == "8.20\n")
    }

    @Test func anInitialVersionInTwoParts() throws {
        let repo = try appRepository(["app/build.gradle": twoPartGradle("0.1", code: 1)], entries: [])
        try writeConfig(repo, files: [("app/build.gradle", "gradle")], extra: "\"versionScheme\": \"major.minor\",\n  \"initialVersion\": \"0.1\"")
        try repo.commitAll("feat: first screen")
        #expect(relctl(["next"], in: repo.path).stdout == "0.1\n")
    }

    @Test func aConfigWithAnUnknownSchemeNamesMajorMinor() throws {
        let repo = try appRepository(["app/build.gradle": twoPartGradle("8.19", code: 40)], entries: [])
        try writeConfig(repo, files: [("app/build.gradle", "gradle")], extra: "\"versionScheme\": \"major-minor\"")
        let (next, nextTranscript) = goldenRun(repo, ["next"])
        #expect(next.code == 1)
        Golden.expect(nextTranscript, matches: "errors/unknown-version-scheme.txt")
    }
}

@Suite("init proposes the version scheme")
struct SchemeGuessTests {
    @Test func aTwoPartAppGetsMajorMinorAndReleasesRightAway() throws {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write("app/build.gradle", "plugins { id 'com.android.application' }\n" + twoPartGradle("24.0", code: 240))
        try repo.commitAll("chore: 24.0")
        try repo.tag("v24.0")
        try repo.commit("fix: crash", file: "a.txt")
        let (initialised, initialisedTranscript) = goldenRun(repo, ["init"])
        #expect(initialised.code == 0, "\(initialised.stderr)")
        Golden.expect(initialisedTranscript, matches: "init/scheme-two-part.txt")
        let config = try repo.read(".relctl.json")
        #expect(config.hasPrefix("{\n  \"tagFormat\": \"v{version}\",\n  \"versionScheme\": \"major.minor\",\n  \"files\": ["), "\(config)")
        #expect(relctl(["next"], in: repo.path).stdout == "24.1\n")
    }

    @Test func aCalendarAppGetsItsTokens() throws {
        let repo = try TestRepository()
        try repo.write("package.json", "{\n  \"name\": \"tides\",\n  \"version\": \"2024.11\"\n}\n")
        try repo.commitAll("chore: 2024.11")
        try repo.tag("2024.11", annotated: false)
        try repo.tag("2024.09", annotated: false)
        let (initialised, initialisedTranscript) = goldenRun(repo, ["init"])
        #expect(initialised.code == 0, "\(initialised.stderr)")
        let config = try repo.read(".relctl.json")
        #expect(config.hasPrefix("{\n  \"tagFormat\": \"{version}\",\n  \"versionScheme\": \"YYYY.0M\",\n"), "\(config)")
        Golden.expect(initialisedTranscript, matches: "init/scheme-calendar.txt")
        // Not "the next version 1.0.0 is lower than 2024.11": the date numbers the next release.
        try repo.commitAll("chore: relctl config")
        try repo.commit("feat: tide tables", file: "a.txt")
        let next = relctl(["next"], in: repo.path, environment: fixedDate)
        #expect(next.stdout == "2026.09\n", "\(next.stderr)")
        #expect(next.stderr.isEmpty, "\(next.stderr)")
    }

    @Test func tagsCarryingTheBuildGetTheirFormatFromInit() throws {
        let repo = try buildTagApp(format: "v{version}", [("1.6.0", "3", "v1.6.0.3"), ("1.7.0", "4", "v1.7.0.4")])
        try repo.git(["rm", "-q", ".relctl.json"])
        try repo.commitAll("chore: no config")
        let (initialised, initialisedTranscript) = goldenRun(repo, ["init"])
        #expect(initialised.code == 0, "\(initialised.stderr)")
        Golden.expect(initialisedTranscript, matches: "init/scheme-tags-carry-the-build.txt")
        try repo.commitAll("chore: relctl config")
        #expect(relctl(["next"], in: repo.path).stdout == "1.8.0\n")
    }

    @Test func aSemverAppGetsNoSchemeKey() throws {
        let repo = try TestRepository()
        try repo.write("package.json", "{\n  \"name\": \"tides\",\n  \"version\": \"1.4.2\"\n}\n")
        try repo.commitAll("chore: 1.4.2")
        let initialised = relctl(["init"], in: repo.path)
        #expect(initialised.code == 0, "\(initialised.stderr)")
        #expect(!(try repo.read(".relctl.json")).contains("versionScheme"))
        #expect(!initialised.stderr.contains("versionScheme"))
    }

    @Test func tagsCarryingTheBuildGetABuildTagFormat() {
        let guess = SchemeGuess.guess(held: ["1.7.0"], tagNames: ["v1.6.0.3", "v1.7.0.4", "latest"])
        #expect(guess.scheme == nil)
        #expect(guess.tagFormat?.pattern == "v{version}.{build}")
        #expect(guess.tagFormat?.note == "tagFormat \"v{version}.{build}\": the release tags v1.7.0.4, v1.6.0.3 carry the build number after the version the files hold")
        #expect(SchemeGuess.guess(held: ["7.157.0"], tagNames: ["7.156.0-3", "7.157.0-5"]).tagFormat?.pattern == "{version}-{build}")
        let calendar = SchemeGuess.guess(held: ["2026.7.0"], tagNames: ["release/2026.6.1/2026.2101", "release/2026.7.0/2026.2208"])
        #expect(calendar.scheme?.description == "YYYY.M.MICRO")
        #expect(calendar.tagFormat?.pattern == "release/{version}/{build}")
        #expect(SchemeGuess.buildTagParts("v1.7.0") == nil && SchemeGuess.buildTagParts("v1.7.0-rc.1") == nil)
        // Four numbers that are not the files' version plus a build: no guess.
        #expect(SchemeGuess.guess(held: ["2.0.0"], tagNames: ["v1.6.0.3", "v1.7.0.4"]).tagFormat == nil)
    }

    @Test(arguments: [
        (["8.19"], [String](), "major.minor"), (["2024.11.3"], [], "YYYY.M.MICRO"), (["2024.01"], ["2023.12", "2023.09"], "YYYY.0M"),
        ([], ["v29.0", "v28.3"], "major.minor"), (["1.4.2"], ["v8.19"], "semver"), (["1.2.3.4"], [], "semver"),
        (["1.0"], [], "semver"), (["1.0"], ["v1.0"], "major.minor"), (["2024.11"], ["nightly"], "YYYY.M"),
    ])
    func theGuess(held: [String], tags: [String], expected: String) {
        let guess = SchemeGuess.guess(held: held, tagNames: tags)
        #expect((guess.scheme ?? .semver).description == expected)
    }
}
