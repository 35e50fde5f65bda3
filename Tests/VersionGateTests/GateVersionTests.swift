import Testing
import VersionGate

@Suite("GateVersion: how the gate compares versions")
struct GateVersionTests {
    @Test("segments compare as numbers, not as text")
    func segmentsCompareAsNumbers() {
        #expect(GateVersion("1.10.0") > GateVersion("1.9.0"))
        #expect(GateVersion("4.10.0") > GateVersion("4.9.0"))
        #expect(GateVersion("2.0.0") > GateVersion("1.99.99"))
        #expect(GateVersion("1.2.3") < GateVersion("1.2.4"))
        #expect(!(GateVersion("1.2.3") < GateVersion("1.2.3")))
    }

    @Test("a missing segment is 0")
    func missingSegmentsAreZero() {
        #expect(GateVersion("1.0") == GateVersion("1.0.0"))
        #expect(GateVersion("2") == GateVersion("2.0.0"))
        #expect(GateVersion("1.0.0.0") == GateVersion("1"))
        #expect(GateVersion("1.0.1") > GateVersion("1"))
        #expect(!(GateVersion("1.0") < GateVersion("1.0.0")) && !(GateVersion("1.0.0") < GateVersion("1.0")))
        #expect(Set([GateVersion("1.0"), GateVersion("1.0.0"), GateVersion("1")]).count == 1)
    }

    @Test("a +build suffix is split off and never compared")
    func buildSuffixIsSplitOff() {
        let version = GateVersion("1.9.96+283")
        #expect(version.text == "1.9.96")
        #expect(version.build == "283")
        #expect(version.description == "1.9.96+283")
        #expect(version == GateVersion("1.9.96"))
        #expect(GateVersion("1.9.96+1") == GateVersion("1.9.96+999"))
        #expect(GateVersion("1.9.96").build == nil)
        #expect(GateVersion("2.0+").build == "")
    }

    @Test("leading zeros do not count and long numbers compare as JavaScript numbers, as the seed's parseInt does")
    func leadingZerosAndLongNumbers() {
        #expect(GateVersion("1.02") == GateVersion("1.2"))
        #expect(GateVersion("1.010") > GateVersion("1.9"))
        // Exact up to 2^53; beyond, rounded to the nearest double as JavaScript rounds it.
        #expect(GateVersion("1.9007199254740991") > GateVersion("1.9007199254740990"))
        #expect(GateVersion("1.9007199254740993") == GateVersion("1.9007199254740992"))
        #expect(GateVersion("1.99999999999999999999999") == GateVersion("1.99999999999999999999998"))
        #expect(GateVersion("100000000000000000000000") == GateVersion("99999999999999999999999"))
        #expect(GateVersion("1.200000000000000000000000") > GateVersion("1.99999999999999990000000"))
        #expect(GateVersion("1." + String(repeating: "9", count: 400)) > GateVersion("1.18446744073709551616"))
        #expect(GateVersion("1.99999999999999999999999").segment(1) == nil)
        #expect(GateVersion("4.10.2").segment(1) == 10)
        #expect(GateVersion("4.10").segment(2) == 0)
    }

    @Test("a segment is read as parseInt reads it: whitespace before it, a sign, digits up to the first other character")
    func segmentsAreReadAsParseInt() {
        #expect(GateVersion("3. 6.36") == GateVersion("3.6.36"))
        #expect(GateVersion("3.\t6") == GateVersion("3.6"))
        #expect(GateVersion("3.\u{A0}6") == GateVersion("3.6"))
        #expect(GateVersion("3.\u{3000}6") == GateVersion("3.6"))
        #expect(GateVersion("3.\u{FEFF}6") == GateVersion("3.6"))
        #expect(GateVersion("3.\u{85}6") == GateVersion("3.0"), "NEL is not JavaScript whitespace")
        #expect(GateVersion("3.+6") == GateVersion("3.6"))
        #expect(GateVersion("3.-1") < GateVersion("3"))
        #expect(GateVersion("3.-0") == GateVersion("3"))
        #expect(GateVersion("3.6 1") == GateVersion("3.6"))
        #expect(GateVersion("2.1.0-beta.1") > GateVersion("2.1.0"), "its last part is a segment of its own")
        #expect(GateVersion("2.1.0-beta.1") == GateVersion("2.1.0.1"))
        #expect(GateVersion("1+2.5") == GateVersion("1.5"), "the whole text is split, as the seed splits it")
    }

    @Test("whitespace around a version is ignored")
    func whitespaceIsIgnored() {
        #expect(GateVersion("  2.3.0\n") == GateVersion("2.3.0"))
        #expect(GateVersion(" 2.3.0 ").text == "2.3.0")
    }

    @Test("a segment that does not start with a digit, or is empty, counts as 0")
    func nonNumericAndEmptySegmentsAreZero() {
        #expect(GateVersion("1..2") == GateVersion("1.0.2"))
        #expect(GateVersion("v2.0") == GateVersion("0.0"))
        #expect(GateVersion("1.x.3") == GateVersion("1.0.3"))
        #expect(GateVersion("") == GateVersion("0"))
        #expect(GateVersion("abc") == GateVersion("0.0.0"))
        #expect(GateVersion("1.2.") == GateVersion("1.2.0"))
        #expect(GateVersion(".5") == GateVersion("0.5"))
    }

    @Test("a segment that starts with digits counts by those digits only")
    func leadingDigitsOfASegmentCount() {
        #expect(GateVersion("2.0.0-beta") == GateVersion("2.0.0"))
        #expect(GateVersion("4.1rc2") == GateVersion("4.1"))
        #expect(GateVersion("1.9.96 (283)") == GateVersion("1.9.96"))
    }

    @Test("isWellFormed flags every version a store would refuse")
    func wellFormedOnlyForDigitsAndDots() {
        for text in ["1.2.3", "1.0", "10", "0", "1.2.3+45", "01.2"] {
            #expect(GateVersion(text).isWellFormed, "\(text)")
        }
        for text in ["", "v1.2.3", "1..2", "1.2.", "2.0.0-beta", "abc", "1.x", " . "] {
            #expect(!GateVersion(text).isWellFormed, "\(text)")
        }
    }

    @Test("hasNumber is false only when no segment starts with a digit")
    func hasNumber() {
        #expect(GateVersion("1.2").hasNumber)
        #expect(GateVersion("v1.2").hasNumber)
        #expect(!GateVersion("").hasNumber)
        #expect(!GateVersion("unknown").hasNumber)
        #expect(!GateVersion("v.x").hasNumber)
        #expect(GateVersion(" . 3").hasNumber)
        #expect(!GateVersion("-.+").hasNumber)
    }

    @Test("the seed's parseInt comparison and this one agree", arguments: [
        ("1.0", "1.0.0", 0), ("1.10.0", "1.9.0", 1), ("2.3.0", "2.4.0", -1), ("1.2.3-beta", "1.2.3", 0),
        ("1..2", "1.0.2", 0), ("x.1", "0.1", 0), ("3", "2.9.9", 1),
    ])
    func agreesWithParseIntComparison(_ left: String, _ right: String, _ expected: Int) {
        let a = GateVersion(left)
        let b = GateVersion(right)
        let actual = a < b ? -1 : (b < a ? 1 : 0)
        #expect(actual == expected)
        #expect(actual == parseIntCompare(left, right))
    }

    /// The forced-update seed's `compareVersions`, written out in Swift: `parseInt` per segment, `NaN` → 0.
    private func parseIntCompare(_ a: String, _ b: String) -> Int {
        func parse(_ v: String) -> [Int] {
            v.split(separator: ".", omittingEmptySubsequences: false).map { Int($0.prefix { $0.isASCII && $0.isNumber }) ?? 0 }
        }
        let pa = parse(a)
        let pb = parse(b)
        for i in 0..<max(pa.count, pb.count) {
            let na = i < pa.count ? pa[i] : 0
            let nb = i < pb.count ? pb[i] : 0
            if na < nb { return -1 }
            if na > nb { return 1 }
        }
        return 0
    }
}
