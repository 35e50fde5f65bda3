import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// Never a version backwards: `next` warns, `release` refuses (in a dry run too), `sync` refuses unless
// --allow-downgrade; release tags that HEAD cannot see are named with the fix instead of a silent 1.0.0.

/// A repository with an identity, `main` holding `files` (path → text) and `.relctl.json` listing `entries`.
/// `config`: without entries, whether a `.relctl.json` of defaults is committed (false: none, as before `init`).
func appRepository(_ files: [String: String], entries: [(String, String)], config: Bool = true) throws -> TestRepository {
    let repo = try TestRepository()
    try repo.git(["config", "user.name", "Release Bot"])
    try repo.git(["config", "user.email", "bot@example.com"])
    for (path, text) in files { try repo.write(path, text) }
    // A config always (relctl refuses to release without one): with `files` when entries are given.
    if !entries.isEmpty { try writeConfig(repo, files: entries) } else if config { try repo.write(".relctl.json", "{}\n") }
    try repo.commitAll("chore: initial commit")
    return repo
}

/// Runs a release that must be refused: exit 1, `error: <expected>` as its one error line, then "nothing was
/// changed", no byte changed (warnings and notes may come before the error).
func expectReleaseRefused(_ repo: TestRepository, arguments: [String] = [], contains expected: String,
                          sourceLocation: SourceLocation = #_sourceLocation) throws {
    let before = try repo.snapshot()
    for dryRun in [true, false] {
        let result = relctl(["release"] + (dryRun ? ["--dry-run"] : []) + arguments, in: repo.path, environment: fixedDate)
        #expect(result.code == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }.map(String.init) == ["error: " + expected],
                "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasSuffix("error: \(expected)\nnothing was changed (1 preflight problem)\n"), "\(result.stderr)",
                sourceLocation: sourceLocation)
        #expect(try repo.snapshot() == before, sourceLocation: sourceLocation)
    }
}

@Suite("never a version backwards")
struct NeverBackwardsTests {
    @Test func tagsOnlyOnReleaseBranchesAreNamedWithTheFix() throws {
        // Released from release/2.43, never merged back: main cannot see v2.43.0 or v2.43.1.
        let repo = try appRepository(["README.md": "app\n"], entries: [])
        try repo.git(["checkout", "-q", "-b", "release/2.43"])
        try repo.commit("fix: store crash", file: "a.txt")
        try repo.tag("v2.43.0")
        try repo.commit("fix: login", file: "a.txt")
        try repo.tag("v2.43.1")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("feat: widgets", file: "b.txt")

        let problem = "no release tag is reachable from HEAD, so the next version is 1.0.0, but v2.43.1, v2.43.0 exist on commits that are not ancestors of HEAD (released from a branch never merged back?); merge it back (git merge v2.43.1) so releases continue from it, or run 'relctl adopt' to tag the version the files hold"
        let next = relctl(["next"], in: repo.path)
        #expect(next.code == 0)
        #expect(next.stdout == "1.0.0\n")
        #expect(next.stderr == "warning: \(problem); 'relctl release' will refuse it\n", "\(next.stderr)")
        try expectReleaseRefused(repo, contains: problem)
        let status = relctl(["status", "--json"], in: repo.path)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(object["unreachableTags"] as? [String] == ["v2.43.1", "v2.43.0"], "\(status.stdout)")

        // The fix works: merged back, releases continue from v2.43.1.
        try repo.git(["merge", "-q", "--no-edit", "v2.43.1"])
        let merged = relctl(["next"], in: repo.path)
        #expect(merged.stdout == "2.44.0\n")
        #expect(merged.stderr.isEmpty, "\(merged.stderr)")
    }

    @Test func aHigherTagOnAnotherBranchIsNamedWhenTheBaseIsLower() throws {
        let repo = try appRepository(["README.md": "app\n"], entries: [])
        try repo.tag("v2.42.0")
        try repo.git(["checkout", "-q", "-b", "release/2.43"])
        try repo.commit("fix: store crash", file: "a.txt")
        try repo.tag("v2.43.0")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("fix: widgets", file: "b.txt")
        let next = relctl(["next"], in: repo.path)
        #expect(next.stdout == "2.42.1\n")
        #expect(next.stderr == "note: v2.43.0 is above the next version 2.42.1 but not an ancestor of HEAD, which continues from v2.42.0; if 2.42.1 should follow v2.43.0, merge it back (git merge v2.43.0)\n", "\(next.stderr)")
    }

    @Test func tagsThatAreNotVersionsOfTheSchemeAreNamedWhenTheyAreTheOnlyOnes() throws {
        let repo = try appRepository(["README.md": "app\n"], entries: [])
        try repo.tag("v2.42")
        try repo.commit("fix: a", file: "a.txt")
        try repo.tag("v2.43")
        try repo.tag("v1.2.3.4")
        try repo.commit("feat: b", file: "b.txt")
        let problem = "no release tag is reachable from HEAD, so the next version is 1.0.0, but v2.43, v2.42, v1.2.3.4 match tagFormat \"v{version}\" and are not versions of versionScheme semver (MAJOR.MINOR.PATCH such as 1.3.0); if the app numbers its versions that way, set \"versionScheme\": \"major.minor\" in .relctl.json (MAJOR.MINOR such as 1.3) and commit it, so releases continue from v2.43"
        let next = relctl(["next"], in: repo.path)
        #expect(next.stdout == "1.0.0\n")
        #expect(next.stderr == "warning: \(problem); 'relctl release' will refuse it\n", "\(next.stderr)")
        try expectReleaseRefused(repo, contains: problem)
        // The advice works: in two parts, releases continue from v2.43.
        try repo.write(".relctl.json", "{\"versionScheme\": \"major.minor\"}\n")
        try repo.commitAll("chore: two-part versions")
        #expect(relctl(["next"], in: repo.path).stdout == "2.44\n")
    }

    @Test func releaseTagsAboveAnOldBaseAreNamedWhenTheFilesAreAhead() throws {
        // v1.10.41 on main; 4.x released from release branches never merged back; the files moved on to 4.6.0.
        let repo = try appRepository(["package.json": "{\n  \"version\": \"1.10.41\"\n}\n"], entries: [("package.json", "json")])
        try repo.tag("v1.10.41")
        for version in ["4.4.0", "4.5.0"] {
            try repo.git(["checkout", "-q", "-b", "release/\(version)", "main"])
            try repo.commit("fix: release \(version)", file: "release.txt")
            try repo.tag("v\(version)")
        }
        try repo.git(["checkout", "-q", "main"])
        try repo.write("package.json", "{\n  \"version\": \"4.6.0\"\n}\n")
        try repo.commitAll("feat: the new app")
        let problem = "package.json:2: the next version 1.11.0 is lower than 4.6.0, the version this file holds, and the stores refuse a version below the last one; release tags v4.5.0, v4.4.0 are above v1.10.41 but are not ancestors of HEAD (released from a branch never merged back?): merge it back (git merge v4.5.0), or run 'relctl adopt' to tag 4.6.0 on the commit that set it"
        let next = relctl(["next"], in: repo.path)
        #expect(next.stdout == "1.11.0\n")
        #expect(next.stderr == "warning: \(problem); 'relctl release' will refuse it\n", "\(next.stderr)")
        try expectReleaseRefused(repo, contains: problem)
    }

    @Test func tagsOfAnotherSchemeAboveTheBaseAreNamed() throws {
        // Three-part tags up to v1.8.0, then the app moved to two-part versions: v2.0 … v29.0.
        let repo = try appRepository(["app/build.gradle": "android {\n    defaultConfig {\n        versionCode 40\n        versionName \"1.8.0\"\n    }\n}\n"],
                                     entries: [("app/build.gradle", "gradle")])
        try repo.tag("v1.8.0")
        for (code, version) in [("41", "2.0"), ("42", "29.0")] {
            try repo.write("app/build.gradle", "android {\n    defaultConfig {\n        versionCode \(code)\n        versionName \"\(version)\"\n    }\n}\n")
            try repo.commitAll("feat: version \(version)")
            try repo.tag("v\(version)")
        }
        try repo.commit("fix: timeline", file: "a.txt")
        let problem = "app/build.gradle:4: the next version 1.9.0 is lower than 29.0, the version this file holds, and the stores refuse a version below the last one; tags v29.0, v2.0 are above v1.8.0 but are not versions of versionScheme semver (MAJOR.MINOR.PATCH such as 1.3.0): if the app numbers its versions that way, set \"versionScheme\": \"major.minor\" in .relctl.json (MAJOR.MINOR such as 1.3) and commit it, so releases continue from v29.0"
        let next = relctl(["next"], in: repo.path)
        #expect(next.stdout == "1.9.0\n")
        #expect(next.stderr == "warning: \(problem); 'relctl release' will refuse it\n", "\(next.stderr)")
        try expectReleaseRefused(repo, contains: problem)
        // The advice works: in two parts, the release continues from v29.0 (v1.8.0 is now the other scheme).
        try writeConfig(repo, files: [("app/build.gradle", "gradle")], extra: "\"versionScheme\": \"major.minor\"")
        try repo.commitAll("chore: two-part versions")
        let released = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "29.1\n")
        try repo.git(["reset", "-q", "--hard", "HEAD~2"])
        try repo.git(["tag", "-d", "v29.1"])
        // Without version files, next still says why it continues from v1.8.0.
        try repo.write(".relctl.json", "{}\n")
        try repo.commitAll("chore: no version files")
        #expect(relctl(["next"], in: repo.path).stderr == "note: tags v29.0, v2.0 match tagFormat \"v{version}\" and are above v1.8.0 but are not versions of versionScheme semver (MAJOR.MINOR.PATCH such as 1.3.0), so the release continues from v1.8.0\n")
        // The fix works: re-tagged in the scheme, releases continue from 29.0.0.
        try repo.git(["tag", "-a", "v29.0.0", "v29.0^{}", "-m", "v29.0.0"])
        #expect(relctl(["next"], in: repo.path).stdout == "29.0.1\n")
    }

    @Test func aReleaseEqualToTheFilesIsRefused() throws {
        // The files were set to 1.3.0 by hand after v1.2.0; the next release would be 1.3.0 again.
        let repo = try appRepository(["package.json": packageJSON("1.2.0")], entries: [("package.json", "json")])
        try repo.tag("v1.2.0")
        try repo.write("package.json", packageJSON("1.3.0"))
        try repo.commitAll("feat: new screens, version 1.3.0")
        let problem = "package.json:3: the next version 1.3.0 is the version this file already holds, and App Store Connect refuses a version it already has; if 1.3.0 is out, run 'relctl adopt' to tag it as released (then this release becomes the next one), and if it is not, put the files back to 1.2.0 (relctl sync 1.2.0 --allow-downgrade) and commit"
        let next = relctl(["next"], in: repo.path)
        #expect(next.stdout == "1.3.0\n")
        #expect(next.stderr == "warning: \(problem); 'relctl release' will refuse it\n", "\(next.stderr)")
        try expectReleaseRefused(repo, contains: problem)
    }

    @Test func theFirstReleaseMayBeTheVersionANewAppHolds() throws {
        let repo = try appRepository(["package.json": packageJSON("1.0.0")], entries: [("package.json", "json")])
        try repo.commit("feat: first screen", file: "a.txt")
        let released = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], released, matches: "release/first-release-of-the-version-the-files-hold.txt", repo: repo)
        #expect(try repo.git(["rev-parse", "v1.0.0^{commit}"]).trimmingCharacters(in: .newlines) == (try repo.head()))
    }

    @Test func theFinalReleaseAfterItsBetasIsNotEqual() throws {
        // Synced to 1.3.0-beta.1: package.json keeps the whole version, app.json (iOS) the core 1.3.0.
        let repo = try appRepository(["app.json": expoAppJSON, "package.json": packageJSON("1.2.0")],
                                     entries: [("app.json", "expo"), ("package.json", "json")])
        try repo.tag("v1.2.0")
        try repo.commit("feat: trails", file: "a.txt")
        #expect(relctl(["sync", "1.3.0-beta.1"], in: repo.path).code == 0)
        try repo.commitAll("chore: beta 1.3.0-beta.1")
        try repo.tag("v1.3.0-beta.1")
        let released = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "1.3.0\n")
        #expect(try repo.read("package.json") == packageJSON("1.3.0"))
    }

    @Test func syncRefusesALowerVersionUnlessAllowed() throws {
        let repo = try appRepository(["app.json": expoAppJSON, "package.json": packageJSON("1.2.0")],
                                     entries: [("app.json", "expo"), ("package.json", "json")])
        let before = try repo.snapshot()
        for arguments in [["sync", "1.1.9"], ["sync", "1.1.9", "--dry-run"]] {
            let refused = relctl(arguments, in: repo.path)
            #expect(refused.code == 1)
            #expect(refused.stderr == "error: app.json:5: 1.1.9 is lower than 1.2.0, the version this file holds, and the stores refuse a version below the last one; nothing was written (pass --allow-downgrade to write it anyway, e.g. to undo a mistaken sync)\n", "\(refused.stderr)")
        }
        // A prerelease of the held version is lower too: app.json (iOS) holds the core, package.json decides.
        #expect(relctl(["sync", "1.2.0-beta.1"], in: repo.path).code == 1)
        #expect(try repo.snapshot() == before)
        let allowed = relctl(["sync", "1.1.9", "--allow-downgrade"], in: repo.path)
        #expect(allowed.code == 0, "\(allowed.stderr)")
        #expect(allowed.stderr.hasPrefix("warning: 1.1.9 is lower than 1.2.0 in app.json:5; it was written anyway (--allow-downgrade)\n"))
        #expect(try repo.read("package.json") == packageJSON("1.1.9"))
    }

    @Test func buildNumbersNeverGoDown() throws {
        let repo = try appRepository(["app.json": expoAppJSON, "package.json": packageJSON("1.2.0")],
                                     entries: [("app.json", "expo"), ("package.json", "json")])
        try repo.tag("v1.2.0")
        try repo.commit("fix: a", file: "a.txt")
        let sync = relctl(["sync", "1.2.1", "--build", "5"], in: repo.path)
        #expect(sync.code == 1)
        // iOS builds start again at a new version (1.2.1); versionCode never goes down.
        #expect(sync.stderr.hasPrefix("error: app.json:\(lineOf("versionCode", in: expoAppJSON)): Android versionCode 5 is not greater than the current 12"), "\(sync.stderr)")
        let release = relctl(["release", "--build", "5"], in: repo.path, environment: fixedDate)
        expectTranscript(["release", "--build", "5"], release, matches: "release/build-number-below-the-current.txt", repo: repo)
        let bad = relctl(["release", "--build", "x"], in: repo.path)
        #expect(bad.code == 1)
        #expect(bad.stderr.hasPrefix("error: --build 'x' is not a positive whole number"))
        // --build with a higher number sets both stores for this release.
        let released = relctl(["release", "--build", "40"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(try repo.read("app.json") == expoAppJSON(version: "1.2.1", build: 40))
    }
}

/// An iOS-only app whose CFBundleVersion has four parts, as some apps carry in their history.
let fourPartInfoPlist = """
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
\t<key>CFBundleDisplayName</key>
\t<string>Jelly</string>
\t<key>CFBundleShortVersionString</key>
\t<string>1.7.0</string>
\t<key>CFBundleVersion</key>
\t<string>1.7.0.4</string>
</dict>
</plist>

"""

@Suite("four-part iOS build numbers")
struct FourPartBuildTests {
    @Test func theIncrementSaysWhatToSetAndReleaseTakesIt() throws {
        let repo = try appRepository(["ios/Jelly/Info.plist": fourPartInfoPlist], entries: [("ios/Jelly/Info.plist", "plist")])
        try repo.tag("v1.7.0")
        try repo.commit("fix: playback", file: "a.txt")
        let current = relctl(["current"], in: repo.path)
        let refused = relctl(["release"], in: repo.path, environment: fixedDate)
        // The four parts shown as they are; the refusal says which build to set once, and how.
        expectTranscript([(["current"], current), (["release"], refused)], matches: "release/four-part-ios-build.txt", repo: repo)

        let released = relctl(["release", "--build", "1.7.1"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(try repo.read("ios/Jelly/Info.plist") == fourPartInfoPlist.replacingOccurrences(of: "<string>1.7.0</string>", with: "<string>1.7.1</string>")
            .replacingOccurrences(of: "1.7.0.4", with: "1.7.1"))
        try repo.commit("fix: subtitles", file: "a.txt")
        #expect(relctl(["release"], in: repo.path, environment: fixedDate).code == 0)
        #expect(try repo.read("ios/Jelly/Info.plist") == fourPartInfoPlist.replacingOccurrences(of: "<string>1.7.0</string>", with: "<string>1.7.2</string>")
            .replacingOccurrences(of: "1.7.0.4", with: "1.7.2"))
    }
}
