import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// `relctl release` and `relctl changelog` on an app whose CHANGELOG.md is kept in the Keep a Changelog style:
// the release goes where `## [Unreleased]` stands, with its hand-written entries and its links brought up to date.

/// 2026-11-30, the date of the golden files.
private let releaseDay = ["SOURCE_DATE_EPOCH": "1796040000"]

/// A golden Keep a Changelog file (`.before` or `.after`) as text.
private func keepAChangelogFixture(_ name: String) throws -> String {
    let url = GoldenFixtures.root.appendingPathComponent("keep-a-changelog/" + name)
    return try #require(String(validating: Array(try Data(contentsOf: url)), as: UTF8.self))
}

/// The Expo app at v1.2.0 with the `github-links` Keep a Changelog file, origin on GitHub, then a feat and a fix
/// (the commits of the golden files).
private func appWithKeepAChangelog(_ fixture: String = "github-links") throws -> (repo: TestRepository, feat: String, fix: String) {
    let repo = try ReleaseApp.expo.make()
    try repo.git(["remote", "add", "origin", "git@github.com:acme/trail.git"])
    try repo.write("CHANGELOG.md", try keepAChangelogFixture(fixture + ".before"))
    try repo.commitAll("docs: changelog in the Keep a Changelog style")
    let feat = try repo.commit("feat(ui): dark mode", file: "src/theme.ts")
    let fix = try repo.commit("fix(sync): retry after a timeout", file: "src/sync.ts")
    return (repo, feat, fix)
}

/// The golden `.after` file with the real commits in place of the fixtures' made-up ones.
private func expectedAfter(_ fixture: String, feat: String, fix: String) throws -> String {
    let zeros = String(repeating: "0", count: 33)
    return try keepAChangelogFixture(fixture + ".after")
        .replacingOccurrences(of: "a1b2c3d" + zeros, with: feat)
        .replacingOccurrences(of: "b2c3d4e" + zeros, with: fix)
        .replacingOccurrences(of: "[a1b2c3d]", with: "[\(feat.prefix(7))]")
        .replacingOccurrences(of: "[b2c3d4e]", with: "[\(fix.prefix(7))]")
}

@Suite("relctl release with a Keep a Changelog file")
struct KeepAChangelogReleaseTests {
    @Test func releaseTurnsUnreleasedIntoTheReleaseAndChangelogPrintsIt() throws {
        let (repo, feat, fix) = try appWithKeepAChangelog()
        let printed = relctl(["changelog"], in: repo.path, environment: repo.gitEnvironment().merging(releaseDay) { $1 })
        let preview = relctl(["changelog", "--unreleased"], in: repo.path, environment: repo.gitEnvironment().merging(releaseDay) { $1 })
        // The hand-written entries first, then the commits' groups, as the release and as Unreleased.
        expectTranscript([(["changelog"], printed), (["changelog", "--unreleased"], preview)], matches: "keep-a-changelog/changelog-and-unreleased.txt", repo: repo)

        let result = try runRelctl(["release"], in: repo.path, environment: repo.gitEnvironment().merging(releaseDay) { $1 })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "1.3.0\n")
        let written = try repo.read("CHANGELOG.md")
        #expect(written == (try expectedAfter("github-links", feat: feat, fix: fix)), "\(written)")
        // What `relctl changelog` printed is the section the release wrote.
        #expect(written.components(separatedBy: printed.stdout.dropLast()).count == 2, "\(printed.stdout)")
        try expectReleased(repo, "1.3.0", parent: fix, files: ["CHANGELOG.md", "app.json", "package.json"])
        // The tag's notes hold the hand-written entries too.
        let notes = try repo.git(["tag", "-l", "--format=%(contents)", "v1.3.0"])
        Golden.expect(goldenSections([("tag message of v1.3.0", notes)]), matches: "keep-a-changelog/tag-notes.txt")

        // The next release goes under the fresh, empty Unreleased heading; the links move on again.
        let patch = try repo.commit("fix(map): blank tiles at zoom 18", file: "src/map.ts")
        let next = relctl(["release"], in: repo.path, environment: repo.gitEnvironment().merging(releaseDay) { $1 })
        #expect(next.code == 0, "\(next.stderr)")
        let again = try repo.read("CHANGELOG.md")
        // The 1.3.1 section under an empty Unreleased, 1.3.0 below it, and the links moved on.
        Golden.expect(goldenSections([("CHANGELOG.md after 1.3.1", again)]), matches: "keep-a-changelog/after-the-next-release.md.txt")
        #expect(again.components(separatedBy: "## [Unreleased]\n\n## [1.3.1] - 2026-11-30\n\n### Bug fixes\n\n- **map:** blank tiles at zoom 18 ([\(patch.prefix(7))]").count == 2, "\(again)")
    }

    @Test func jsonAndDryRunShowTheSectionAsWritten() throws {
        let (repo, _, _) = try appWithKeepAChangelog("added-fixed-merged")
        try repo.write(".relctl.json", initStyleConfig([("app.json", "expo"), ("package.json", "json")])
            .replacingOccurrences(of: "\n  \"files\"", with: """

              "changelog": { "groups": [ { "title": "Added", "types": ["feat"] }, { "title": "Fixed", "types": ["fix"] } ] },
              "files"
            """))
        try repo.commitAll("chore: changelog groups titled as Keep a Changelog's")
        let json = relctl(["release", "--dry-run", "--json"], in: repo.path, environment: repo.gitEnvironment().merging(releaseDay) { $1 })
        #expect(json.code == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let section = try #require(object["changelog"] as? String)
        #expect(section.hasPrefix("## [1.3.0] - 2026-11-30\n\n### Added\n\n- Apple Watch companion app.\n"
                                  + "- Heart-rate zones on the summary screen.\n- **ui:** dark mode ([") , "\(section)")
        let dry = relctl(["release", "--dry-run"], in: repo.path, environment: repo.gitEnvironment().merging(releaseDay) { $1 })
        expectTranscript(["release", "--dry-run"], dry, matches: "keep-a-changelog/release--dry-run-groups-titled-as-keep-a-changelog.txt", repo: repo)
        #expect(dry.stdout.components(separatedBy: "\nchangelog section:\n\n" + section).count == 2, "\(dry.stdout)")
        let real = relctl(["release", "--json"], in: repo.path, environment: repo.gitEnvironment().merging(releaseDay) { $1 })
        #expect(real.code == 0, "\(real.stderr)")
        #expect(try repo.read("CHANGELOG.md").components(separatedBy: section.dropLast()).count == 2)
    }

    @Test func aReleaseThatFailsLeavesTheChangelogAsItWas() throws {
        let (repo, _, _) = try appWithKeepAChangelog("crlf-bom-no-final-newline")
        let before = try repo.snapshot()
        let result = relctl(["release"], in: repo.path, environment: releaseDay.merging(["RELCTL_TEST_FAULT": "after-commit"]) { $1 })
        #expect(result.code == 1)
        #expect(try repo.snapshot() == before)
    }

    @Test func aVersionAlreadyInTheFileIsRefused() throws {
        let (repo, _, _) = try appWithKeepAChangelog("gitlab")
        // Labelled by tag, as this file's releases are: `## [v1.3.0]` is 1.3.0.
        let text = try repo.read("CHANGELOG.md").replacingOccurrences(of: "## [v1.2.0]", with: "## [v1.3.0] - 2026-11-01\n\n## [v1.2.0]")
        try repo.write("CHANGELOG.md", text)
        try repo.commitAll("docs: a section written by hand")
        let before = try repo.snapshot()
        let result = relctl(["release"], in: repo.path, environment: repo.gitEnvironment().merging(releaseDay) { $1 })
        expectTranscript(["release"], result, matches: "keep-a-changelog/version-already-in-the-file.txt", repo: repo)
        #expect(try repo.snapshot() == before)
    }
}
