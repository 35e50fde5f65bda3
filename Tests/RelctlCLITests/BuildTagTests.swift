import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// Tags that carry the build number: `v1.7.0.4` (version 1.7.0, build 4), `release/2026.7.0/2026.2208`, `7.157.0-5`.
// A tagFormat with `{build}` reads them as version plus build (never a four-part version or a prerelease), counts
// the build for the build-number floor, and writes the build it released into the new tag.

/// An Expo app (iOS build and versionCode) with tagFormat `format`, released as `releases` (version, build, tag).
func buildTagApp(format: String, scheme: String? = nil, android: Bool = true, _ releases: [(String, String, String)]) throws -> TestRepository {
    let repo = try TestRepository()
    try repo.git(["config", "user.name", "Release Bot"])
    try repo.git(["config", "user.email", "bot@example.com"])
    try repo.write(".relctl.json", #"{"files": [{"path": "app.json", "format": "expo"}], "changelog": false, "tagFormat": ""# + format + "\""
                   + (scheme.map { #", "versionScheme": ""# + $0 + "\"" } ?? "") + "}\n")
    for (version, build, tag) in releases {
        try repo.write("app.json", IOSBuildNumberResetTests.appJSON(version, ios: build, android: android ? Int(build) : nil))
        try repo.commitAll("chore(release): \(version)")
        try repo.tag(tag)
    }
    try repo.commit("feat(tides): weekly view", file: "src/tides.ts")
    return repo
}

@Suite("tags carrying the build number")
struct BuildTagTests {
    @Test func versionDotBuildIsReadAsVersionAndBuildAndWrittenSo() throws {
        let repo = try buildTagApp(format: "v{version}.{build}", [("1.6.0", "3", "v1.6.0.3"), ("1.7.0", "4", "v1.7.0.4")])
        let json = relctl(["next", "--json"], in: repo.path)
        #expect(json.stdout.hasPrefix(#"{"schemaVersion":1,"current":"1.7.0","next":"1.8.0","bump":"minor","baseTag":"v1.7.0.4","#), "\(json.stdout)")
        #expect(json.stderr.isEmpty, "\(json.stderr)")
        let released = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "1.8.0\n")
        #expect(try repo.git(["tag", "--points-at", "HEAD"]) == "v1.8.0.5\n")
        #expect(try repo.read("app.json") == IOSBuildNumberResetTests.appJSON("1.8.0", ios: "5", android: 5))
    }

    /// The build in a tag counts for the floor even where the files at that tag say less.
    @Test func theTagsBuildRaisesTheFloor() throws {
        let repo = try buildTagApp(format: "{version}-{build}", [("7.156.0", "3", "7.156.0-3"), ("7.157.0", "4", "7.157.0-9")])
        let released = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "7.158.0\n")
        #expect(try repo.git(["tag", "--points-at", "HEAD"]) == "7.158.0-10\n")
        #expect(try repo.read("app.json") == IOSBuildNumberResetTests.appJSON("7.158.0", ios: "10", android: 10))
    }

    @Test func aCalendarReleaseBranchTagWithADottedBuild() throws {
        let repo = try buildTagApp(format: "release/{version}/{build}", scheme: "YYYY.M.MICRO", android: false,
                                   [("2026.7.0", "2026.2208", "release/2026.7.0/2026.2208")])
        let released = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "2026.9.0\n")
        #expect(try repo.git(["tag", "--points-at", "HEAD"]) == "release/2026.9.0/2026.2209\n")
    }

    /// Tags made before the team put builds in its tags still count as releases.
    @Test func anOlderTagWithoutABuildIsStillARelease() throws {
        let repo = try buildTagApp(format: "v{version}.{build}", [("1.6.0", "3", "v1.6.0")])
        #expect(relctl(["next"], in: repo.path).stdout == "1.7.0\n")
        let released = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(try repo.git(["tag", "--points-at", "HEAD"]) == "v1.7.0.4\n")
    }

    @Test func aBuildFormatWithoutVersionFilesIsRefusedWithTheFix() throws {
        let repo = try TestRepository()
        try repo.write(".relctl.json", #"{"tagFormat": "v{version}.{build}"}"# + "\n")
        try repo.commitAll("chore: config")
        let next = relctl(["next"], in: repo.path)
        #expect(next.code == 1)
        #expect(next.stderr == "error: .relctl.json:1: 'tagFormat' \"v{version}.{build}\" puts the build number in the tag, but 'files' lists no version file to read it from; list the app's version files (relctl init detects them), or drop {build}\n", "\(next.stderr)")
    }
}

@Suite("advice for four-part tags")
struct FourPartTagAdviceTests {
    /// Under `v{version}`, `v1.7.0.4` is no version of semver: the advice is the `{build}` format, and it works.
    @Test func theAdviceIsTheBuildFormatAndFollowingItReleases() throws {
        let repo = try buildTagApp(format: "v{version}", [("1.6.0", "3", "v1.6.0.3"), ("1.7.0", "4", "v1.7.0.4")])
        let problem = "app.json:5: the next version 1.0.0 is lower than 1.7.0, the version this file holds, and the stores refuse a version below the last one; tags v1.7.0.4, v1.6.0.3 are not versions of versionScheme semver (MAJOR.MINOR.PATCH such as 1.3.0): if the fourth number is the build, set \"tagFormat\": \"v{version}.{build}\" in .relctl.json and commit it, so v1.7.0.4 reads as version 1.7.0, build 4, or run 'relctl adopt' to tag 1.7.0 on the commit that set it"
        let next = relctl(["next"], in: repo.path)
        #expect(next.stderr == "warning: \(problem); 'relctl release' will refuse it\n", "\(next.stderr)")
        try expectReleaseRefused(repo, contains: problem)
        try repo.write(".relctl.json", #"{"files": [{"path": "app.json", "format": "expo"}], "changelog": false, "tagFormat": "v{version}.{build}"}"# + "\n")
        try repo.commitAll("chore: tags carry the build")
        let released = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "1.8.0\n")
        #expect(try repo.git(["tag", "--points-at", "HEAD"]) == "v1.8.0.5\n")
    }
}
