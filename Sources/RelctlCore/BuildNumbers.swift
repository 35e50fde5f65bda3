// Build-number strategies (pure: the environment is passed in).

/// How the next build number is chosen.
public enum BuildNumberStrategy: Sendable, Hashable {
    /// Highest current build number + 1 (the last component of a dotted iOS build number).
    case increment
    /// A number derived from the version. With `digits: [2, 2]` (the default) the formula is
    /// `major * 10000 + minor * 100 + patch`: each entry is the number of decimal digits of the slot
    /// after major (minor, patch). With `prereleaseDigits: p > 0` one more slot is appended holding the
    /// prerelease number (`beta.2` → 2), and `10^p - 1` for a final release, so betas sort below their
    /// final release: `1.3.0-beta.2` → 1030002, `1.3.0` → 1030099 with p = 2.
    /// Refused when a component overflows its slot, the result exceeds 2100000000, or it is not greater
    /// than the current build number.
    case fromVersion(digits: [Int] = [2, 2], prereleaseDigits: Int = 0)
    /// The integer value of an environment variable (e.g. GITHUB_RUN_NUMBER) plus `offset`.
    case env(name: String, offset: Int = 0)
    /// Leave build numbers untouched.
    case keep
    /// iOS build numbers start again at each new marketing version (`start`, 1 or 0) and count up within one version,
    /// as App Store Connect only asks CFBundleVersion to be higher within a version (TN2420); Android's versionCode,
    /// one space for every version on Google Play, counts up as with `increment`.
    case perVersion(start: Int = 1)
}

public enum BuildNumberPolicy {
    /// The highest of some build numbers (compared component by component), nil when empty.
    public static func highest(_ values: [String]) -> String? {
        values.max { a, b in
            StoreRules.compareNumbers(VersionParts(a).numbers ?? [], VersionParts(b).numbers ?? []) == .orderedAscending
        }
    }

    /// The next iOS and Android build numbers.
    ///
    /// - `shared`: iOS and Android use one counter (the higher current value decides, both get the same number);
    ///   otherwise each platform counts on its own. A platform whose current value is nil gets nil
    ///   (no file carries it), except with `env`/`fromVersion`, where the value does not depend on it.
    /// - Results are validated: iOS per CFBundleVersion, Android per versionCode (positive, ≤ 2100000000),
    ///   and both strictly greater than the current value.
    public static func next(strategy: BuildNumberStrategy, shared: Bool = true, currentIOS: String?, currentAndroid: String?,
                            version: String, environment: [String: String]) throws(StoreRuleViolation) -> (ios: String?, android: String?) {
        try next(strategy: strategy, shared: shared, currentIOS: currentIOS, currentAndroid: currentAndroid, version: version,
                 environment: environment, iosVersionIsNew: false)
    }

    /// ``next(strategy:shared:currentIOS:currentAndroid:version:environment:)``; `iosVersionIsNew` (perVersion): the
    /// files move to another marketing version, so the iOS build starts again.
    public static func next(strategy: BuildNumberStrategy, shared: Bool = true, currentIOS: String?, currentAndroid: String?,
                            version: String, environment: [String: String],
                            iosVersionIsNew: Bool) throws(StoreRuleViolation) -> (ios: String?, android: String?) {
        var ios: String?
        var android: String?
        var iosCurrent = currentIOS
        switch strategy {
        case .keep:
            return (nil, nil)
        case .perVersion(let start):
            if let currentIOS {
                if iosVersionIsNew {
                    ios = String(start)
                    iosCurrent = nil
                } else {
                    try checkStoreCanIncrement(iosBuild: currentIOS)
                    ios = try increment(currentIOS)
                }
            }
            android = try currentAndroid.map { (c) throws(StoreRuleViolation) in try increment(c) }
        case .increment:
            if let currentIOS { try checkStoreCanIncrement(iosBuild: currentIOS) }
            if shared {
                let base = highest([currentIOS, currentAndroid].compactMap { $0 })
                guard let base else {
                    throw StoreRuleViolation(message: "no current build number found to increment",
                                             rule: "increment adds 1 to the highest build number in the version files",
                                             fix: "add a build number to a version file, or pass an explicit build number")
                }
                let next = try increment(base)
                if currentAndroid != nil, VersionParts(next).numbers?.count != 1 {
                    throw StoreRuleViolation(message: "shared build counter \(base) is dotted but Android needs an integer",
                                             rule: "versionCode is a positive integer",
                                             fix: "use an integer iOS build number or separate counters",
                                             platform: .android)
                }
                ios = currentIOS == nil ? nil : next
                android = currentAndroid == nil ? nil : next
            } else {
                ios = try currentIOS.map { (c) throws(StoreRuleViolation) in try increment(c) }
                android = try currentAndroid.map { (c) throws(StoreRuleViolation) in try increment(c) }
            }
        case .fromVersion(let digits, let prereleaseDigits):
            let code = String(try fromVersion(version, digits: digits, prereleaseDigits: prereleaseDigits))
            ios = code
            android = code
        case .env(let name, let offset):
            guard let raw = environment[name] else {
                throw StoreRuleViolation(message: "environment variable \(name) is not set",
                                         rule: "the env strategy reads the build number from \(name)",
                                         fix: "run in CI where \(name) is set, or pass an explicit build number")
            }
            let trimmed = trimWhitespace(raw)
            guard trimmed.isASCIIDigits, let n = Int(trimmed) else {
                throw StoreRuleViolation(message: "environment variable \(name)=\"\(raw)\" is not an integer",
                                         rule: "the env strategy needs a non-negative integer",
                                         fix: "point the strategy at a numeric variable such as GITHUB_RUN_NUMBER",
                                         value: raw)
            }
            let (sum, overflow) = n.addingReportingOverflow(offset)
            guard !overflow else {
                throw StoreRuleViolation(message: "\(name) + offset overflows", rule: "versionCode ≤ 2100000000", fix: "use a smaller offset")
            }
            ios = String(sum)
            android = String(sum)
        }
        if let ios { try StoreRules.validateIOSBuildNumber(ios, current: iosCurrent) }
        if let android { try StoreRules.validateAndroidVersionCode(android, current: currentAndroid) }
        return (ios, android)
    }

    /// A four-part CFBundleVersion (`1.7.0.4`) is valid history, but App Store Connect reads at most three parts
    /// and ignores the rest, so moving the fourth (`1.7.0.5`) would upload the same build again: the increment
    /// refuses it and names the three-part build to set once (`1.7.1`, the smallest above it), after which it
    /// moves the last part as usual. One to three parts are incremented in their last part.
    static func checkStoreCanIncrement(iosBuild current: String) throws(StoreRuleViolation) {
        guard let numbers = VersionParts(current).numbers, numbers.count > 3 else { return }
        let (third, overflow) = numbers[2].addingReportingOverflow(1)
        let suggestion = overflow ? "a higher three-part build number" : "\(numbers[0]).\(numbers[1]).\(third)"
        throw StoreRuleViolation(
            message: "iOS build number \"\(current)\" has \(numbers.count) parts; App Store Connect reads only the first three, so incrementing the last would upload build \(numbers.prefix(3).map(String.init).joined(separator: ".")) again",
            rule: "CFBundleVersion is one to three period-separated integers, and each upload needs a higher one",
            fix: "set build \(suggestion) once with --build \(suggestion) (relctl release or relctl sync); from then on the increment moves its last part",
            platform: .ios, value: current)
    }

    /// Adds one to the last component: `57` → `58`, `3.9` → `3.10` (a four-part iOS build is refused before, see above).
    public static func increment(_ value: String) throws(StoreRuleViolation) -> String {
        guard var numbers = VersionParts(value).numbers, !numbers.isEmpty, VersionParts(value).core == value else {
            throw StoreRuleViolation(message: "current build number \"\(value)\" is not numeric",
                                     rule: "increment needs dot-separated integers",
                                     fix: "write an integer build number to the file, or use an explicit build number",
                                     value: value)
        }
        let (next, overflow) = numbers[numbers.count - 1].addingReportingOverflow(1)
        guard !overflow else {
            throw StoreRuleViolation(message: "current build number \"\(value)\" cannot be incremented (it is at the largest integer)",
                                     rule: "build numbers are integers the stores can hold (Android: at most 2100000000)",
                                     fix: "write a sensible build number to the file, or pass --build N",
                                     value: value)
        }
        numbers[numbers.count - 1] = next
        return numbers.map(String.init).joined(separator: ".")
    }

    /// `major * 10^(sum of digits) + minor * 10^(…) + patch [+ prerelease slot]`.
    public static func fromVersion(_ version: String, digits: [Int] = [2, 2], prereleaseDigits: Int = 0) throws(StoreRuleViolation) -> Int {
        let parts = VersionParts(version)
        guard let numbers = parts.numbers, (1...(digits.count + 1)).contains(numbers.count) else {
            throw StoreRuleViolation(message: "cannot derive a build number from version \"\(version)\"",
                                     rule: "fromVersion needs major[.minor[.patch]] with \(digits.count + 1) numeric components at most",
                                     fix: "use a semantic version such as 1.2.3, or the increment strategy",
                                     value: version)
        }
        guard digits.allSatisfy({ (1...6).contains($0) }), (0...6).contains(prereleaseDigits) else {
            throw StoreRuleViolation(message: "invalid fromVersion digits \(digits)", rule: "each slot has 1 to 6 digits",
                                     fix: "use digits such as [2, 2]")
        }
        var slots = numbers + Array(repeating: 0, count: digits.count + 1 - numbers.count)
        var widths = [0] + digits
        let names = ["major", "minor", "patch", "fourth"]
        if prereleaseDigits > 0 {
            let limit = pow10(prereleaseDigits) - 1
            if parts.prerelease != nil {
                let n = parts.prereleaseNumber ?? 0
                guard n < limit else {
                    throw StoreRuleViolation(message: "prerelease number \(n) of \(version) does not fit \(prereleaseDigits) digits below the final release",
                                             rule: "the prerelease slot holds 0…\(limit - 1); \(limit) marks the final release",
                                             fix: "use more prereleaseDigits")
                }
                slots.append(n)
            } else {
                slots.append(limit)
            }
            widths.append(prereleaseDigits)
        }
        var code = 0
        for (i, (value, width)) in zip(slots, widths).enumerated() {
            if i > 0 {
                guard value < pow10(width) else {
                    let name = i < slots.count - (prereleaseDigits > 0 ? 1 : 0) ? names[min(i, 3)] : "prerelease"
                    throw StoreRuleViolation(
                        message: "\(name) \(value) of \(version) overflows its \(width)-digit slot in the build number",
                        rule: "fromVersion gives each component a fixed number of digits, so \(name) must stay below \(pow10(width))",
                        fix: "give the slot more digits, or switch to the increment strategy")
                }
            }
            let (shifted, o1) = code.multipliedReportingOverflow(by: i == 0 ? 1 : pow10(width))
            let (sum, o2) = shifted.addingReportingOverflow(value)
            guard !o1, !o2, sum <= StoreRules.maxAndroidVersionCode else {
                throw StoreRuleViolation(message: "build number from \(version) exceeds 2100000000",
                                         rule: "the greatest versionCode Google Play allows is 2100000000",
                                         fix: "use fewer digits per slot")
            }
            code = sum
        }
        return code
    }

    static func pow10(_ n: Int) -> Int {
        var r = 1
        for _ in 0..<n { r *= 10 }
        return r
    }
}

private func trimWhitespace(_ string: String) -> String {
    var s = Substring(string)
    while let c = s.first, c.isWhitespace { s = s.dropFirst() }
    while let c = s.last, c.isWhitespace { s = s.dropLast() }
    return String(s)
}
