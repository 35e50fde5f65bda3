import Testing
@testable import RelctlCore

@Suite("MajorReleaseNotice")
struct MajorReleaseNoticeTests {
    let notice = MajorReleaseNotice(
        version: "2.0.0", previousVersion: "1.4.2", tag: "v2.0.0", date: "2026-11-29T10:15:00Z",
        breakingChanges: [
            .init(sha: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678", summary: "feat(api)!: say \"hi\" \\ bye",
                  detail: "line one\nline two\ttab \u{1} é 🚀"),
            .init(sha: "b2c3d4e5f60718293a4b5c6d7e8f901234567890", summary: "fix!: drop iOS 15"),
        ])

    @Test func instructionText() {
        #expect(MajorReleaseNotice.instruction(version: "2.0.0") == "Major release 2.0.0: min_supported_version was NOT changed. "
            + "Raise it only after confirming that the new build is live in both stores (App Store and Google Play), "
            + "then run: relctl gate raise-min 2.0.0")
        #expect(notice.instruction == MajorReleaseNotice.instruction(version: "2.0.0"))
    }

    @Test func goldenJSON() {
        #expect(notice.json() == """
            {
              "schemaVersion": 1,
              "version": "2.0.0",
              "previousVersion": "1.4.2",
              "tag": "v2.0.0",
              "date": "2026-11-29T10:15:00Z",
              "breakingChanges": [
                {
                  "sha": "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678",
                  "summary": "feat(api)!: say \\"hi\\" \\\\ bye",
                  "detail": "line one\\nline two\\ttab \\u0001 é 🚀"
                },
                {
                  "sha": "b2c3d4e5f60718293a4b5c6d7e8f901234567890",
                  "summary": "fix!: drop iOS 15",
                  "detail": null
                }
              ],
              "instruction": "\(notice.instruction)"
            }

            """)
    }

    @Test func emptyAndNullFields() {
        let bare = MajorReleaseNotice(version: "1.0.0", previousVersion: nil, tag: "v1.0.0", date: "d",
                                      breakingChanges: [], instruction: "x")
        #expect(bare.json() == """
            {
              "schemaVersion": 1,
              "version": "1.0.0",
              "previousVersion": null,
              "tag": "v1.0.0",
              "date": "d",
              "breakingChanges": [],
              "instruction": "x"
            }

            """)
        #expect(MajorReleaseNotice.parse(bare.json()) == bare)
    }

    @Test func roundTrip() {
        #expect(MajorReleaseNotice.parse(notice.json()) == notice)
        var changed = notice
        changed.instruction = "multi\r\nline \"quoted\""
        changed.breakingChanges[1].summary = "\u{2028}\u{7F}"
        #expect(MajorReleaseNotice.parse(changed.json()) == changed)
    }

    @Test func parsesEscapesWrittenByOthersAndIgnoresUnknownKeys() throws {
        let text = """
            {"schemaVersion":1,"extra":[1,2],"version":"2.0.0","previousVersion":null,"tag":"v2.0.0","date":"d",
             "breakingChanges":[{"sha":"abc","summary":"caf\\u00e9 \\ud83d\\ude80 \\/","detail":null}],"instruction":"i"}
            """
        let parsed = try #require(MajorReleaseNotice.parse(text))
        #expect(parsed.breakingChanges == [.init(sha: "abc", summary: "café 🚀 /")])
        #expect(parsed.previousVersion == nil)
    }

    @Test(arguments: [
        "", "null", "[]", "{}", "not json",
        #"{"schemaVersion":2,"version":"2.0.0","previousVersion":null,"tag":"v","date":"d","breakingChanges":[],"instruction":"i"}"#,
        #"{"version":"2.0.0","previousVersion":null,"tag":"v","date":"d","breakingChanges":[],"instruction":"i"}"#,
        #"{"schemaVersion":1,"version":2,"previousVersion":null,"tag":"v","date":"d","breakingChanges":[],"instruction":"i"}"#,
        #"{"schemaVersion":1,"version":"2.0.0","tag":"v","date":"d","breakingChanges":[],"instruction":"i"}"#,
        #"{"schemaVersion":1,"version":"2.0.0","previousVersion":1,"tag":"v","date":"d","breakingChanges":[],"instruction":"i"}"#,
        #"{"schemaVersion":1,"version":"2.0.0","previousVersion":null,"tag":"v","date":"d","breakingChanges":{},"instruction":"i"}"#,
        #"{"schemaVersion":1,"version":"2.0.0","previousVersion":null,"tag":"v","date":"d","breakingChanges":[{"sha":"a","summary":"s"}],"instruction":"i"}"#,
        #"{"schemaVersion":1,"version":"2.0.0","previousVersion":null,"tag":"v","date":"d","breakingChanges":[],"instruction":"i",}"#,
    ])
    func rejects(text: String) {
        #expect(MajorReleaseNotice.parse(text) == nil)
    }

    @Test func breakingChangesFromAnalysis() {
        let raw = [
            RawCommit(sha: "c3", message: "fix!: drop iOS 15"),
            RawCommit(sha: "c2", message: "feat: plain"),
            RawCommit(sha: "c1", message: "feat(api)!: tokens expire\n\nBREAKING CHANGE: refresh them\nBREAKING-CHANGE: tokens expire"),
        ]
        let commits = CommitAnalyzer.analyze(raw, rules: .default).commits
        #expect(MajorReleaseNotice.breakingChanges(in: commits) == [
            .init(sha: "c1", summary: "feat(api)!: tokens expire", detail: "refresh them"),
            .init(sha: "c3", summary: "fix!: drop iOS 15", detail: nil),
        ])
    }

    @Test func plainBanner() {
        #expect(notice.banner(colored: false) == """
            !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
            !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
            !!
            !!  MAJOR RELEASE 2.0.0  (from 1.4.2, tag v2.0.0)
            !!
            ========================================================================
            !!
            !!  min_supported_version has NOT been changed.
            !!
            !!  DECISION NEEDED: raise it only after confirming that 2.0.0
            !!  is live in BOTH stores (App Store and Google Play).
            !!
            !!  Then run:
            !!      relctl gate raise-min 2.0.0
            !!
            !!  2 breaking changes in this release.
            !!
            ========================================================================
            !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
            !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!

            """)
    }

    @Test func coloredBannerIsBoldRedOnEveryLine() {
        let plain = notice.banner(colored: false).split(separator: "\n")
        let colored = notice.banner(colored: true).split(separator: "\n")
        #expect(colored.count == plain.count)
        for (line, original) in zip(colored, plain) {
            #expect(line == "\u{1B}[1;31m" + original + "\u{1B}[0m")
        }
        #expect(notice.banner(colored: true).hasSuffix("\u{1B}[0m\n"))
        #expect(!notice.banner(colored: false).contains("\u{1B}"))
    }

    @Test func bannerNeutralisesControlCharacters() {
        var hostile = notice
        hostile.version = "2.0.0\u{1B}[2J"
        hostile.previousVersion = nil
        let banner = hostile.banner(colored: false)
        #expect(!banner.contains("\u{1B}"))
        #expect(banner.contains("!!  MAJOR RELEASE 2.0.0?[2J  (tag v2.0.0)\n"))
    }
}
