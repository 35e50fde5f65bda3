import Foundation
import Testing
@testable import RelctlCLI

/// The marker's ISO 8601 date is made by arithmetic for 1970…9999 and by Foundation's formatter outside: the same
/// text. And the dry run's indented messages.
@Suite("Release clock and dry-run text")
struct ReleaseClockFormatTests {
    static func formatted(_ seconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    @Test(arguments: [0, 59, 86_399, 86_400, 951_782_400, 1_700_000_000, 1_764_514_999, 4_102_444_800,
                      253_402_300_799, 253_402_300_800, -1, -86_401] as [Int64])
    func isoDateMatchesTheFormatter(_ seconds: Int64) {
        #expect(ReleaseClock.isoDate(["SOURCE_DATE_EPOCH": "\(seconds)"]) == Self.formatted(seconds))
    }

    @Test func isoDateOfNowMatchesTheFormatter() {
        let now = ReleaseClock.seconds([:])
        let text = ReleaseClock.isoDate([:])
        // The clock may tick between the two readings.
        #expect(text == Self.formatted(now) || text == Self.formatted(now + 1))
    }

    @Test func indentedKeepsCRLFInsideALineAndDropsTrailingBlankLines() {
        #expect(ReleaseReport.indented("a\r\nb\n\nc\n \n") == "  a\r\nb\n\n  c\n")
        #expect(ReleaseReport.indented("") == "\n")
        #expect(ReleaseReport.indented("one\n\n\ttwo\n") == "  one\n\n  \ttwo\n")
    }
}
