import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// `relctl sync` with the `increment` strategy counts from the highest build number any release tag holds, as
/// `release` does: Play's versionCode space is shared by every track, so a sync on a maintenance branch never
/// proposes a versionCode already shipped from main.
@Suite("relctl sync: build numbers above every release tag's")
struct SyncReleasedBuildNumberTests {
    /// Main released 1.4.2 (build 40) … 3.0.0 (57); `release/1.4.x` starts from v1.4.2, whose files hold 40.
    static func hotfixBranch() throws -> ChannelApp {
        let app = try MaintenanceBranchTests.mainTwoMajorsAhead()
        try app.repo.git(["switch", "-q", "-c", "release/1.4.x", "v1.4.2"])
        try app.repo.commit("fix(sync): lost edits on a flaky network", file: "src/sync.ts")
        return app
    }

    static let note = "note: build numbers go on from the highest a release tag holds (v3.0.0), not this branch's files: iOS 57 (the files hold 40), Android 57 (the files hold 40)\n"

    @Test func aSyncOnAMaintenanceBranchGoesAboveMainsReleases() throws {
        let app = try Self.hotfixBranch()
        #expect(try app.held() == ChannelApp.expected("1.4.2", build: 40))

        let plan = relctl(["sync", "1.4.3", "--dry-run"], in: app.repo.path)
        #expect(try app.held() == ChannelApp.expected("1.4.2", build: 40))
        let json = relctl(["sync", "1.4.3", "--dry-run", "--json"], in: app.repo.path)
        let synced = relctl(["sync", "1.4.3"], in: app.repo.path)
        // The plan's diff (versionCode 40 → 58), the note saying why, the JSON, and the sync with the same note.
        expectTranscript([(["sync", "1.4.3", "--dry-run"], plan), (["sync", "1.4.3", "--dry-run", "--json"], json), (["sync", "1.4.3"], synced)],
                         matches: "sync/maintenance-branch-goes-above-mains-releases.txt", repo: app.repo)
        for result in [plan, synced] {
            #expect(result.stderr.split(separator: "\n").filter { $0.hasPrefix("note: ") }.map { $0 + "\n" } == [Self.note], "\(result.stderr)")
        }
        #expect(try app.held() == ChannelApp.expected("1.4.3", build: 58))

        // The same sync again changes nothing (increment keeps build numbers when no version moves), and says no note.
        let again = relctl(["sync", "1.4.3"], in: app.repo.path)
        #expect(again.code == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("build numbers go on"), "\(again.stderr)")
        #expect(try app.held() == ChannelApp.expected("1.4.3", build: 58))

        // A release from the synced files goes on from there, above every tag.
        try app.repo.commitAll("chore: 1.4.3 by hand")
        try app.repo.git(["tag", "-a", "-m", "v1.4.3", "v1.4.3"])
        try app.repo.commit("fix: another crash", file: "src/crash.ts")
        try app.release(expecting: "1.4.4")
        #expect(try app.held() == ChannelApp.expected("1.4.4", build: 59))
    }

    /// A prerelease tag counts too: a beta shipped from another branch took 61.
    @Test func aBetaTagsBuildNumberCounts() throws {
        let app = try MaintenanceBranchTests.mainTwoMajorsAhead()
        let repo = app.repo
        try repo.git(["switch", "-q", "-c", "beta"])
        try app.setVersion("3.1.0-beta.1", build: 61)
        try repo.commitAll("chore(release): 3.1.0-beta.1")
        try repo.tag("v3.1.0-beta.1")
        try repo.git(["switch", "-q", "-c", "release/1.4.x", "v1.4.2"])
        let synced = relctl(["sync", "1.4.3"], in: repo.path)
        expectTranscript(["sync", "1.4.3"], synced, matches: "sync/a-beta-tags-build-number-counts.txt", repo: repo)
        #expect(try app.held() == ChannelApp.expected("1.4.3", build: 62))
    }

    /// On main, whose files hold the highest build, nothing changes: the files' 57 + 1, and no note.
    @Test func onMainTheFilesHoldTheHighestAndNoNoteIsPrinted() throws {
        let app = try MaintenanceBranchTests.mainTwoMajorsAhead()
        let synced = relctl(["sync", "3.0.1"], in: app.repo.path)
        #expect(synced.code == 0, "\(synced.stderr)")
        #expect(!synced.stderr.contains("note:"), "\(synced.stderr)")
        #expect(try app.held() == ChannelApp.expected("3.0.1", build: 58))
    }

    /// `--build N` is what the user asked for: it is written as given, with a warning when main already shipped a
    /// versionCode at or above it (release refuses it); one above every tag's is written without a word.
    @Test func anExplicitBuildIsWrittenAsGivenWithAWarningWhenATagHoldsAHigherOne() throws {
        let app = try Self.hotfixBranch()
        let synced = relctl(["sync", "1.4.3", "--build", "41"], in: app.repo.path)
        expectTranscript(["sync", "1.4.3", "--build", "41"], synced, matches: "sync/explicit-build-below-a-tag-warns.txt", repo: app.repo)
        #expect(!synced.stderr.contains("build numbers go on"), "\(synced.stderr)")
        #expect(try app.held() == ChannelApp.expected("1.4.3", build: 41))

        let above = relctl(["sync", "1.4.4", "--build", "60"], in: app.repo.path)
        #expect(above.code == 0, "\(above.stderr)")
        #expect(!above.stderr.contains("warning:"), "\(above.stderr)")
        #expect(try app.held() == ChannelApp.expected("1.4.4", build: 60))
    }

    /// Releases made on branches never merged back, each changing one file: the versionCode floor is the highest
    /// any tag holds, whichever file moved it, though most tags share their other files' blobs (read once each).
    @Test func theFloorComesFromTheOneFileATagChanged() throws {
        let app = try ChannelApp(version: "1.2.0", build: 12)
        let repo = app.repo
        for (i, code) in [30, 90, 45].enumerated() {
            try repo.git(["switch", "-q", "-c", "release/\(i)", "v1.2.0"])
            let gradle = try repo.read("android/app/build.gradle")
            try repo.write("android/app/build.gradle", gradle.replacingOccurrences(of: "versionCode 12", with: "versionCode \(code)"))
            try repo.commitAll("chore(release): Android build \(code)")
            try repo.tag("v1.2.\(i + 1)")
        }
        // Another with the same files as release/1 (the same blobs, the same values).
        try repo.git(["switch", "-q", "-c", "release/again", "release/1"])
        try repo.commit("docs: notes", file: "NOTES.md")
        try repo.tag("v1.2.9")
        try repo.git(["switch", "-q", "main"])
        try repo.commit("feat: offline mode", file: "src/offline.ts")
        let plan = relctl(["sync", "1.3.0", "--dry-run"], in: repo.path)
        expectTranscript(["sync", "1.3.0", "--dry-run"], plan, matches: "sync/floor-from-the-one-file-a-tag-changed.txt", repo: repo)
    }
}
