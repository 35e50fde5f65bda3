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
        #expect(MajorReleaseNotice.instruction(version: "2.0.0") == "Major release 2.0.0: min_supported_version was NOT changed; "
            + "raise it only once 2.0.0 is live in both stores (App Store and Google Play), "
            + "then run: relctl gate raise-min 2.0.0 --confirm-live (or keep it: relctl gate keep-min --reason \"<why>\")")
        #expect(notice.instruction == MajorReleaseNotice.instruction(version: "2.0.0"))
        #expect(MajorReleaseNotice.haltInstruction(version: "2.0.0") == "Major release 2.0.0 halted: nothing was released "
            + "and min_supported_version was NOT changed. Review the breaking changes in .major-release-pending, "
            + "then run: relctl release --confirm-major")
    }

    @Test func decisionAndTheCommandsThatRecordIt() {
        #expect(notice.decision == "Release 2.0.0 only after reviewing its breaking changes (relctl release --confirm-major "
            + "when relctl halted it). Then, once 2.0.0 is live in both stores (App Store and Google Play), either raise "
            + "min_supported_version to 2.0.0, which blocks every older build, or keep it and say why.")
        #expect(notice.commands == .init(release: "relctl release --confirm-major",
                                         raiseMin: "relctl gate raise-min 2.0.0 --confirm-live",
                                         keepMin: "relctl gate keep-min --reason \"<why>\""))
    }

    @Test func goldenJSON() {
        #expect(notice.json() == """
            {
              "schemaVersion": 1,
              "version": "2.0.0",
              "previousVersion": "1.4.2",
              "tag": "v2.0.0",
              "date": "2026-11-29T10:15:00Z",
              "stores": ["ios", "android"],
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
              "decision": "\(notice.decision)",
              "commands": {
                "release": "relctl release --confirm-major",
                "raiseMin": "relctl gate raise-min 2.0.0 --confirm-live",
                "keepMin": "relctl gate keep-min --reason \\"<why>\\""
              },
              "instruction": "\(notice.instruction.replacingOccurrences(of: "\"", with: "\\\""))"
            }

            """)
    }

    @Test func controlCharactersAreEscapedLikeJSONOutput() {
        let change = MajorReleaseNotice.BreakingChange(sha: "abc", summary: "drop \u{1B}[31mred\u{9B}2J and \u{7F}")
        let commands = MajorReleaseNotice.Commands(release: "r", raiseMin: "u", keepMin: "k")
        let notice = MajorReleaseNotice(
            version: "2.0.0", previousVersion: "1.0.0", tag: "v2.0.0", date: "d", breakingChanges: [change], decision: "y",
            commands: commands, instruction: "x")
        let json = notice.json()
        #expect(json.contains(#""summary": "drop \u001b[31mred\u009b2J and \u007f""#), "\(json)")
        #expect(!json.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || ($0.value >= 0x7F && $0.value <= 0x9F) })
    }

    @Test func emptyAndNullFields() {
        let bare = MajorReleaseNotice(version: "1.0.0", previousVersion: nil, tag: "v1.0.0", date: "d",
                                      breakingChanges: [], decision: "y", commands: .init(release: "r", raiseMin: "u", keepMin: "k"),
                                      instruction: "x")
        #expect(bare.json() == """
            {
              "schemaVersion": 1,
              "version": "1.0.0",
              "previousVersion": null,
              "tag": "v1.0.0",
              "date": "d",
              "stores": ["ios", "android"],
              "breakingChanges": [],
              "decision": "y",
              "commands": {
                "release": "r",
                "raiseMin": "u",
                "keepMin": "k"
              },
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
        changed.decision = "tab\there"
        changed.commands.keepMin = "relctl gate keep-min --reason \"\\\""
        #expect(MajorReleaseNotice.parse(changed.json()) == changed)
    }

    /// A marker written before `decision` and `commands` existed (a major release committed by an older relctl)
    /// still reads, with the defaults for its version.
    @Test func aMarkerWithoutDecisionOrCommandsGetsTheDefaults() throws {
        let text = #"{"schemaVersion":1,"version":"2.0.0","previousVersion":"1.4.2","tag":"v2.0.0","date":"d","breakingChanges":[],"instruction":"i"}"#
        let parsed = try #require(MajorReleaseNotice.parse(text))
        #expect(parsed.decision == MajorReleaseNotice.decision(version: "2.0.0"))
        #expect(parsed.commands == .init(version: "2.0.0"))
        #expect(parsed.instruction == "i")
    }

    /// The stores come from the app's version files; the raise from its gate: none configured, latest below the
    /// release (set-latest first), or ready.
    @Test func theFloorDecisionNamesTheStoresAndTheGateSteps() throws {
        #expect(FloorDecision(stores: [.ios]).storesText() == "the App Store")
        #expect(FloorDecision(stores: [.android]).storesText(loud: true) == "Google Play")
        #expect(FloorDecision(stores: [.android, .ios]).stores == [.ios, .android])
        #expect(FloorDecision(stores: []).storesText() == "every store the app ships to")
        #expect(FloorDecision(stores: [.ios], gate: .notConfigured).raiseCommands(version: "3.0.0") == [])
        #expect(FloorDecision(stores: [.ios], gate: .latestBelow).raiseCommands(version: "3.0.0")
            == ["relctl gate set-latest 3.0.0", "relctl gate raise-min 3.0.0 --confirm-live"])
        let ios = MajorReleaseNotice(version: "3.0.0", previousVersion: "2.1.0", tag: "v3.0.0", date: "d", breakingChanges: [],
                                     floor: FloorDecision(stores: [.ios], gate: .latestBelow))
        #expect(ios.commands == .init(release: "relctl release --confirm-major", setLatest: "relctl gate set-latest 3.0.0",
                                      raiseMin: "relctl gate raise-min 3.0.0 --confirm-live", keepMin: "relctl gate keep-min --reason \"<why>\""))
        #expect(ios.instruction == "Major release 3.0.0: min_supported_version was NOT changed; raise it only once 3.0.0 is live in "
            + "the App Store, then run, in order: relctl gate set-latest 3.0.0, then relctl gate raise-min 3.0.0 --confirm-live "
            + "(or keep it: relctl gate keep-min --reason \"<why>\")")
        #expect(ios.decision.contains("once 3.0.0 is live in the App Store, either raise"))
        #expect(ios.json().contains("  \"stores\": [\"ios\"],\n"))
        #expect(ios.json().contains("    \"setLatest\": \"relctl gate set-latest 3.0.0\",\n    \"raiseMin\": \"relctl gate raise-min 3.0.0 --confirm-live\",\n"))
        #expect(try #require(MajorReleaseNotice.parse(ios.json())) == ios)
        let android = MajorReleaseNotice(version: "3.0.0", previousVersion: nil, tag: "v3.0.0", date: "d", breakingChanges: [],
                                         floor: FloorDecision(stores: [.android], gate: .notConfigured))
        #expect(android.commands.raiseMin == nil)
        #expect(android.json().contains("    \"raiseMin\": null,\n"))
        #expect(!android.instruction.contains("raise-min"))
        #expect(android.decision.hasSuffix("Raising it needs a version gate, and none is configured: add \"gate\" to .relctl.json, such as \"gate\": {\"document\": \"remoteconfig.template.json\", \"format\": \"firebase\"} (see the README's \"Version gate\")."))
        #expect(android.instruction == "Major release 3.0.0: min_supported_version was NOT changed; no version gate is configured, so there is no minimum to raise yet: add \"gate\" to .relctl.json, such as \"gate\": {\"document\": \"remoteconfig.template.json\", \"format\": \"firebase\"} (see the README's \"Version gate\"); relctl status then names the command that raises it once 3.0.0 is live in Google Play (or keep it: relctl gate keep-min --reason \"<why>\")")
        #expect(try #require(MajorReleaseNotice.parse(android.json())) == android)
        // The same release whatever its date and wording: a halt's marker after the gate moved.
        var later = ios
        later.date = "e"
        later.instruction = "other"
        #expect(later.recordsSameRelease(as: ios))
        later.breakingChanges = [.init(sha: "f", summary: "feat!: more")]
        #expect(!later.recordsSameRelease(as: ios))
    }

    @Test func bannerOfAnIOSOnlyAppWithTheLatestBelow() {
        let banner = MajorReleaseNotice(version: "3.0.0", previousVersion: "2.1.0", tag: "v3.0.0", date: "d", breakingChanges: [],
                                        floor: FloorDecision(stores: [.ios], gate: .latestBelow)).banner(colored: false)
        #expect(banner.contains("""
            !!  DECISION NEEDED: raise it only after confirming that 3.0.0
            !!  is live in the App Store.
            !!
            !!  Then run, in order:
            !!      relctl gate set-latest 3.0.0
            !!      relctl gate raise-min 3.0.0 --confirm-live
            !!  or keep it, saying why:
            !!      relctl gate keep-min --reason "<why>"

            """))
        #expect(banner.split(separator: "\n").allSatisfy { $0.count <= 72 })
    }

    @Test func bannerOfAnAndroidOnlyAppWithoutAGate() {
        let banner = MajorReleaseNotice(version: "3.0.0", previousVersion: "2.1.0", tag: "v3.0.0", date: "d", breakingChanges: [],
                                        floor: FloorDecision(stores: [.android], gate: .notConfigured)).banner(colored: false)
        #expect(banner.contains("""
            !!  is live in Google Play.
            !!
            !!  No version gate is configured (no "gate" in .relctl.json), so there
            !!  is no minimum to raise yet. To manage it, add one, e.g.
            !!      "gate": {"document": "remoteconfig.template.json",
            !!               "format": "firebase"}
            !!  (README, "Version gate"); relctl status then names the
            !!  command that raises it.
            !!  or keep it, saying why:

            """))
        #expect(!banner.contains("raise-min"))
        #expect(!banner.contains("App Store"))
        #expect(banner.split(separator: "\n").allSatisfy { $0.count <= 72 })
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
        #"{"schemaVersion":1,"version":"2.0.0","previousVersion":null,"tag":"v","date":"d","breakingChanges":[],"decision":1,"instruction":"i"}"#,
        #"{"schemaVersion":1,"version":"2.0.0","previousVersion":null,"tag":"v","date":"d","breakingChanges":[],"commands":[],"instruction":"i"}"#,
        #"{"schemaVersion":1,"version":"2.0.0","previousVersion":null,"tag":"v","date":"d","breakingChanges":[],"commands":{"release":"r","raiseMin":"u"},"instruction":"i"}"#,
        #"{"schemaVersion":1,"version":"2.0.0","previousVersion":null,"tag":"v","date":"d","stores":["windows"],"breakingChanges":[],"instruction":"i"}"#,
        #"{"schemaVersion":1,"version":"2.0.0","previousVersion":null,"tag":"v","date":"d","stores":"ios","breakingChanges":[],"instruction":"i"}"#,
        #"{"schemaVersion":1,"version":"2.0.0","previousVersion":null,"tag":"v","date":"d","breakingChanges":[],"commands":{"release":"r","setLatest":null,"raiseMin":"u","keepMin":"k"},"instruction":"i"}"#,
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
            !!      relctl gate raise-min 2.0.0 --confirm-live
            !!  or keep it, saying why:
            !!      relctl gate keep-min --reason "<why>"
            !!
            !!  2 breaking changes in this release.
            !!
            ========================================================================
            !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
            !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!

            """)
    }

    /// A halt says so first, with the command that makes the release, above the decision that follows it.
    @Test func haltedBannerPutsTheHaltFirst() {
        let plain = notice.banner(colored: false).split(separator: "\n", omittingEmptySubsequences: false)
        let halted = notice.banner(colored: false, halted: true).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(Array(halted.prefix(6)) == Array(plain.prefix(6)))
        #expect(Array(halted[6..<12]) == [
            "!!",
            "!!  HALTED: nothing is released yet (no commit, no tag). Review the",
            "!!  breaking changes in .major-release-pending, then release with:",
            "!!      relctl release --confirm-major",
            "!!",
            Substring(String(repeating: "=", count: 72)),
        ])
        #expect(Array(halted.dropFirst(12)) == Array(plain.dropFirst(6)))
        #expect(notice.banner(colored: true, halted: true).split(separator: "\n").allSatisfy { $0.hasPrefix("\u{1B}[1;31m") })
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
