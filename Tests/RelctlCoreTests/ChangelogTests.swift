import Testing
import RelctlTestSupport
@testable import RelctlCore

/// Analyzes `messages` given oldest first (as one reads a changelog) and returns the commits newest first.
private func analyzed(_ messages: [(String, String)], rules: ReleaseRules = .default) -> [AnalyzedCommit] {
    let raw = messages.reversed().map { RawCommit(sha: sha($0.0), message: $0.1) }
    return CommitAnalyzer.analyze(raw, rules: rules).commits
}

private let github = RemoteLinks.parse("git@github.com:acme/app.git")

@Suite("ChangelogRenderer")
struct ChangelogRendererTests {
    let commits = analyzed([
        ("a1b2c3d", "feat(api)!: tokens expire after 1 hour\n\nBREAKING CHANGE: clients must refresh tokens;\nsee the migration guide."),
        ("b2c3d4e", "feat(ui): dark mode"),
        ("c3d4e5f", "docs: readme"),
        ("d4e5f6a", "fix: crash on launch"),
        ("e4f5a6b", "feat: offline sync"),
        ("f5a6b7c", "chore: bump deps"),
        ("0a1b2c3", "perf(db): faster queries"),
        ("1b2c3d4", "fix!: drop iOS 15"),
        ("2c3d4e5", "random words"),
    ])

    @Test func goldenWithLinks() {
        let text = ChangelogRenderer.section(version: "1.3.0", previousTag: "v1.2.0", tag: "v1.3.0", date: "2026-11-29",
                                             commits: commits, settings: .default, links: github)
        let c = "https://github.com/acme/app/commit/"
        #expect(text == """
            ## [1.3.0](https://github.com/acme/app/compare/v1.2.0...v1.3.0) (2026-11-29)

            ### Breaking changes

            * **api:** tokens expire after 1 hour ([a1b2c3d](\(c)\(sha("a1b2c3d"))))
              clients must refresh tokens;
              see the migration guide.
            * drop iOS 15 ([1b2c3d4](\(c)\(sha("1b2c3d4"))))

            ### Features

            * **ui:** dark mode ([b2c3d4e](\(c)\(sha("b2c3d4e"))))
            * offline sync ([e4f5a6b](\(c)\(sha("e4f5a6b"))))

            ### Bug fixes

            * crash on launch ([d4e5f6a](\(c)\(sha("d4e5f6a"))))

            ### Performance

            * **db:** faster queries ([0a1b2c3](\(c)\(sha("0a1b2c3"))))


            """)
    }

    @Test func goldenWithoutLinks() {
        let text = ChangelogRenderer.section(version: "1.3.0", previousTag: "v1.2.0", tag: "v1.3.0", date: "2026-11-29",
                                             commits: commits, settings: .default, links: nil)
        #expect(text == """
            ## 1.3.0 (2026-11-29)

            ### Breaking changes

            * **api:** tokens expire after 1 hour (a1b2c3d)
              clients must refresh tokens;
              see the migration guide.
            * drop iOS 15 (1b2c3d4)

            ### Features

            * **ui:** dark mode (b2c3d4e)
            * offline sync (e4f5a6b)

            ### Bug fixes

            * crash on launch (d4e5f6a)

            ### Performance

            * **db:** faster queries (0a1b2c3)


            """)
    }

    @Test func noCompareLinkWithoutPreviousTag() {
        let text = ChangelogRenderer.section(version: "1.0.0", previousTag: nil, tag: "v1.0.0", date: "2026-01-02",
                                             commits: analyzed([("abcdef0", "feat: first")]), settings: .default, links: github)
        #expect(text == """
            ## 1.0.0 (2026-01-02)

            ### Features

            * first ([abcdef0](https://github.com/acme/app/commit/\(sha("abcdef0"))))


            """)
    }

    @Test func gitlabLinks() throws {
        let links = try #require(RemoteLinks.parse("https://gitlab.com/group/sub/app.git"))
        let text = ChangelogRenderer.section(version: "2.0.0", previousTag: "v1.9.0", tag: "v2.0.0", date: "2026-01-02",
                                             commits: analyzed([("abcdef0", "fix: x")]), settings: .default, links: links)
        #expect(text.hasPrefix("## [2.0.0](https://gitlab.com/group/sub/app/-/compare/v1.9.0...v2.0.0) (2026-01-02)\n"))
        #expect(text.contains("([abcdef0](https://gitlab.com/group/sub/app/-/commit/\(sha("abcdef0"))))\n"))
    }

    @Test func noEntries() {
        let text = ChangelogRenderer.section(version: "1.2.1", previousTag: "v1.2.0", tag: "v1.2.1", date: "2026-03-04",
                                             commits: analyzed([("abcdef0", "chore: x"), ("bcdef01", "docs: y")]),
                                             settings: .default, links: nil)
        #expect(text == "## 1.2.1 (2026-03-04)\n\nNo user-facing changes.\n\n")
    }

    @Test func breakingFooterEqualToDescriptionIsNotRepeated() {
        let text = ChangelogRenderer.section(version: "2.0.0", previousTag: nil, tag: "v2.0.0", date: "d",
                                             commits: analyzed([("abcdef0", "feat!: new api\n\nBREAKING CHANGE: new api")]),
                                             settings: .default, links: nil)
        #expect(text == "## 2.0.0 (d)\n\n### Breaking changes\n\n* new api (abcdef0)\n\n")
    }

    @Test func breakingCommitOfAnyTypeAppearsOnlyUnderBreakingChanges() {
        let text = ChangelogRenderer.section(version: "2.0.0", previousTag: nil, tag: "v2.0.0", date: "d",
                                             commits: analyzed([("abcdef0", "refactor!: rename module")]),
                                             settings: .default, links: nil)
        #expect(text == "## 2.0.0 (d)\n\n### Breaking changes\n\n* rename module (abcdef0)\n\n")
    }

    @Test func configuredTypesAppearEvenWhenTheyBumpNothing() {
        var settings = ChangelogSettings.default
        settings.groups.append(ChangelogGroup(title: "Documentation", types: ["DOCS"]))
        settings.breakingChangesTitle = "⚠ BREAKING"
        settings.groups[0].title = "New"
        let text = ChangelogRenderer.section(version: "1.1.0", previousTag: nil, tag: "v1.1.0", date: "d",
                                             commits: analyzed([("abcdef0", "docs: guide"), ("bcdef01", "feat: x"),
                                                                ("cdef012", "feat!: y"), ("def0123", "chore: z")]),
                                             settings: settings, links: nil)
        #expect(text == """
            ## 1.1.0 (d)

            ### ⚠ BREAKING

            * y (cdef012)

            ### New

            * x (bcdef01)

            ### Documentation

            * guide (abcdef0)


            """)
    }

    @Test func outOfRangeRevertsAreListedUnlessDisabled() {
        let commits = analyzed([
            ("abcdef0", "feat: kept"),
            ("bcdef01", "Revert \"feat: old thing\"\n\nThis reverts commit 9999999999999999999999999999999999999999.\n"),
            ("cdef012", "feat: dropped"),
            ("def0123", "Revert \"feat: dropped\"\n\nThis reverts commit \(sha("cdef012")).\n"),
        ])
        let text = ChangelogRenderer.section(version: "1.1.0", previousTag: nil, tag: "v1.1.0", date: "d",
                                             commits: commits, settings: .default, links: nil)
        #expect(text == """
            ## 1.1.0 (d)

            ### Features

            * kept (abcdef0)

            ### Reverts

            * Revert "feat: old thing" (bcdef01)


            """)
        var settings = ChangelogSettings.default
        settings.revertsTitle = nil
        let without = ChangelogRenderer.section(version: "1.1.0", previousTag: nil, tag: "v1.1.0", date: "d",
                                                commits: commits, settings: settings, links: nil)
        #expect(without == "## 1.1.0 (d)\n\n### Features\n\n* kept (abcdef0)\n\n")
    }

    @Test func markdownInDescriptionsIsKeptButCannotBreakTheStructure() {
        let injected = AnalyzedCommit(sha: sha("abcdef0"), summary: "feat: a",
                                      message: ConventionalMessage(type: "feat", description: "two\n## 9.9.9\nlines"),
                                      bump: .minor, status: .counted, isConventional: true)
        let commits = analyzed([("bcdef01", "fix: # not a *heading* [link](x)")]) + [injected]
        let text = ChangelogRenderer.section(version: "1.1.0", previousTag: nil, tag: "v1.1.0", date: "d",
                                             commits: commits, settings: .default, links: nil)
        #expect(text == """
            ## 1.1.0 (d)

            ### Features

            * two ## 9.9.9 lines (abcdef0)

            ### Bug fixes

            * # not a *heading* [link](x) (bcdef01)


            """)
        #expect(!ChangelogFile.containsVersion("9.9.9", in: text))
    }

    @Test func mergesFixupsAndNonConventionalCommitsAreLeftOut() {
        let raw = [
            RawCommit(sha: sha("abcdef0"), message: "Merge branch 'x'\n", parentCount: 2),
            RawCommit(sha: sha("bcdef01"), message: "fixup! feat: x"),
            RawCommit(sha: sha("cdef012"), message: "update stuff"),
            RawCommit(sha: sha("def0123"), message: "feat: real"),
        ]
        let commits = CommitAnalyzer.analyze(raw, rules: .default).commits
        let text = ChangelogRenderer.section(version: "1.1.0", previousTag: nil, tag: "v1.1.0", date: "d",
                                             commits: commits, settings: .default, links: nil)
        #expect(text == "## 1.1.0 (d)\n\n### Features\n\n* real (def0123)\n\n")
    }
}

@Suite("ChangelogFile")
struct ChangelogFileTests {
    let section = "## 1.3.0 (2026-11-29)\n\n### Features\n\n* x (abcdef0)\n\n"

    @Test func noFile() {
        #expect(ChangelogFile.prepend(section: section, to: nil) == "# Changelog\n\n" + section)
        #expect(ChangelogFile.prepend(section: section, to: "") == "# Changelog\n\n" + section)
    }

    @Test func titleOnly() {
        #expect(ChangelogFile.prepend(section: section, to: "# Changelog\n") == "# Changelog\n\n" + section)
        #expect(ChangelogFile.prepend(section: section, to: "# Changelog\n\n") == "# Changelog\n\n" + section)
    }

    @Test func titleIntroAndOlderSections() {
        let existing = """
            # Changelog

            All notable changes.  
            Trailing spaces kept.

            ```
            ## not a heading inside a fence
            ```

            ## [1.2.0](https://github.com/acme/app/compare/v1.1.0...v1.2.0) (2026-10-01)

            ### Features

            * y (bcdef01)

            ## 1.1.0 (2026-09-01)

            No user-facing changes.

            """
        let result = ChangelogFile.prepend(section: section, to: existing)
        let split = existing.firstRange(of: "## [1.2.0]")!.lowerBound
        #expect(result == String(existing[..<split]) + section + String(existing[split...]))
    }

    @Test func headingDirectlyAfterTitleGetsABlankLine() {
        #expect(ChangelogFile.prepend(section: section, to: "# Changelog\n## 1.2.0 (d)\n")
            == "# Changelog\n\n" + section + "## 1.2.0 (d)\n")
    }

    @Test func crlfFile() {
        let existing = "# Changelog\r\n\r\nIntro.\r\n\r\n## 1.2.0 (2026-10-01)\r\n\r\n* y (bcdef01)\r\n"
        let expected = "# Changelog\r\n\r\nIntro.\r\n\r\n"
            + "## 1.3.0 (2026-11-29)\r\n\r\n### Features\r\n\r\n* x (abcdef0)\r\n\r\n"
            + "## 1.2.0 (2026-10-01)\r\n\r\n* y (bcdef01)\r\n"
        let result = ChangelogFile.prepend(section: section, to: existing)
        #expect(Array(result.utf8) == Array(expected.utf8))
    }

    @Test func crlfTitleOnlyWithoutFinalNewline() {
        let result = ChangelogFile.prepend(section: section, to: "# Changelog\r\nIntro.")
        #expect(Array(result.utf8) == Array(("# Changelog\r\nIntro.\r\n\r\n"
            + "## 1.3.0 (2026-11-29)\r\n\r\n### Features\r\n\r\n* x (abcdef0)\r\n\r\n").utf8))
    }

    @Test func fileWithoutFinalNewline() {
        #expect(ChangelogFile.prepend(section: section, to: "# Changelog") == "# Changelog\n\n" + section)
        #expect(ChangelogFile.prepend(section: section, to: "# Changelog\n\n## 1.2.0 (d)\n\n* y (bcdef01)")
            == "# Changelog\n\n" + section + "## 1.2.0 (d)\n\n* y (bcdef01)")
    }

    @Test func fileWithoutTitle() {
        #expect(ChangelogFile.prepend(section: section, to: "## 1.2.0 (d)\n") == section + "## 1.2.0 (d)\n")
        // A byte-order mark stays the first thing in the file.
        #expect(ChangelogFile.prepend(section: section, to: "\u{FEFF}## 1.2.0 (d)\n") == "\u{FEFF}" + section + "## 1.2.0 (d)\n")
    }

    @Test func containsVersion() {
        let text = "# Changelog\n\n## [1.3.0](https://x) (d)\n\n## 1.2.0 (d)\r\n\n## 1.1.0\n\n### 1.0.0\n\n```\n## 0.9.0\n```\n"
        #expect(ChangelogFile.containsVersion("1.3.0", in: text))
        #expect(ChangelogFile.containsVersion("1.2.0", in: text))
        #expect(ChangelogFile.containsVersion("1.1.0", in: text))
        #expect(!ChangelogFile.containsVersion("1.0.0", in: text))
        #expect(!ChangelogFile.containsVersion("0.9.0", in: text))
        #expect(!ChangelogFile.containsVersion("1.3", in: text))
        #expect(!ChangelogFile.containsVersion("1.2.0", in: "## 1.2.0-rc.1 (d)\n## [1.2.0-rc.1](x)\n## 1.2.01\n"))
        #expect(!ChangelogFile.containsVersion("", in: text))
        // Keep a Changelog files labelled by tag.
        #expect(ChangelogFile.containsVersion("1.3.0", in: "## [Unreleased]\n\n## [v1.3.0] - 2026-11-30\n"))
        #expect(ChangelogFile.containsVersion("1.3.0", in: "## V1.3.0\n"))
        #expect(!ChangelogFile.containsVersion("1.3.0", in: "## [vv1.3.0]\n## version 1.3.0\n"))
        #expect(ChangelogFile.containsVersion("1.3.0", in: ChangelogFile.prepend(section: section, to: text)))
    }

    @Test func anUnclosedFenceInABreakingDetailDoesNotHideOlderSections() {
        let newer = ChangelogRenderer.section(version: "2.0.0", previousTag: nil, tag: "v2.0.0", date: "d",
                                              commits: analyzed([("abcdef0", "feat!: x\n\nBREAKING CHANGE: run\n```sh")]),
                                              settings: .default, links: nil)
        #expect(newer.contains("\n  ```sh\n"))
        let file = ChangelogFile.prepend(section: newer, to: "# Changelog\n\n## 1.0.0 (d)\n")
        #expect(ChangelogFile.containsVersion("1.0.0", in: file))
        let next = ChangelogFile.prepend(section: section, to: file)
        #expect(next == "# Changelog\n\n" + section + newer + "## 1.0.0 (d)\n")
    }
}

@Suite("ReleaseNotes")
struct ReleaseNotesTests {
    @Test func tagMessageIsPlainText() {
        let commits = analyzed([
            ("a1b2c3d", "feat(api)!: tokens expire\n\nBREAKING CHANGE: refresh them"),
            ("b2c3d4e", "feat(ui): dark mode"),
            ("e4f5a6b", "fix: [link](x) stays ([abc](y))"),
        ])
        let section = ChangelogRenderer.section(version: "2.0.0", previousTag: "v1.2.0", tag: "v2.0.0", date: "2026-11-29",
                                                commits: commits, settings: .default, links: github)
        #expect(ReleaseNotes.tagMessage(version: "v2.0.0", section: section) == """
            v2.0.0

            Breaking changes:
            - api: tokens expire (a1b2c3d)
              refresh them

            Features:
            - ui: dark mode (b2c3d4e)

            Bug fixes:
            - [link](x) stays ([abc](y)) (e4f5a6b)

            """)
    }

    @Test func emptySectionAndCRLF() {
        let section = "## 1.2.1 (d)\r\n\r\nNo user-facing changes.\r\n\r\n"
        #expect(ReleaseNotes.tagMessage(version: "v1.2.1", section: section) == "v1.2.1\n\nNo user-facing changes.\n")
    }

    @Test func noLineStartsWithHash() {
        let section = ChangelogRenderer.section(version: "1.0.0", previousTag: nil, tag: "v1.0.0", date: "d",
                                                commits: analyzed([("abcdef0", "feat: x"), ("bcdef01", "fix: y")]),
                                                settings: .default, links: nil)
        let message = ReleaseNotes.tagMessage(version: "v1.0.0", section: section)
        #expect(message == "v1.0.0\n\nFeatures:\n- x (abcdef0)\n\nBug fixes:\n- y (bcdef01)\n")
        #expect(!message.split(separator: "\n").contains { $0.hasPrefix("#") })
    }
}

@Suite("Changelog file with a byte-order mark")
struct ChangelogBOMTests {
    @Test func theMarkStaysFirstAndTheSectionGoesBeforeTheFirstRelease() {
        let existing = "\u{FEFF}## 1.0.0 (2026-01-01)\n\n* first\n"
        let updated = ChangelogFile.prepend(section: "## 1.1.0 (2026-02-01)\n\n* second\n\n", to: existing)
        #expect(updated == "\u{FEFF}## 1.1.0 (2026-02-01)\n\n* second\n\n## 1.0.0 (2026-01-01)\n\n* first\n")
        #expect(Array(updated.utf8).prefix(3) == [0xEF, 0xBB, 0xBF])
    }
}

/// The release notes and the dry run's text split lines and read entries byte-wise; they must read them exactly as
/// the `Character`-wise code did (which stays for what is not plain ASCII).
@Suite("Byte-wise lines and entries")
struct ByteWiseLinesTests {
    @Test(arguments: ["", "\n", "a", "a\nb", "a\n\nb\n", "a\r\nb\nc\r\n", "\r\n\n\r", "é\n\u{301}x\n", "x\n\u{301}\n",
                      "line\u{2028}other\nlast", "\r", "\n\n"])
    func linesAreSplitWhereCharactersAre(_ text: String) {
        #expect(text.lineFeedSeparatedLines() == text.split(separator: "\n", omittingEmptySubsequences: false))
    }

    @Test func entriesWithMarksAndOddLinksReadAsBefore() {
        let section = "## 1.0.0 (d)\n\n### Features\n\n* **é:** café ([abc1234](u))\n* **\u{301}x:** y ([abc1234](u))\n"
            + "* **s:** t ([xyz](u))\n* plain ([ab](u)) more\n* **a:** b ([](u))\n* **k:**no space ([12](u))\n\n"
        #expect(ReleaseNotes.tagMessage(version: "v1.0.0", section: section) == """
            v1.0.0

            Features:
            - é: café (abc1234)
            - **\u{301}x:** y (abc1234)
            - s: t ([xyz](u))
            - plain ([ab](u)) more
            - a: b ([](u))
            - **k:**no space (12)

            """)
    }

    @Test func oneLineKeepsTextWithoutBreaksAndJoinsEveryKind() {
        #expect(ChangelogRenderer.oneLine("café — ünïcode") == "café — ünïcode")
        #expect(ChangelogRenderer.oneLine("a\u{2028}b\u{85}c\r\nd\u{0B}e") == "a b c d e")
    }
}
