// App Store and Google Play rules for version strings and build numbers. Pure functions on strings
// (this file splits `1.3.0-beta.2+7` itself, without depending on a semantic-version type).
//
// Sources: Apple CFBundleShortVersionString / CFBundleVersion docs and ITMS-90060 ("at most three
// non-negative integers"); TN2420 release trains; Android "versioning your app" (versionCode ≤ 2100000000).

/// The app stores whose version rules relctl checks.
public enum StorePlatform: String, Sendable, Hashable, CaseIterable {
    case ios, android
}

/// A broken store rule: what is wrong, which rule, and how to fix it — and, as facts rather than words in the
/// message, which store's rule it is and the value it refused, so a caller can point at the file line holding it.
/// A type of its own, not a `Problem`, for those fields: the version-file planner reads `platform` and `value`.
public struct StoreRuleViolation: Diagnostic, Sendable, Hashable {
    public var message: String
    public var rule: String
    public var fix: String
    /// The store whose rule is broken; nil when the rule is about neither one (an environment variable, the
    /// version a build number is derived from) or about both (Flutter's `+N`).
    public var platform: StorePlatform?
    /// The value refused, as the message quotes it (`"1.7.0.4"`), when it quotes one.
    public var value: String?

    public init(message: String, rule: String, fix: String, platform: StorePlatform? = nil, value: String? = nil) {
        self.message = message
        self.rule = rule
        self.fix = fix
        self.platform = platform
        self.value = value
    }

    public var hint: String? { "rule: \(rule); fix: \(fix)" }
    public var description: String { rendered() }
}

/// `1.3.0-beta.2+7` → core `1.3.0`, prerelease `beta.2`, metadata `7`.
public struct VersionParts: Sendable, Hashable {
    public var core: String
    public var prerelease: String?
    public var metadata: String?

    public init(_ version: String) {
        var rest = Substring(version)
        if let plus = rest.firstIndex(of: "+") {
            metadata = String(rest[rest.index(after: plus)...])
            rest = rest[..<plus]
        }
        if let dash = rest.firstIndex(of: "-") {
            prerelease = String(rest[rest.index(after: dash)...])
            rest = rest[..<dash]
        }
        core = String(rest)
    }

    /// Numeric components of the core, nil if any is not digits only.
    public var numbers: [Int]? {
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        var out: [Int] = []
        for p in parts {
            guard p.isASCIIDigits, let n = Int(p) else { return nil }
            out.append(n)
        }
        return out
    }

    /// The last numeric identifier of the prerelease (`beta.2` → 2, `rc3` → 3), if any.
    public var prereleaseNumber: Int? {
        guard let pre = prerelease else { return nil }
        let digits = pre.reversed().prefix(while: \.isASCIIDigit)
        return digits.isEmpty ? nil : Int(String(digits.reversed()))
    }
}

public enum StoreRules {
    /// Google Play's maximum versionCode.
    public static let maxAndroidVersionCode = 2_100_000_000

    /// CFBundleShortVersionString: one to three non-negative integers separated by dots, digits and dots only.
    public static func validateIOSMarketingVersion(_ version: String) throws(StoreRuleViolation) {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy(\.isASCIIDigits) else {
            let core = VersionParts(version).core
            throw StoreRuleViolation(
                message: "iOS marketing version \"\(version)\" is not accepted by App Store Connect",
                rule: "CFBundleShortVersionString is at most three period-separated non-negative integers, digits and periods only (ITMS-90060)",
                fix: version.contains("-") || version.contains("+")
                    ? "write \"\(core)\" to iOS files and mark the prerelease with a higher build number (TestFlight)"
                    : "use a version such as 1.2.3",
                platform: .ios, value: version)
        }
    }

    /// CFBundleVersion: one to three non-negative integers separated by dots; when `current` is given,
    /// the new build number must be greater (compared component by component).
    public static func validateIOSBuildNumber(_ build: String, current: String? = nil) throws(StoreRuleViolation) {
        let parts = build.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy(\.isASCIIDigits) else {
            throw StoreRuleViolation(
                message: "iOS build number \"\(build)\" is not valid",
                rule: "CFBundleVersion is one to three period-separated non-negative integers",
                fix: "use an integer build number such as 42",
                platform: .ios, value: build)
        }
        if let current, let c = VersionParts(current).numbers, let n = VersionParts(build).numbers,
           compareNumbers(n, c) != .orderedDescending {
            throw StoreRuleViolation(
                message: "iOS build number \(build) is not greater than the current \(current)",
                rule: "each upload of a version needs a higher CFBundleVersion than the last (TN2420)",
                fix: "use a build number above \(current), e.g. with the increment strategy",
                platform: .ios)
        }
    }

    /// versionCode: a positive integer ≤ 2100000000, strictly greater than `current` when given.
    public static func validateAndroidVersionCode(_ code: String, current: String? = nil) throws(StoreRuleViolation) {
        guard code.isASCIIDigits, let n = Int(code), n > 0 else {
            throw StoreRuleViolation(
                message: "Android versionCode \"\(code)\" is not a positive integer",
                rule: "versionCode is a positive integer",
                fix: "use an integer such as 42",
                platform: .android, value: code)
        }
        guard n <= maxAndroidVersionCode else {
            throw StoreRuleViolation(
                message: "Android versionCode \(code) is above Google Play's maximum",
                rule: "the greatest versionCode Google Play allows is 2100000000",
                fix: "use a smaller scheme (fewer digits per slot in fromVersion, or the increment strategy)",
                platform: .android)
        }
        if let current, let c = Int(current), n <= c {
            throw StoreRuleViolation(
                message: "Android versionCode \(code) is not greater than the current \(current)",
                rule: "every upload needs a higher versionCode; all Play tracks share one code space",
                fix: "use a versionCode above \(current), e.g. with the increment strategy",
                platform: .android)
        }
    }

    /// Flutter's `+N` build number feeds versionCode and CFBundleVersion: the Android rule applies.
    public static func validatePubspecBuildNumber(_ build: String, current: String? = nil) throws(StoreRuleViolation) {
        do {
            try validateAndroidVersionCode(build, current: current)
        } catch {
            throw StoreRuleViolation(message: "pubspec build number" + error.message.dropFirst("Android versionCode".count),
                                     rule: error.rule + " (Flutter uses the +N build number as versionCode)", fix: error.fix,
                                     value: error.value)
        }
    }

    static func compareNumbers(_ a: [Int], _ b: [Int]) -> ComparisonOrder {
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? a[i] : 0, y = i < b.count ? b[i] : 0
            if x != y { return x < y ? .orderedAscending : .orderedDescending }
        }
        return .orderedSame
    }

    public enum ComparisonOrder: Sendable { case orderedAscending, orderedSame, orderedDescending }
}

/// The marketing version a store gets for a release version.
///
/// Rule: Apple accepts only one to three dot-separated integers, so for `.ios` the prerelease and build
/// metadata are dropped — `1.3.0-beta.2` ships to TestFlight as marketing version `1.3.0` with a higher
/// build number, and the final `1.3.0` is a later build of the same marketing version. The result must
/// then satisfy `StoreRules.validateIOSMarketingVersion` (so `2.2.0.0` or `v1.0` are refused).
/// Google Play's versionName is free text, so `.android` (and package.json) keep the version whole.
public func storeMarketingVersion(for version: String, platform: StorePlatform) throws(StoreRuleViolation) -> String {
    switch platform {
    case .android:
        guard !version.isEmpty else {
            throw StoreRuleViolation(message: "empty versionName", rule: "versionName is a non-empty string",
                                     fix: "pass a version such as 1.2.3", platform: .android)
        }
        return version
    case .ios:
        let core = VersionParts(version).core
        try StoreRules.validateIOSMarketingVersion(core)
        return core
    }
}

