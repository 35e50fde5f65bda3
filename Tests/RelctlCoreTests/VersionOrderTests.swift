import Foundation
import Testing
@testable import RelctlCore

@Suite("version order across schemes")
struct VersionOrderTests {
    @Test(arguments: [
        ("1.0.0", "2.43.0", ComparisonResult.orderedAscending),
        ("2.43", "2.43.0", .orderedSame),          // App Store Connect reads 2.43 as 2.43.0
        ("2.44", "2.43.9", .orderedDescending),
        ("1.10.0", "1.9.0", .orderedDescending),
        ("2024.01", "2024.1", .orderedSame),       // leading zeros are numbers, not text
        ("2024.12", "2024.12.1", .orderedAscending),
        ("1.3.0-beta.1", "1.3.0", .orderedAscending),
        ("1.3.0-beta.2", "1.3.0-beta.10", .orderedAscending),
        ("1.3.0-alpha", "1.3.0-beta", .orderedAscending),
        ("1.3.0+7", "1.3.0+8", .orderedSame),
        ("1.7.0.4", "1.7.1", .orderedAscending),
    ])
    func compares(a: String, b: String, expected: ComparisonResult) {
        #expect(VersionOrder.compare(a, b) == expected)
        let reversed: ComparisonResult = expected == .orderedSame ? .orderedSame
            : expected == .orderedAscending ? .orderedDescending : .orderedAscending
        #expect(VersionOrder.compare(b, a) == reversed)
    }

    @Test(arguments: ["UNVERSIONED", "v1.2.3", "1..2", "", "1.2.x", "1.2.3-", "99999999999999999999.1"])
    func nonNumericVersionsAreNotOrdered(text: String) {
        #expect(VersionOrder.compare(text, "1.0.0") == nil)
        #expect(!VersionOrder.isNumeric(text))
    }

    @Test func releaseVersionsOrderWithinTheirScheme() throws {
        let semver = VersionScheme.semver
        #expect(try #require(semver.parse("1.3.0-beta.1")) < (try #require(semver.parse("1.3.0"))))
        let calendar = try VersionScheme("YYYY.M.MICRO")
        #expect(try #require(calendar.parse("2024.9.7")) < (try #require(calendar.parse("2024.10.0"))))
        #expect(try #require(calendar.parse("2024.12")).hasSamePrecedence(as: try #require(calendar.parse("2024.12.0"))))
    }
}

@Suite("four-part iOS build numbers")
struct FourPartBuildNumberTests {
    @Test func incrementSaysWhichThreePartBuildToSet() {
        for shared in [true, false] {
            #expect {
                _ = try BuildNumberPolicy.next(strategy: .increment, shared: shared, currentIOS: "1.7.0.4", currentAndroid: nil,
                                               version: "1.7.1", environment: [:])
            } throws: { error in
                let violation = error as! StoreRuleViolation
                return violation.message == "iOS build number \"1.7.0.4\" has 4 parts; App Store Connect reads only the first three, so incrementing the last would upload build 1.7.0 again"
                    && violation.fix.hasPrefix("set build 1.7.1 once with --build 1.7.1")
            }
        }
    }

    @Test func threePartsOrFewerMoveTheirLastPart() throws {
        let three = try BuildNumberPolicy.next(strategy: .increment, currentIOS: "1.7.1", currentAndroid: nil, version: "1.7.1", environment: [:])
        #expect(three.ios == "1.7.2")
        let one = try BuildNumberPolicy.next(strategy: .increment, currentIOS: "57", currentAndroid: nil, version: "1.7.1", environment: [:])
        #expect(one.ios == "58")
    }

    @Test func aThreePartBuildAboveAFourPartOneIsValid() throws {
        try StoreRules.validateIOSBuildNumber("1.7.1", current: "1.7.0.4")
        #expect(throws: StoreRuleViolation.self) { try StoreRules.validateIOSBuildNumber("1.7.0", current: "1.7.0.4") }
        #expect(throws: StoreRuleViolation.self) { try StoreRules.validateIOSBuildNumber("1.7.0.5", current: "1.7.0.4") }
    }
}
