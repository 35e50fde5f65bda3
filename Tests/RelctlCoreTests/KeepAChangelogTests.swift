import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCore

// Golden before/after files of Keep a Changelog files released as 1.3.0 (tag v1.3.0 after v1.2.0, on
// 2026-11-30, with a feat and a fix), under Tests/RelctlFilesTests/Fixtures/keep-a-changelog (the folder every
// golden fixture of the project lives in; SwiftPM leaves it out of the test targets).

/// The commits of the release, newest first, as the analysis gives them.
private let commits = CommitAnalyzer.analyze([
    RawCommit(sha: sha("c3d4e5f"), message: "chore: bump dependencies"),
    RawCommit(sha: sha("b2c3d4e"), message: "fix(sync): retry after a timeout"),
    RawCommit(sha: sha("a1b2c3d"), message: "feat(ui): dark mode"),
], rules: .default).commits

private let github = RemoteLinks.parse("git@github.com:acme/trail.git")
private let gitlab = RemoteLinks.parse("https://gitlab.com/acme/mobile/trail.git")

/// Groups titled as Keep a Changelog's own.
private let keepAChangelogGroups = ChangelogSettings(groups: [
    ChangelogGroup(title: "Added", types: ["feat"]),
    ChangelogGroup(title: "Fixed", types: ["fix"]),
])

private func makeRelease(settings: ChangelogSettings = .default, links: RemoteLinks?, version: String = "1.3.0",
                     previousTag: String? = "v1.2.0", tag: String = "v1.3.0") -> ChangelogRelease {
    ChangelogRelease(version: version, previousTag: previousTag, tag: tag, date: "2026-11-30", commits: commits,
                     settings: settings, links: links)
}

struct KeepAChangelogCase: CustomTestStringConvertible, Sendable {
    let name: String
    let release: ChangelogRelease
    var testDescription: String { name }

    static let fixtures = FixtureFiles.root.appendingPathComponent("keep-a-changelog")

    func text(_ suffix: String) throws -> String {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(name + "." + suffix))
        return try #require(String(validating: Array(data), as: UTF8.self))
    }

    static let all = [
        KeepAChangelogCase(name: "github-links", release: makeRelease(links: github)),
        KeepAChangelogCase(name: "no-links", release: makeRelease(links: nil)),
        KeepAChangelogCase(name: "crlf-bom-no-final-newline", release: makeRelease(links: github)),
        KeepAChangelogCase(name: "empty-unreleased", release: makeRelease(links: github)),
        KeepAChangelogCase(name: "added-fixed-merged", release: makeRelease(settings: keepAChangelogGroups, links: nil)),
        // The file's GitLab links win over origin (here on GitHub): the links follow the file.
        KeepAChangelogCase(name: "gitlab", release: makeRelease(links: gitlab)),
        KeepAChangelogCase(name: "plain-unreleased", release: makeRelease(links: nil)),
        KeepAChangelogCase(name: "inline-links", release: makeRelease(links: github)),
        KeepAChangelogCase(name: "first-release-section", release: makeRelease(links: github)),
    ]
}

/// Lines split on LF bytes only, so a CR stays part of its line (as a Character, CRLF is one).
private func rawLines(_ text: String) -> [Substring] {
    Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
        .map { Substring(String(decoding: $0, as: UTF8.self)) }
}

/// `true` when `small` appears in `large` in order (not necessarily next to each other).
private func isSubsequence(_ small: [Substring], of large: [Substring]) -> Bool {
    var rest = large[...]
    for line in small {
        guard let found = rest.firstIndex(of: line) else { return false }
        rest = rest[(found + 1)...]
    }
    return true
}

@Suite("Keep a Changelog files: golden before/after")
struct KeepAChangelogGoldenTests {
    @Test(arguments: KeepAChangelogCase.all)
    func releaseGivesTheGoldenFile(_ c: KeepAChangelogCase) throws {
        let before = try c.text("before")
        let after = try c.text("after")
        #expect(before != after)
        let update = ChangelogFile.update(before, with: c.release)
        let identical = Array(update.text.utf8) == Array(after.utf8)
        #expect(identical, "\(c.name) is not the golden file; it reads:\n\(update.text)")
    }

    @Test(arguments: KeepAChangelogCase.all)
    func everyLineOfTheFileIsKeptButTheUnreleasedLinks(_ c: KeepAChangelogCase) throws {
        let before = try c.text("before")
        let update = ChangelogFile.update(before, with: c.release)
        let kept = rawLines(before).filter { !$0.lowercased().hasPrefix("[unreleased]:") && !$0.hasPrefix("## [Unreleased](") }
        #expect(isSubsequence(kept, of: rawLines(update.text)))
        // The line endings, the mark and the end of the file stay the file's own.
        #expect(update.text.hasPrefix("\u{FEFF}") == before.hasPrefix("\u{FEFF}"))
        #expect(update.text.utf8.last == before.utf8.last)
        #expect(update.text.contains("\r\n") == before.contains("\r\n"))
        if before.contains("\r\n") {
            #expect(!rawLines(update.text).dropLast().contains { $0.utf8.last != 0x0D }, "a bare LF in a CRLF file")
        }
    }

    @Test(arguments: KeepAChangelogCase.all)
    func theSectionIsWhatStandsInTheFile(_ c: KeepAChangelogCase) throws {
        let update = ChangelogFile.update(try c.text("before"), with: c.release)
        let written = update.text.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(update.section.hasPrefix("## "))
        #expect(update.section.hasSuffix("\n\n") && !update.section.hasSuffix("\n\n\n"))
        #expect(written.contains(update.section.dropLast()), "\(update.section)")
        #expect(ChangelogFile.containsVersion("1.3.0", in: update.section))
        // Above the new section: the fresh Unreleased heading with nothing under it.
        let top = written[..<written.range(of: update.section.dropLast())!.lowerBound]
        let lastHeading = top.split(separator: "\n").last { $0.hasPrefix("## ") }
        #expect(lastHeading?.lowercased().contains("unreleased") == true)
        #expect(top.split(separator: "\n").last?.hasPrefix("## ") == true, "entries left above the release: \(top)")
    }

    @Test(arguments: KeepAChangelogCase.all)
    func theNextReleaseGoesAboveThisOne(_ c: KeepAChangelogCase) throws {
        let once = ChangelogFile.update(try c.text("before"), with: c.release).text
        var next = c.release
        next.version = "1.4.0"
        next.previousTag = c.release.tag
        next.tag = "v1.4.0"
        let twice = ChangelogFile.update(once, with: next)
        #expect(twice.section.hasPrefix("## 1.4.0") || twice.section.hasPrefix("## [1.4.0]") || twice.section.hasPrefix("## [v1.4.0]"))
        let text = twice.text
        let unreleased = try #require(text.range(of: "Unreleased")?.lowerBound)
        let newer = try #require(text.range(of: "1.4.0")?.lowerBound)
        let older = try #require(text.range(of: "## [1.3.0]") ?? text.range(of: "## 1.3.0") ?? text.range(of: "## [v1.3.0]"))
        #expect(unreleased < newer && newer < older.lowerBound)
        // The hand-written entries stay with the release they went out in.
        #expect(!twice.section.contains("Offline maps") && !twice.section.contains("Sign-in with Apple"))
        if once.lowercased().contains("[unreleased]:") {
            #expect(text.contains("compare/v1.4.0..."), "\(text)")
            #expect(text.contains("compare/v1.3.0...v1.4.0"), "\(text)")
        }
    }
}

@Suite("Keep a Changelog files: detection and edge cases")
struct KeepAChangelogTests {
    @Test func detectsTheUnreleasedHeadingInItsForms() {
        for heading in ["## [Unreleased]", "## [unreleased]", "## [UNRELEASED]", "## Unreleased", "## unreleased",
                        "## [Unreleased](https://github.com/acme/trail/compare/v1.2.0...HEAD)", "## [Unreleased] - ReleaseDate"] {
            #expect(KeepAChangelog("# Changelog\n\n\(heading)\n\n## [1.2.0] - 2026-10-01\n") != nil, "\(heading)")
        }
        for text in [
            "# Changelog\n\n## [1.2.0] - 2026-10-01\n\n## [Unreleased]\n",       // a release above it: not the top
            "# Changelog\n\n```\n## [Unreleased]\n```\n\n## 1.2.0 (d)\n",        // in a code block
            "# Changelog\n\n### Unreleased\n\n## 1.2.0 (d)\n",                   // not level 2
            "# Changelog\n\n## Unreleasedchanges\n",
            "# Changelog\n\n## 1.2.0 (d)\n",
        ] {
            #expect(KeepAChangelog(text) == nil, "\(text)")
        }
        #expect(KeepAChangelog("# Changelog\n\n## Notes\n\nText.\n\n## [Unreleased]\n\n## [1.2.0]\n") != nil)
    }

    @Test func otherChangelogsArePrependedExactlyAsBefore() {
        let existing = "# Changelog\n\n## [1.2.0](https://x) (2026-10-01)\n\n* y\n\n## Unreleased ideas\n"
        let update = ChangelogFile.update(existing, with: makeRelease(links: github))
        let section = makeRelease(links: github).section
        #expect(update.section == section)
        #expect(update.text == ChangelogFile.prepend(section: section, to: existing))
        #expect(ChangelogFile.update(nil, with: makeRelease(links: nil)).text == "# Changelog\n\n" + makeRelease(links: nil).section)
    }

    @Test func textAfterTheDefinitionsStays() {
        let existing = "## [Unreleased]\n\n- Search.\n\n## [1.2.0] - 2026-10-01\n\n"
            + "[unreleased]: https://github.com/acme/trail/compare/v1.2.0...HEAD\n"
            + "[1.2.0]: https://github.com/acme/trail/compare/v1.1.0...v1.2.0\n\n<!-- Links are updated by relctl. -->\n"
        let update = ChangelogFile.update(existing, with: makeRelease(links: nil))
        #expect(update.text.hasSuffix("[unreleased]: https://github.com/acme/trail/compare/v1.3.0...HEAD\n"
            + "[1.3.0]: https://github.com/acme/trail/compare/v1.2.0...v1.3.0\n"
            + "[1.2.0]: https://github.com/acme/trail/compare/v1.1.0...v1.2.0\n\n<!-- Links are updated by relctl. -->\n"))
        #expect(update.text.hasPrefix("## [Unreleased]\n\n## [1.3.0] - 2026-11-30\n\n- Search.\n\n### Features\n\n"))
    }

    @Test func anEmptyUnreleasedSectionStaysEmptyAndNoChangesIsSaid() {
        let existing = "# Changelog\n\n## [Unreleased]\n\n## [1.2.0] - 2026-10-01\n\n- x\n"
        var nothing = makeRelease(links: nil)
        nothing.commits = []
        let update = ChangelogFile.update(existing, with: nothing)
        #expect(update.text == "# Changelog\n\n## [Unreleased]\n\n## [1.3.0] - 2026-11-30\n\nNo user-facing changes.\n\n## [1.2.0] - 2026-10-01\n\n- x\n")
        #expect(update.section == "## [1.3.0] - 2026-11-30\n\nNo user-facing changes.\n\n")
    }

    @Test func handWrittenEntriesAloneNeedNoGeneratedText() {
        let existing = "## [Unreleased]\n### Added\n- Search.\n## [1.2.0]\n"
        var nothing = makeRelease(links: nil)
        nothing.commits = []
        let update = ChangelogFile.update(existing, with: nothing)
        // The file's compact style (no blank lines) is kept; the date follows the newest heading (none).
        #expect(update.text == "## [Unreleased]\n\n## [1.3.0]\n### Added\n- Search.\n## [1.2.0]\n")
        #expect(update.section == "## [1.3.0]\n### Added\n- Search.\n\n")
    }

    @Test func compactFilesGetABlankLineBeforeTheNextRelease() {
        let existing = "## [Unreleased]\n## [1.2.0] - 2026-10-01\n- x"
        let update = ChangelogFile.update(existing, with: makeRelease(links: nil))
        #expect(update.text == "## [Unreleased]\n\n## [1.3.0] - 2026-11-30\n\n### Features\n\n- **ui:** dark mode (a1b2c3d)\n\n"
                + "### Bug fixes\n\n- **sync:** retry after a timeout (b2c3d4e)\n\n## [1.2.0] - 2026-10-01\n- x")
    }

    @Test func aMatchingEmptySubsectionIsFilled() {
        let existing = "## [Unreleased]\n\n### Added\n\n### Fixed\n\n- Typo in the About screen.\n\n## [1.2.0] - 2026-10-01\n"
        let update = ChangelogFile.update(existing, with: makeRelease(settings: keepAChangelogGroups, links: nil))
        #expect(update.section == "## [1.3.0] - 2026-11-30\n\n### Added\n\n- **ui:** dark mode (a1b2c3d)\n\n### Fixed\n\n"
                + "- Typo in the About screen.\n- **sync:** retry after a timeout (b2c3d4e)\n\n")
    }

    @Test func headingStylesFollowTheNewestRelease() {
        let cases: [(String, String)] = [
            ("## [1.2.0] - 2026-10-01", "## [1.3.0] - 2026-11-30"),
            ("## [1.2.0] – 2026-10-01", "## [1.3.0] – 2026-11-30"),
            ("## [1.2.0] - 2026-10-01 [YANKED]", "## [1.3.0] - 2026-11-30"),
            ("## 1.2.0 - 2026-10-01", "## 1.3.0 - 2026-11-30"),
            ("## v1.2.0 (2026-10-01)", "## v1.3.0 (2026-11-30)"),
            ("## [1.2.0]", "## [1.3.0]"),
            ("## [1.2.0] - 1 October 2026", "## [1.3.0] - 2026-11-30"),
            ("## [app-v1.2.0] - 2026-10-01", "## [app-v1.3.0] - 2026-11-30"),
        ]
        for (newest, expected) in cases {
            let update = ChangelogFile.update("## [Unreleased]\n\n\(newest)\n", with: makeRelease(links: nil))
            #expect(update.section.hasPrefix(expected + "\n\n"), "\(newest) → \(update.section)")
        }
        // No release heading yet: Keep a Changelog's own, bracketed like the Unreleased heading.
        #expect(ChangelogFile.update("## Unreleased\n", with: makeRelease(links: nil)).section.hasPrefix("## 1.3.0 - 2026-11-30\n"))
        #expect(ChangelogFile.update("## [Unreleased]\n", with: makeRelease(links: nil)).section.hasPrefix("## [1.3.0] - 2026-11-30\n"))
    }

    @Test func definitionsInOldestFirstOrderGetTheNewOneBeforeUnreleased() {
        let existing = "## [Unreleased]\n\n## [1.2.0] - 2026-10-01\n\n[1.2.0]: https://github.com/acme/trail/compare/v1.1.0...v1.2.0\n"
            + "[unreleased]: https://github.com/acme/trail/compare/v1.2.0...HEAD\n"
        let update = ChangelogFile.update(existing, with: makeRelease(links: nil))
        #expect(update.text.hasSuffix("[1.2.0]: https://github.com/acme/trail/compare/v1.1.0...v1.2.0\n"
            + "[1.3.0]: https://github.com/acme/trail/compare/v1.2.0...v1.3.0\n"
            + "[unreleased]: https://github.com/acme/trail/compare/v1.3.0...HEAD\n"))
    }

    @Test func versionDefinitionsWithoutUnreleasedOneGetTheNewOneFirst() {
        // `## Unreleased` with no link; the versions link to their tags only: origin's compare style is used.
        let existing = "## Unreleased\n\n## [1.2.0] - 2026-10-01\n\n[1.2.0]: https://github.com/acme/trail/releases/tag/v1.2.0\n"
        let update = ChangelogFile.update(existing, with: makeRelease(links: github))
        #expect(update.text.hasSuffix("\n[1.3.0]: https://github.com/acme/trail/compare/v1.2.0...v1.3.0\n"
            + "[1.2.0]: https://github.com/acme/trail/releases/tag/v1.2.0\n"))
        // Without origin's links and no compare link in the file, nothing is guessed.
        let unlinked = ChangelogFile.update(existing, with: makeRelease(links: nil))
        #expect(unlinked.text.hasSuffix("\n\n[1.2.0]: https://github.com/acme/trail/releases/tag/v1.2.0\n"))
    }

    @Test func aFirstReleaseComparesFromWhereTheUnreleasedLinkStarted() {
        // No release tag yet (an app adopting relctl): the file's own link says where the changes start.
        let existing = "## [Unreleased]\n\n- Search.\n\n[unreleased]: https://github.com/acme/trail/compare/0.9.0...HEAD\n"
        let update = ChangelogFile.update(existing, with: makeRelease(links: nil, previousTag: nil))
        #expect(update.text.hasSuffix("[unreleased]: https://github.com/acme/trail/compare/v1.3.0...HEAD\n"
            + "[1.3.0]: https://github.com/acme/trail/compare/0.9.0...v1.3.0\n"))
        // The ref in the link is a URL part: it is decoded, then encoded again, not encoded twice.
        let encoded = existing.replacingOccurrences(of: "0.9.0", with: "trail%200.9")
        #expect(ChangelogFile.update(encoded, with: makeRelease(links: nil, previousTag: nil)).text
            .hasSuffix("[1.3.0]: https://github.com/acme/trail/compare/trail%200.9...v1.3.0\n"))
    }

    @Test func anExistingDefinitionOfTheVersionIsNotRepeated() {
        let existing = "## [Unreleased]\n\n## [1.2.0] - 2026-10-01\n\n[unreleased]: https://github.com/acme/trail/compare/v1.2.0...HEAD\n"
            + "[1.3.0]: https://github.com/acme/trail/compare/v1.2.0...v1.3.0\n"
        let update = ChangelogFile.update(existing, with: makeRelease(links: nil))
        #expect(update.text.components(separatedBy: "[1.3.0]:").count == 2)
    }

    @Test func tagsAreEncodedInTheLinks() {
        let existing = "## [Unreleased]\n\n## [1.2.0] - 2026-10-01\n\n[unreleased]: https://github.com/acme/trail/compare/v1.2.0...HEAD\n"
        let update = ChangelogFile.update(existing, with: makeRelease(links: nil, previousTag: "trail 1.2.0", tag: "trail#1.3.0"))
        #expect(update.text.contains("[unreleased]: https://github.com/acme/trail/compare/trail%231.3.0...HEAD\n"))
        #expect(update.text.contains("[1.3.0]: https://github.com/acme/trail/compare/trail%201.2.0...trail%231.3.0\n"))
    }

    @Test func headingsInsideCodeBlocksOfTheUnreleasedSectionAreText() {
        let existing = "## [Unreleased]\n\n### Changed\n\n- Run this once:\n\n```\n## [0.1.0]\n### Added\n```\n\n## [1.2.0] - 2026-10-01\n"
        let update = ChangelogFile.update(existing, with: makeRelease(settings: keepAChangelogGroups, links: nil))
        #expect(update.section == "## [1.3.0] - 2026-11-30\n\n### Changed\n\n- Run this once:\n\n```\n## [0.1.0]\n### Added\n```\n\n"
                + "### Added\n\n- **ui:** dark mode (a1b2c3d)\n\n### Fixed\n\n- **sync:** retry after a timeout (b2c3d4e)\n\n")
    }

    @Test func unreleasedPreviewShowsTheFileHeadingWithTheEntriesMerged() throws {
        let before = try KeepAChangelogCase(name: "github-links", release: makeRelease(links: github)).text("before")
        var preview = makeRelease(links: github)
        preview.version = "Unreleased"
        preview.tag = "HEAD"
        let section = ChangelogFile.unreleasedSection(before, with: preview)
        #expect(section.hasPrefix("## [Unreleased]\n\n### Added\n\n- Offline maps"))
        #expect(section.contains("- The elevation chart uses metres by default outside the US.\n\n### Features\n\n- **ui:** dark mode"))
        #expect(section.hasSuffix(" ([b2c3d4e](https://github.com/acme/trail/commit/\(sha("b2c3d4e"))))\n\n"))
        #expect(ChangelogFile.unreleasedSection("# Changelog\n", with: preview) == preview.section)
    }

    @Test func releaseNotesReadTheWrittenSection() throws {
        let before = try KeepAChangelogCase(name: "github-links", release: makeRelease(links: github)).text("before")
        let section = ChangelogFile.update(before, with: makeRelease(links: github)).section
        #expect(ReleaseNotes.tagMessage(version: "v1.3.0", section: section) == """
            v1.3.0

            Added:
            - Offline maps for saved trails ([#412](https://github.com/acme/trail/pull/412)).

            Changed:
            - The elevation chart uses metres by default outside the US.

            Features:
            - ui: dark mode (a1b2c3d)

            Bug fixes:
            - sync: retry after a timeout (b2c3d4e)

            """)
    }
}
