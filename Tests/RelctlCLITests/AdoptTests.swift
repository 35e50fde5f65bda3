import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// An app already in the stores at 2.43.0 reaches relctl with no release tag: relctl must not plan 1.0.0 over it,
// and `relctl adopt` gives it the last release, on the commit that set the version.

/// A bare React Native app (package.json, the Xcode project, the Gradle file) released by hand up to 2.43.0, never
/// tagged: 2.42.0 at first, a feature, the bump to 2.43.0 (whose sha is returned), then a fix and a feature.
func storeApp() throws -> (repo: TestRepository, bump: String) {
    let repo = try TestRepository()
    try repo.git(["config", "user.name", "Release Bot"])
    try repo.git(["config", "user.email", "bot@example.com"])
    func write(_ version: String, build: Int) throws {
        try repo.write("package.json", packageJSON(version))
        try repo.write("ios/App.xcodeproj/project.pbxproj", pbxproj(marketing: version, build: String(build)))
        try repo.write("ios/App/Info.plist", infoPlistWithBuildSettings)
        try repo.write("android/app/build.gradle", reactNativeGradle
            .replacingOccurrences(of: "versionCode 12", with: "versionCode \(build)")
            .replacingOccurrences(of: "\"1.2.0\"", with: "\"\(version)\""))
    }
    try write("2.42.0", build: 240)
    try repo.commitAll("chore: initial commit")
    try repo.commit("feat: offline maps", file: "src/maps.ts")
    try write("2.43.0", build: 241)
    let bump = try repo.commitAll("chore: bump version to 2.43.0")
    try repo.commit("fix: crash on launch", file: "src/app.ts")
    try repo.commit("feat: dark mode", file: "src/theme.ts")
    return (repo, bump)
}

let storeAppFiles = [("package.json", "json"), ("ios/App.xcodeproj/project.pbxproj", "pbxproj"),
                     ("android/app/build.gradle", "gradle")]

@Suite("relctl adopt: an app already in the stores")
struct AdoptTests {
    @Test func adoptThenNextThenReleaseEndToEnd() throws {
        let (repo, bump) = try storeApp()

        // init finds the files and offers adopt.
        let initialized = relctl(["init"], in: repo.path)
        expectTranscript(["init"], initialized, matches: "lifecycle-adopt/init-offers-adopt.txt", repo: repo)
        try repo.commitAll("chore: add relctl config")

        // next: stdout unchanged (1.0.0), the warning on stderr names the file, the line and the fix.
        let next = relctl(["next"], in: repo.path)
        #expect(next.code == 0)
        #expect(next.stdout == "1.0.0\n")
        let problem = "package.json:3: the next version 1.0.0 is lower than 2.43.0, the version this file holds, and the stores refuse a version below the last one; no release tag is reachable from HEAD: run 'relctl adopt' to tag 2.43.0 on the commit that set it (relctl adopt --dry-run shows which), so releases continue from there"
        #expect(next.stderr == "warning: \(problem); 'relctl release' will refuse it\n", "\(next.stderr)")

        // release refuses, in a dry run too, the same way, and changes nothing.
        let before = try repo.snapshot()
        for arguments in [["release", "--dry-run"], ["release"]] {
            let refused = relctl(arguments, in: repo.path, environment: fixedDate)
            #expect(refused.code == 1)
            #expect(refused.stdout.isEmpty)
            #expect(refused.stderr == "error: \(problem)\nnothing was changed (1 preflight problem)\n", "\(refused.stderr)")
            #expect(try repo.snapshot() == before)
        }
        let status = relctl(["status"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["status"], status, matches: "lifecycle-adopt/status-before-adopt.txt", repo: repo)
        #expect(status.stdout.split(separator: "\n").first { $0.hasPrefix("problem:") } == "problem:       \(problem)"[...], "\(status.stdout)")

        // adopt --dry-run shows the tag, the commit that set 2.43.0 and what follows; nothing changes.
        let dryRun = relctl(["adopt", "--dry-run"], in: repo.path)
        expectTranscript(["adopt", "--dry-run"], dryRun, matches: "lifecycle-adopt/adopt--dry-run.txt", repo: repo)
        #expect(dryRun.stdout.split(separator: "\n").first { $0.hasPrefix("tag:") }
                == "tag:      v2.43.0 (annotated) on \(bump.prefix(12)), the commit that set 2.43.0 in package.json"[...], "\(dryRun.stdout)")
        #expect(try repo.snapshot() == before)

        // adopt: the annotated tag on the bump commit.
        let adopted = relctl(["adopt"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["adopt"], adopted, matches: "lifecycle-adopt/adopt.txt", repo: repo)
        #expect(try repo.git(["cat-file", "-t", "v2.43.0"]) == "tag\n")
        #expect(try repo.git(["rev-parse", "v2.43.0^{commit}"]).trimmingCharacters(in: .newlines) == bump)
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
        let again = relctl(["adopt"], in: repo.path)
        #expect(again.code == 0)
        #expect(again.stderr == "nothing to adopt: v2.43.0 (2.43.0) is already the last release reachable from HEAD, and the files hold 2.43.0\n")

        // next and the dry run now continue from 2.43.0, counting only the commits after it.
        let afterNext = relctl(["next"], in: repo.path)
        #expect(afterNext.stdout == "2.44.0\n")
        #expect(afterNext.stderr.isEmpty, "\(afterNext.stderr)")
        let plan = relctl(["release", "--dry-run"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release", "--dry-run"], plan, matches: "lifecycle-adopt/release--dry-run-after-adopt.txt", repo: repo)
        #expect(!plan.stdout.contains("offline maps"))

        // The release writes 2.44.0 and build 242 everywhere, commits and tags.
        let head = try repo.head()
        let gradle = try repo.read("android/app/build.gradle")
        let released = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "2.44.0\n")
        try expectReleased(repo, "2.44.0", parent: head, files: ["CHANGELOG.md", "package.json", "ios/App.xcodeproj/project.pbxproj",
                                                                 "android/app/build.gradle"])
        #expect(try repo.read("package.json") == packageJSON("2.44.0"))
        #expect(try repo.read("android/app/build.gradle") == gradle.replacingOccurrences(of: "versionCode 241\n        versionName \"2.43.0\"\n",
                                                                                       with: "versionCode 242\n        versionName \"2.44.0\"\n"))
        // The changelog holds the two commits after the adopted tag, not the one before it.
        Golden.expect(goldenSections([("CHANGELOG.md", try repo.read("CHANGELOG.md"))]), matches: "lifecycle-adopt/changelog-after-the-first-release.txt")
    }

    @Test func filesThatDisagreeAreRefusedByName() throws {
        let (repo, _) = try storeApp()
        try writeConfig(repo, files: storeAppFiles)
        try repo.write("android/app/build.gradle", try repo.read("android/app/build.gradle").replacingOccurrences(of: "2.43.0", with: "2.42.0"))
        try repo.commitAll("chore: config")
        let before = try repo.snapshot()
        let refused = relctl(["adopt"], in: repo.path)
        #expect(refused.code == 1)
        #expect(refused.stderr == "error: the version files disagree (package.json:3 2.43.0, ios/App.xcodeproj/project.pbxproj:\(lineOf("MARKETING_VERSION = 2.43.0", in: pbxproj(marketing: "2.43.0", build: "241"))) 2.43.0, android/app/build.gradle:10 2.42.0), so relctl cannot tell which version the stores have; write the released one to every file (relctl sync 2.43.0 if the stores have 2.43.0, the highest; relctl sync <version> --allow-downgrade for a lower one), commit, and run relctl adopt again\n", "\(refused.stderr)")
        #expect(try repo.snapshot() == before)
        // The advice followed: 2.42.0 is the released one, below 2.43.0.
        #expect(relctl(["sync", "2.42.0"], in: repo.path).code == 1)
        let synced = relctl(["sync", "2.42.0", "--allow-downgrade"], in: repo.path)
        #expect(synced.code == 0, "\(synced.stderr)")
        try repo.commitAll("chore: back to the released 2.42.0")
        let adopted = relctl(["adopt"], in: repo.path)
        #expect(adopted.code == 0, "\(adopted.stderr)")
        #expect(try repo.git(["tag"]) == "v2.42.0\n")
    }

    @Test(arguments: [["sync", "2.43.0"], ["sync", "2.42.0", "--allow-downgrade"]])
    func theAdviceForFilesThatDisagreeWorksWhenFollowed(_ sync: [String]) throws {
        let (repo, _) = try storeApp()
        try writeConfig(repo, files: storeAppFiles)
        try repo.write("android/app/build.gradle", try repo.read("android/app/build.gradle").replacingOccurrences(of: "2.43.0", with: "2.42.0"))
        try repo.commitAll("chore: config")
        #expect(relctl(["adopt"], in: repo.path).code == 1)
        let synced = relctl(sync, in: repo.path)
        #expect(synced.code == 0, "\(synced.stderr)")
        try repo.commitAll("chore: the released version in every file")
        let adopted = relctl(["adopt"], in: repo.path)
        #expect(adopted.code == 0, "\(adopted.stderr)")
        #expect(try repo.git(["tag"]) == "v\(sync[1])\n")
    }

    @Test func aVersionNotCommittedYetIsRefused() throws {
        let (repo, _) = try storeApp()
        try writeConfig(repo, files: [("package.json", "json")])
        try repo.commitAll("chore: config")
        try repo.write("package.json", packageJSON("2.44.0"))
        let refused = relctl(["adopt"], in: repo.path)
        #expect(refused.code == 1)
        #expect(refused.stderr == "error: package.json holds 2.44.0 in the work tree but not in the last commit; commit the version change first, then run relctl adopt\n")
        #expect(try repo.git(["tag"]).isEmpty)
    }

    @Test func aPrereleaseOrAnotherSchemeIsNotABase() throws {
        let repo = try TestRepository()
        try repo.write("package.json", packageJSON("2.43.0-beta.1"))
        try writeConfig(repo, files: [("package.json", "json")])
        try repo.commitAll("chore: initial")
        let prerelease = relctl(["adopt"], in: repo.path)
        #expect(prerelease.code == 1)
        #expect(prerelease.stderr.hasPrefix("error: package.json:3: the files hold the prerelease 2.43.0-beta.1, and a release base is a final version"))

        try repo.write("package.json", packageJSON("2024.12"))
        try repo.commitAll("chore: calendar")
        let calendar = relctl(["adopt"], in: repo.path)
        #expect(calendar.code == 1)
        #expect(calendar.stderr == "error: package.json:3: 2024.12 is not a version of versionScheme semver (MAJOR.MINOR.PATCH such as 1.3.0); if the app numbers versions by date, set \"versionScheme\": \"YYYY.M\" in .relctl.json\n", "\(calendar.stderr)")

        try repo.write("package.json", packageJSON("8.19"))
        try repo.commitAll("chore: two parts")
        let twoParts = relctl(["adopt"], in: repo.path)
        #expect(twoParts.stderr == "error: package.json:3: 8.19 is not a version of versionScheme semver (MAJOR.MINOR.PATCH such as 1.3.0); if the app numbers versions in two parts, set \"versionScheme\": \"major.minor\" in .relctl.json, commit it, and run relctl adopt again\n", "\(twoParts.stderr)")
        #expect(try repo.git(["tag"]).isEmpty)
    }

    @Test func aTagOfThatVersionElsewhereIsMergedNotAdopted() throws {
        let (repo, _) = try storeApp()
        try writeConfig(repo, files: [("package.json", "json")])
        try repo.commitAll("chore: config")
        try repo.git(["checkout", "-q", "-b", "release/2.43"])
        try repo.commit("fix: hotfix", file: "hotfix.txt")
        try repo.tag("v2.43.0")
        try repo.git(["checkout", "-q", "main"])
        let refused = relctl(["adopt"], in: repo.path)
        #expect(refused.code == 1)
        #expect(refused.stderr.hasPrefix("error: tag v2.43.0 already exists on "))
        #expect(refused.stderr.hasSuffix(", which is not an ancestor of HEAD; merge that release back (git merge v2.43.0) instead of adopting\n"))
    }

    @Test func theFirstCommitCanBeTheBaseline() throws {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write("package.json", packageJSON("3.1.0"))
        try writeConfig(repo, files: [("package.json", "json")])
        let first = try repo.commitAll("chore: import the app")
        try repo.commit("docs: readme", file: "README.md")
        let adopted = relctl(["adopt"], in: repo.path)
        #expect(adopted.code == 0, "\(adopted.stderr)")
        #expect(adopted.stdout.hasSuffix("after it: 1 commit; no releasable commit after it yet\n"), "\(adopted.stdout)")
        #expect(try repo.git(["rev-parse", "v3.1.0^{commit}"]).trimmingCharacters(in: .newlines) == first)
    }
}
