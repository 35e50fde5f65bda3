import Testing
@testable import RelctlCore

/// `CommitAnalyzer.hasASCIIPrefix` decides by bytes where `Substring.hasPrefix` compares characters: both must
/// agree on every text, including a combining mark right after the prefix (one character with the prefix's last
/// byte, so not a prefix).
@Suite struct ASCIIPrefixTests {
    static let prefixes = ["fixup! ", "squash! ", "amend! ", "Revert \"", "Reapply \""]
    static let texts: [String] = [
        "", "f", "fixup!", "fixup! ", "fixup! feat: x", "fixup!  feat", "Fixup! feat", "fixup!\u{A0}feat",
        "fixup! \u{301}feat", "squash! fixup! fix: y", "amend! docs", "Revert \"feat: a\"", "Revert \"\u{301}a\"",
        "Revert\u{301} \"a\"", "Reapply \"Revert \\\"x\\\"\"", "Révert \"a\"", "日本 fixup! ", "\u{FEFF}fixup! a",
        "fixup! \r\nx", "Revert \"", "amend!\u{200D} x", "e\u{301}",
    ]

    @Test func agreesWithHasPrefixOnEveryText() {
        for text in Self.texts {
            for prefix in Self.prefixes {
                let whole = Substring(text)
                #expect(CommitAnalyzer.hasASCIIPrefix(whole, prefix) == whole.hasPrefix(prefix), "\(text.debugDescription) / \(prefix)")
                // And on a slice that does not start at the string's start.
                let padded = "xx" + text
                let slice = padded.dropFirst(2)
                #expect(CommitAnalyzer.hasASCIIPrefix(slice, prefix) == slice.hasPrefix(prefix), "slice \(text.debugDescription) / \(prefix)")
            }
        }
    }

    @Test func aCombiningMarkAfterThePrefixIsNotThePrefix() {
        #expect(!CommitAnalyzer.hasASCIIPrefix(Substring("fixup! \u{301}feat: x"), "fixup! "))
        #expect(CommitAnalyzer.hasASCIIPrefix(Substring("fixup! feat: x"), "fixup! "))
        #expect(CommitAnalyzer.stripFixupPrefixes("fixup! squash! feat: x") == "feat: x")
        #expect(CommitAnalyzer.stripFixupPrefixes("fixup! \u{301}feat: x") == nil)
    }
}
