import Testing
@testable import RelctlCore

@Suite("Terminal text escaping")
struct TerminalTextTests {
    @Test func controlCharactersAreOctalBytesAsGitQuotesThem() {
        #expect(TerminalText.escaped("feat: \u{1B}]0;owned\u{07} title") == #"feat: \033]0;owned\007 title"#)
        #expect(TerminalText.escaped("csi \u{9B}31m") == #"csi \302\23331m"#)
        #expect(TerminalText.escaped("del \u{7F} nul \u{0} bs \u{8} vt \u{B} ff \u{C}") == #"del \177 nul \000 bs \010 vt \013 ff \014"#)
        #expect(TerminalText.escaped("\u{80}\u{9F}") == #"\302\200\302\237"#)
    }

    @Test func lineFeedsTabsAndCRLFStay() {
        let text = "a\tb\nc\r\nd\n"
        #expect(TerminalText.escaped(text) == text)
        #expect(TerminalText.escaped("over\rwrite") == #"over\015write"#)
        #expect(TerminalText.escaped("end\r") == #"end\015"#)
    }

    @Test func printableTextIsUnchanged() {
        for text in ["", "1.2.3", "naïve café 日本 🚀", #"C:\path \d+"#, "\u{A0}nbsp", "\u{2028}"] {
            #expect(TerminalText.escaped(text) == text)
        }
    }

    @Test func nothingEscapedIsLeftRaw() {
        var all = ""
        for v in 0...0xFF { all.unicodeScalars.append(Unicode.Scalar(UInt32(v))!) }
        let escaped = TerminalText.escaped(all)
        #expect(!escaped.unicodeScalars.contains { TerminalText.isEscaped($0) })
        #expect(escaped.contains("\n") && escaped.contains("\t"))
    }
}
