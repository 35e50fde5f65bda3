import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// iOS build numbers that start again at each version: App Store Connect compares CFBundleVersion within one
// marketing version (TN2420), Google Play compares every versionCode ever uploaded. buildNumber strategy perVersion
// starts the iOS build at 1 (or `start`) for each new version and counts up within it; versionCode only goes up.

/// An Expo app released as `releases` (version, iOS build, versionCode), configured with `buildNumber`, then a feat.
func perVersionApp(_ releases: [(String, String, Int?)], buildNumber: String) throws -> TestRepository {
    let repo = try IOSBuildNumberResetTests.app(releases)
    try repo.write(".relctl.json", #"{"files": [{"path": "app.json", "format": "expo"}], "changelog": false, "buildNumber": "# + buildNumber + "}\n")
    try repo.commitAll("chore: build numbers per version")
    return repo
}

@Suite("iOS build numbers per version")
struct PerVersionBuildNumberTests {
    @Test func aNewVersionStartsAtOneAndVersionCodeGoesOn() throws {
        let repo = try perVersionApp([("1.5.0", "7", 55)], buildNumber: #"{"strategy": "perVersion"}"#)
        let released = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "1.6.0\n")
        #expect(try repo.read("app.json") == IOSBuildNumberResetTests.appJSON("1.6.0", ios: "1", android: 56))
    }

    @Test func betasOfOneVersionCountUpAndTheNextVersionStartsAgainAtZero() throws {
        let repo = try perVersionApp([("1.5.0", "3", 55)], buildNumber: #"{"strategy": "per-version", "start": 0}"#)
        var expected: [(String, String, Int)] = [("1.6.0-beta.1", "0", 56), ("1.6.0-beta.2", "1", 57)]
        for (version, ios, android) in expected {
            let beta = relctl(["release", "--prerelease", "beta"], in: repo.path, environment: fixedDate)
            #expect(beta.code == 0, "\(beta.stderr)")
            #expect(beta.stdout == version + "\n")
            #expect(try repo.read("app.json") == IOSBuildNumberResetTests.appJSON("1.6.0", ios: ios, android: android), "\(version)")
            try repo.commit("fix: beta feedback \(version)", file: "src/fix.ts")
        }
        expected = [("1.6.0", "2", 58)]
        let final = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(final.code == 0, "\(final.stderr)")
        #expect(final.stdout == "1.6.0\n")
        #expect(try repo.read("app.json") == IOSBuildNumberResetTests.appJSON("1.6.0", ios: "2", android: 58))
        try repo.commit("feat: next feature", file: "src/next.ts")
        let next = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(next.code == 0, "\(next.stderr)")
        #expect(try repo.read("app.json") == IOSBuildNumberResetTests.appJSON("1.7.0", ios: "0", android: 59))
    }

    @Test func aConfigStartBelowZeroIsRefused() throws {
        let repo = try perVersionApp([("1.5.0", "7", nil)], buildNumber: #"{"strategy": "perVersion", "start": -1}"#)
        let next = relctl(["sync", "1.6.0"], in: repo.path)
        #expect(next.code == 1)
        #expect(next.stderr == "error: .relctl.json:1: 'buildNumber.start' must be 0 or a positive whole number (the first iOS build of each version, usually 1 or 0), not -1\n", "\(next.stderr)")
    }

    /// `--build 0` for an iOS-only app's new version: allowed, a version's builds are its own.
    @Test func buildZeroIsTakenForANewIOSVersion() throws {
        let repo = try IOSBuildNumberResetTests.app([("1.5.0", "7", nil)])
        let released = relctl(["release", "--build", "0"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(try repo.read("app.json") == IOSBuildNumberResetTests.appJSON("1.6.0", ios: "0"))
        // Android never takes 0.
        let android = try IOSBuildNumberResetTests.app([("1.5.0", "7", 55)])
        let refused = relctl(["sync", "1.6.0", "--build", "0"], in: android.path)
        #expect(refused.code == 1)
        #expect(refused.stderr.hasPrefix("error: app.json:12: Android versionCode \"0\" is not a positive integer"), "\(refused.stderr)")
    }

    /// The refusal citing TN2420 only when that version was really uploaded with a build at or above the new one.
    @Test func aLowerBuildIsRefusedOnlyForAVersionReleasedWithAHigherOne() throws {
        let repo = try IOSBuildNumberResetTests.app([("1.5.0", "7", nil)])
        // 1.6.0 went out from a release branch as build 5, never merged back.
        try repo.git(["checkout", "-q", "-b", "release/1.6", "v1.5.0"])
        try repo.write("app.json", IOSBuildNumberResetTests.appJSON("1.6.0", ios: "5"))
        try repo.commitAll("chore(release): 1.6.0")
        try repo.tag("v1.6.0")
        try repo.git(["checkout", "-q", "main"])
        let before = try repo.snapshot()
        let refused = relctl(["sync", "1.6.0", "--build", "3"], in: repo.path)
        #expect(refused.code == 1)
        #expect(refused.stderr == "error: app.json:8: iOS build 3 for 1.6.0 is not above 5, which release v1.6.0 already uploaded for that version; each upload of a version needs a higher CFBundleVersion than the last (TN2420): pass --build 6 or higher\n", "\(refused.stderr)")
        #expect(try repo.snapshot() == before)
        // The advice followed.
        let synced = relctl(["sync", "1.6.0", "--build", "6"], in: repo.path)
        #expect(synced.code == 0, "\(synced.stderr)")
        #expect(try repo.read("app.json") == IOSBuildNumberResetTests.appJSON("1.6.0", ios: "6"))
        // A version never released takes any build, below the files' too.
        try repo.git(["checkout", "-q", "--", "app.json"])
        let fresh = relctl(["sync", "1.7.0", "--build", "2"], in: repo.path)
        #expect(fresh.code == 0, "\(fresh.stderr)")
        #expect(try repo.read("app.json") == IOSBuildNumberResetTests.appJSON("1.7.0", ios: "2"))
    }
}
