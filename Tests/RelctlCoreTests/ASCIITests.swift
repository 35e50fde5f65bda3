import Testing
import RelctlCore

@Suite("ASCII character classes")
struct ASCIITests {
    @Test func digitsAreOnlyZeroToNine() {
        #expect("0123456789".utf8.allSatisfy { $0.isASCIIDigit })
        #expect(!UInt8(ascii: "/").isASCIIDigit && !UInt8(ascii: ":").isASCIIDigit)
        #expect(Character("7").isASCIIDigit)
        #expect(!Character("٣").isASCIIDigit)   // Arabic-Indic three: a number, not an ASCII digit
        #expect(!Character("½").isASCIIDigit)
    }

    @Test func lettersAndHexDigits() {
        #expect("azAZ".utf8.allSatisfy { $0.isASCIILetter })
        #expect(!UInt8(ascii: "@").isASCIILetter && !UInt8(ascii: "[").isASCIILetter && !UInt8(ascii: "`").isASCIILetter)
        #expect("09afAF".utf8.allSatisfy { $0.isASCIIHexDigit })
        #expect(!UInt8(ascii: "g").isASCIIHexDigit && !UInt8(ascii: "G").isASCIIHexDigit)
        #expect(Character("x").isASCIILetterOrDigit && !Character("é").isASCIILetterOrDigit && !Character("_").isASCIILetterOrDigit)
    }

    @Test func allDigitsNeedsAtLeastOne() {
        #expect("2100000000".isASCIIDigits)
        #expect("007"[...].isASCIIDigits)
        #expect(!"".isASCIIDigits)
        #expect(!"12a".isASCIIDigits && !"1.2".isASCIIDigits && !"-1".isASCIIDigits && !"٣".isASCIIDigits)
    }
}
