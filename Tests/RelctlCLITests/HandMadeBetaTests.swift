import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// Found on a real native Android app: its main branch holds a beta made by hand (`versionName "3.12.0-beta4"`,
/// versionCode 3120004) after the last release tag `3.11.4`, with no tag for the beta. The next version from the
/// commits was a patch (3.11.5), below the files, and relctl advised `relctl adopt` — which refuses a prerelease
/// ("a release base is a final version"). The advice now names what works: the kind of commit that brings the
/// release to 3.12.0, or the files put back to 3.11.4.
@Suite("a beta made by hand in the files, with no tag")
struct HandMadeBetaTests {
    static func gradle(_ name: String, code: Int) -> String {
        """
        plugins {
            id('com.android.application')
        }

        android {
            namespace "org.example.podcasts"
            defaultConfig {
                applicationId "org.example.podcasts"
                // Version code schema: major, minor, patch, beta number
                versionCode \(code)
                versionName "\(name)"
                minSdk 21
            }
        }

        """
    }

    static func app() throws -> TestRepository {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write(".relctl.json", #"{"tagFormat": "{version}", "files": [{"path": "app/build.gradle", "format": "gradle"}], "changelog": false}"# + "\n")
        try repo.write("app/build.gradle", gradle("3.11.4", code: 3110400))
        try repo.commitAll("chore: podcasts app")
        try repo.tag("3.11.4")
        try repo.write("app/build.gradle", gradle("3.12.0-beta4", code: 3120004))
        try repo.commitAll("chore: 3.12.0-beta4")
        try repo.commit("fix(feed): refresh loop", file: "src/feed.kt")
        return repo
    }

    @Test func theAdviceIsNotAdoptWhichRefusesAPrereleaseButWhatWorks() throws {
        let repo = try Self.app()
        let before = try repo.snapshot()
        let plan = relctl(["release", "--dry-run"], in: repo.path, environment: fixedDate)
        #expect(plan.code == 1)
        #expect(plan.stderr == """
            error: app/build.gradle:11: the next version 3.11.5 is lower than 3.12.0-beta4, the version this file holds, and the stores refuse a version below the last one; the files hold the prerelease 3.12.0-beta4, which no release tag holds, and 'relctl adopt' takes only a final version; the next version comes from 3.11.4 and the commits since, so it reaches 3.12.0 with a feat commit (then 'relctl release' makes 3.12.0), or put the files back to 3.11.4 (relctl sync 3.11.4 --allow-downgrade) and commit
            nothing was changed (1 preflight problem)

            """, "\(plan.stderr)")
        // What adopt says, for the record: it refuses, so it must not be the advice.
        let adopt = relctl(["adopt", "--dry-run"], in: repo.path)
        #expect(adopt.code == 1 && adopt.stderr.contains("a release base is a final version"), "\(adopt.stderr)")
        #expect(try repo.snapshot() == before)

        // Following the advice releases 3.12.0, above the beta's versionCode.
        try repo.commit("feat(player): sleep timer", file: "src/player.kt")
        let released = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "3.12.0\n")
        #expect(try repo.read("app/build.gradle") == Self.gradle("3.12.0", code: 3120005))
    }
}
