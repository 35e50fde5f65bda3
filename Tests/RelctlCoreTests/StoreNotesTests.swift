import Testing
import RelctlTestSupport
@testable import RelctlCore

/// `messages` oldest first, analysed; newest first as the analysis gives them.
private func analyzed(_ messages: [String]) -> [AnalyzedCommit] {
    let raw = messages.enumerated().reversed().map { RawCommit(sha: sha(String(repeating: "0", count: 6) + String($0.offset + 1)), message: $0.element) }
    return CommitAnalyzer.analyze(raw, rules: .default).commits
}

@Suite("StoreNotes")
struct StoreNotesTests {
    @Test func userFacingTypesInTypeOrderOldestFirst() {
        let commits = analyzed([
            "fix(ui): crash when rotating",
            "feat: dark mode",
            "refactor: split the view model",
            "docs: readme",
            "perf(db): faster start-up",
            "feat(sync)!: offline sync\n\nBREAKING CHANGE: needs a new login",
            "chore: bump deps",
            "fix: Wrong total in the cart",
        ])
        let text = StoreNotes.render(StoreNotes.entries(commits, types: StoreNotes.defaultTypes), limit: 500)
        #expect(text == """
            • Dark mode
            • Offline sync
            • Crash when rotating
            • Wrong total in the cart
            • Faster start-up

            """)
        // Configured types: only fixes, in their order.
        let fixes = StoreNotes.render(StoreNotes.entries(commits, types: ["FIX"]), limit: 500)
        #expect(fixes == "• Crash when rotating\n• Wrong total in the cart\n")
    }

    @Test func revertedAndRevertCommitsAreLeftOut() {
        let commits = analyzed([
            "feat: dark mode",
            "fix: crash on launch",
            "Revert \"feat: dark mode\"\n\nThis reverts commit \(sha("0000001")).",
        ])
        #expect(StoreNotes.render(StoreNotes.entries(commits, types: StoreNotes.defaultTypes), limit: 500)
                == "• Crash on launch\n")
    }

    @Test func noUserFacingChangeWritesTheEmptyText() {
        let commits = analyzed(["refactor: tidy", "docs: readme"])
        let entries = StoreNotes.entries(commits, types: StoreNotes.defaultTypes)
        #expect(entries.isEmpty)
        #expect(StoreNotes.render(entries, limit: 500) == "Bug fixes and improvements.\n")
        #expect(StoreNotes.render(entries, limit: 500, emptyText: "Kleine Verbesserungen.") == "Kleine Verbesserungen.\n")
    }

    /// Lines of exactly `size` characters (with their line break) for the cut tests.
    private func lines(_ count: Int, type: String, size: Int, prefix: String = "x") -> [(type: String, text: String)] {
        (0..<count).map { index in
            let head = "\(prefix)\(index) "
            return (type, head + String(repeating: "a", count: size - StoreNotes.characterCount(head) - 1) + "\n")
        }
    }

    @Test func exactlyAtTheLimitIsNotCut() {
        let five = lines(5, type: "fix", size: 100)
        #expect(StoreNotes.characterCount(five.map(\.text).joined()) == 500)
        #expect(StoreNotes.cut(five, limit: 500) == five.map(\.text).joined())
    }

    @Test func oneOverTheLimitCutsAtAWholeLineWithTheCount() {
        var six = lines(5, type: "fix", size: 100)
        six.append(("fix", "z\n"))
        let text = StoreNotes.cut(six, limit: 500)
        // "…and 2 more fixes\n" is 18 characters: four lines (400) fit beside it, the fifth does not.
        #expect(text == six[0..<4].map(\.text).joined() + "…and 2 more fixes\n")
        #expect(StoreNotes.characterCount(text) <= 500)
    }

    @Test func closingLineNamesWhatWasLeftOut() {
        #expect(StoreNotes.closingLine(["fix"]) == "…and 1 more fix\n")
        #expect(StoreNotes.closingLine(["fix", "fix", "fix"]) == "…and 3 more fixes\n")
        #expect(StoreNotes.closingLine(["feat"]) == "…and 1 more new feature\n")
        #expect(StoreNotes.closingLine(["feat", "feat"]) == "…and 2 more new features\n")
        #expect(StoreNotes.closingLine(["perf", "perf"]) == "…and 2 more performance improvements\n")
        #expect(StoreNotes.closingLine(["feat", "fix"]) == "…and 2 more changes\n")
        #expect(StoreNotes.closingLine(["security"]) == "…and 1 more change\n")
    }

    @Test func mixedTypesLeftOutAreChanges() {
        let list = lines(4, type: "feat", size: 100) + lines(2, type: "fix", size: 100, prefix: "y")
        let text = StoreNotes.cut(list, limit: 500)
        #expect(text == list[0..<4].map(\.text).joined() + "…and 2 more fixes\n")
        let mixed = lines(2, type: "feat", size: 200) + lines(1, type: "fix", size: 100, prefix: "y")
            + lines(1, type: "feat", size: 100, prefix: "z")
        #expect(StoreNotes.cut(mixed, limit: 500) == mixed[0..<2].map(\.text).joined() + "…and 2 more changes\n")
    }

    /// Characters as the stores count them: UTF-16 units. 250 × "é" is 500 characters but 1,000 UTF-8 bytes, and must
    /// not be cut; an emoji outside the BMP counts two.
    @Test func nonASCIICountsCharactersNotBytes() {
        let accented = [("fix", String(repeating: "é", count: 249) + "\n")]
        #expect(StoreNotes.characterCount(accented[0].1) == 250)
        #expect(accented[0].1.utf8.count == 499)
        let german = (0..<12).map { ("fix", "• Größenänderung \($0) überprüft — schneller\n") }
        let germanText = german.map(\.1).joined()
        #expect(StoreNotes.characterCount(germanText) == 494)
        #expect(germanText.utf8.count > 500)
        #expect(StoreNotes.cut(german, limit: 500) == germanText)

        #expect(StoreNotes.characterCount("🎉") == 2)
        #expect(StoreNotes.characterCount("日本語") == 3)
        // 100 lines "• 🎉 日本語のテキスト\n": 2 + 2 + 1 + 8 + 1 = 14 characters each.
        let japanese = (0..<100).map { _ in ("feat", "• 🎉 日本語のテキスト\n") }
        #expect(StoreNotes.characterCount(japanese[0].1) == 14)
        let cut = StoreNotes.cut(japanese, limit: 500)
        // 34 lines (476) + "…and 66 more new features\n" (26) = 502 > 500: 33 lines (462) + "…and 67 more new features\n" (26) = 488.
        #expect(cut == String(repeating: "• 🎉 日本語のテキスト\n", count: 33) + "…and 67 more new features\n")
        #expect(StoreNotes.characterCount(cut) == 488)
    }

    @Test func aFirstLineLongerThanTheLimitIsShortenedAtACharacter() {
        let long = [("fix", String(repeating: "ü", count: 600) + "\n"), ("fix", "short\n")]
        let text = StoreNotes.cut(long, limit: 500)
        #expect(text == String(repeating: "ü", count: 500 - 16 - 2) + "…\n" + "…and 1 more fix\n")
        #expect(StoreNotes.characterCount(text) == 500)
        // An emoji is never split in half.
        let emoji = [("fix", String(repeating: "🎉", count: 300) + "\n")]
        let cutEmoji = StoreNotes.cut(emoji, limit: 500)
        #expect(cutEmoji == String(repeating: "🎉", count: 249) + "…\n")
        #expect(StoreNotes.characterCount(cutEmoji) == 500)
    }

    @Test func appStoreLimitIsFourThousand() {
        let many = (0..<300).map { ("fix", "• Fix number \(String(1000 + $0).dropFirst())\n") }   // 17 characters each
        let text = StoreNotes.cut(many, limit: NotesStore.ios.limit)
        // 234 lines = 3,978; with "…and 66 more fixes\n" (19) = 3,997.
        #expect(text == many[0..<234].map(\.1).joined() + "…and 66 more fixes\n")
        #expect(StoreNotes.characterCount(text) <= 4000)
        #expect(NotesStore.android.limit == 500)
    }
}
