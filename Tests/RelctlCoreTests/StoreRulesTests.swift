import Testing
import RelctlCore

@Suite struct StoreRulesTests {
    @Test(arguments: [
        ("1.3.0-beta.2", "1.3.0"), ("1.3.0-beta.2+7", "1.3.0"), ("1.0", "1.0"), ("7", "7"), ("2.10.0+build.5", "2.10.0"),
    ])
    func iosMarketingDropsPrerelease(version: String, expected: String) throws {
        #expect(try storeMarketingVersion(for: version, platform: .ios) == expected)
        #expect(try storeMarketingVersion(for: version, platform: .android) == version)
    }

    @Test(arguments: ["2.2.0.0", "v1.0", "1..2", "1.2.x", "", "1.2.3a"])
    func iosMarketingRefused(version: String) {
        do {
            _ = try storeMarketingVersion(for: version, platform: .ios)
            Issue.record("\(version) accepted")
        } catch {
            #expect(error.message.contains("is not accepted by App Store Connect"))
            #expect(error.rule.contains("at most three"))
            #expect(error.description.contains("fix: "))
        }
    }

    @Test func prereleaseFixSuggestsTheCore() {
        #expect(throws: StoreRuleViolation.self) { try StoreRules.validateIOSMarketingVersion("1.2.3-beta") }
        do { try StoreRules.validateIOSMarketingVersion("1.2.3-beta") } catch {
            #expect(error.fix.contains("\"1.2.3\""))
        }
    }

    @Test func iosBuildNumbers() throws {
        try StoreRules.validateIOSBuildNumber("1.7.3")
        try StoreRules.validateIOSBuildNumber("58", current: "57")
        try StoreRules.validateIOSBuildNumber("3.10", current: "3.9")
        #expect(throws: StoreRuleViolation.self) { try StoreRules.validateIOSBuildNumber("1.7.0.1") }
        #expect(throws: StoreRuleViolation.self) { try StoreRules.validateIOSBuildNumber("57", current: "57") }
        #expect(throws: StoreRuleViolation.self) { try StoreRules.validateIOSBuildNumber("12b") }
    }

    @Test func androidVersionCodes() throws {
        try StoreRules.validateAndroidVersionCode("2100000000", current: "1")
        for bad in ["0", "-1", "2100000001", "1.2", "", "99999999999999999999"] {
            #expect(throws: StoreRuleViolation.self, "\(bad)") { try StoreRules.validateAndroidVersionCode(bad) }
        }
        let equal = #expect(throws: StoreRuleViolation.self) { try StoreRules.validateAndroidVersionCode("57", current: "57") }
        #expect(equal?.message == "Android versionCode 57 is not greater than the current 57")
        #expect(equal?.rule.contains("share one code space") == true)
        #expect(throws: StoreRuleViolation.self) { try StoreRules.validateAndroidVersionCode("56", current: "57") }
        try StoreRules.validateAndroidVersionCode("58", current: "57")
        let zero = #expect(throws: StoreRuleViolation.self) { try StoreRules.validatePubspecBuildNumber("0") }
        #expect(zero?.message.hasPrefix("pubspec build number") == true)
    }

    @Test func incrementSharedAndSeparate() throws {
        let shared = try BuildNumberPolicy.next(strategy: .increment, currentIOS: "57", currentAndroid: "60", version: "1.0.0", environment: [:])
        #expect(shared.ios == "61" && shared.android == "61")
        let separate = try BuildNumberPolicy.next(strategy: .increment, shared: false, currentIOS: "57", currentAndroid: "60", version: "1.0.0", environment: [:])
        #expect(separate.ios == "58" && separate.android == "61")
        let iosOnly = try BuildNumberPolicy.next(strategy: .increment, currentIOS: "3.9", currentAndroid: nil, version: "1.0.0", environment: [:])
        #expect(iosOnly.ios == "3.10" && iosOnly.android == nil)
        #expect(throws: StoreRuleViolation.self) {
            try BuildNumberPolicy.next(strategy: .increment, currentIOS: nil, currentAndroid: nil, version: "1.0.0", environment: [:])
        }
        #expect(throws: StoreRuleViolation.self) {
            try BuildNumberPolicy.next(strategy: .increment, currentIOS: nil, currentAndroid: "2100000000", version: "1.0.0", environment: [:])
        }
        #expect(BuildNumberPolicy.highest(["9", "10", "3.2"]) == "10")
    }

    @Test(arguments: [
        ("1.2.3", [2, 2], 0, 10203), ("10.0.1", [2, 2], 0, 100001), ("1.2", [2, 2], 0, 10200),
        ("1.2.3", [3, 3], 0, 1002003), ("1.3.0-beta.2", [2, 2], 2, 1030002), ("1.3.0", [2, 2], 2, 1030099),
    ])
    func fromVersionFormula(version: String, digits: [Int], pre: Int, expected: Int) throws {
        #expect(try BuildNumberPolicy.fromVersion(version, digits: digits, prereleaseDigits: pre) == expected)
    }

    @Test func fromVersionRefusals() throws {
        do { _ = try BuildNumberPolicy.fromVersion("1.0.100") ; Issue.record("overflow accepted") } catch {
            #expect(error.message == "patch 100 of 1.0.100 overflows its 2-digit slot in the build number")
        }
        #expect(throws: StoreRuleViolation.self) { try BuildNumberPolicy.fromVersion("1.100.0") }
        #expect(throws: StoreRuleViolation.self) { try BuildNumberPolicy.fromVersion("2200.0.0", digits: [3, 3]) }
        #expect(throws: StoreRuleViolation.self) { try BuildNumberPolicy.fromVersion("1.2.3.4") }
        // A hotfix on an older line would go down: refused.
        #expect(throws: StoreRuleViolation.self) {
            try BuildNumberPolicy.next(strategy: .fromVersion(), currentIOS: "20000", currentAndroid: "20000", version: "1.9.1", environment: [:])
        }
        let ok = try BuildNumberPolicy.next(strategy: .fromVersion(), currentIOS: "10203", currentAndroid: nil, version: "1.3.0", environment: [:])
        #expect(ok.ios == "10300" && ok.android == "10300")
    }

    @Test func envAndKeep() throws {
        let env = try BuildNumberPolicy.next(strategy: .env(name: "GITHUB_RUN_NUMBER", offset: 1000), currentIOS: "57", currentAndroid: "57",
                                             version: "1.0.0", environment: ["GITHUB_RUN_NUMBER": "42\n"])
        #expect(env.ios == "1042" && env.android == "1042")
        do {
            _ = try BuildNumberPolicy.next(strategy: .env(name: "GITHUB_RUN_NUMBER"), currentIOS: nil, currentAndroid: nil, version: "1.0.0", environment: [:])
            Issue.record("missing env accepted")
        } catch {
            #expect(error.message == "environment variable GITHUB_RUN_NUMBER is not set")
        }
        #expect(throws: StoreRuleViolation.self) {
            try BuildNumberPolicy.next(strategy: .env(name: "N"), currentIOS: nil, currentAndroid: nil, version: "1.0.0", environment: ["N": "abc"])
        }
        #expect(throws: StoreRuleViolation.self) { // not greater than current
            try BuildNumberPolicy.next(strategy: .env(name: "N"), currentIOS: nil, currentAndroid: "50", version: "1.0.0", environment: ["N": "42"])
        }
        let keep = try BuildNumberPolicy.next(strategy: .keep, currentIOS: "1", currentAndroid: "1", version: "1.0.0", environment: [:])
        #expect(keep.ios == nil && keep.android == nil)
    }
}
