import Testing
@testable import RelctlCore

@Suite struct BuildNumberJumpTests {
    @Test func smallMovesPassAndLargeOnesAreRefused() {
        #expect(BuildNumberJump.excess(from: "12", to: "13", android: true, limit: 10_000) == nil)
        #expect(BuildNumberJump.excess(from: "12", to: "10012", android: true, limit: 10_000) == nil)
        #expect(BuildNumberJump.excess(from: "12", to: "10013", android: true, limit: 10_000)! == (10_001, 10_000))
        // The case that cannot be undone: a shared counter carrying an iOS timestamp into versionCode 1.
        #expect(BuildNumberJump.excess(from: "1", to: "1703280000", android: true, limit: 10_000)! == (1_703_279_999, 10_000))
        // Going down or staying is not a jump (the store rules refuse going down on their own).
        #expect(BuildNumberJump.excess(from: "500", to: "400", android: true, limit: 10) == nil)
        // 0 turns the check off.
        #expect(BuildNumberJump.excess(from: "1", to: "1703280000", android: true, limit: 0) == nil)
    }

    @Test func nearPlaysCapTheAllowanceShrinksToOnePercentOfWhatIsLeft() {
        #expect(BuildNumberJump.allowance(from: 1, android: true, limit: 10_000) == 10_000)
        #expect(BuildNumberJump.allowance(from: 2_099_000_000, android: true, limit: 10_000) == 10_000)
        #expect(BuildNumberJump.allowance(from: 2_099_900_000, android: true, limit: 10_000) == 1_000)
        #expect(BuildNumberJump.allowance(from: 2_099_999_999, android: true, limit: 10_000) == 1)
        #expect(BuildNumberJump.allowance(from: 2_099_900_000, android: false, limit: 10_000) == 10_000)
        #expect(BuildNumberJump.excess(from: "2099900000", to: "2099901001", android: true, limit: 10_000)! == (1_001, 1_000))
        #expect(BuildNumberJump.excess(from: "2099900000", to: "2099901001", android: false, limit: 10_000) == nil)
    }

    @Test func dottedBuildsCompareTheirLastPart() {
        #expect(BuildNumberJump.excess(from: "1.7.0.4", to: "1.7.0.5", android: false, limit: 10_000) == nil)
        #expect(BuildNumberJump.excess(from: "1.7.0.4", to: "1.7.0.20005", android: false, limit: 10_000)! == (20_001, 10_000))
        // Different leading parts or shapes cannot be measured as one move.
        #expect(BuildNumberJump.excess(from: "1.7.0.4", to: "2.0.0", android: false, limit: 10_000) == nil)
        #expect(BuildNumberJump.excess(from: "abc", to: "99999", android: false, limit: 10_000) == nil)
    }
}
