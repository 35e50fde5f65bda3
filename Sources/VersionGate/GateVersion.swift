/// An app version as the gate compares it: dot-separated numbers, compared one segment at a time.
///
/// The rules (the same in the app, on the server and in `relctl gate`):
/// - Segments are compared as numbers, left to right: `1.10.0` > `1.9.0`. Numbers of any length compare
///   exactly (no overflow); leading zeros do not count (`1.02` == `1.2`).
/// - A missing segment is `0`: `1.0` == `1.0.0`, and `2` == `2.0.0`.
/// - A `+build` suffix is split off before anything else: `1.9.96+283` is version `1.9.96` with build `283`.
///   The build never takes part in the comparison.
/// - Leading and trailing whitespace is ignored.
/// - A segment that does not start with a digit, or is empty, counts as `0`: `1..2` is `1.0.2` and `v2.0` is
///   `0.0` (the same result as JavaScript's `parseInt` with `NaN` read as `0`, so an app and a backend that
///   use those rules agree). A segment that starts with digits counts by those digits only: `2.0.0-beta` is
///   `2.0.0` and `4.1rc2` is `4.1`. Store versions never carry such text, so it is never a crash, never an
///   error at run time, and ``isWellFormed`` tells a tool (`relctl gate check`) to flag it.
public struct GateVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The version as given, whitespace trimmed and the `+build` suffix removed.
    public let text: String
    /// The text after the first `+`, or `nil` when there is none.
    public let build: String?
    /// Each segment's value as decimal digits without leading zeros (`"0"` for zero), trailing zero
    /// segments removed, so that equal versions have equal segments.
    let digits: [String]
    /// Whether every segment consists of ASCII digits only and none is empty (`1.2.3`, `1.0`, `10`).
    public let isWellFormed: Bool

    /// Reads `text` by the rules above; never fails.
    public init(_ text: String) {
        let whole = GateText.trimmed(text)
        var versionPart = Substring(whole)
        var build: String?
        if let plus = whole.firstIndex(of: "+") {
            versionPart = whole[..<plus]
            build = String(whole[whole.index(after: plus)...])
        }
        self.text = String(versionPart)
        self.build = build
        var digits: [String] = []
        var wellFormed = true
        for segment in versionPart.split(separator: ".", omittingEmptySubsequences: false) {
            let bytes = Array(segment.utf8)
            var count = 0
            while count < bytes.count, GateText.isDigit(bytes[count]) { count += 1 }
            if count == 0 || count != bytes.count { wellFormed = false }
            var start = 0
            while start < count - 1, bytes[start] == 0x30 { start += 1 }
            digits.append(count == 0 ? "0" : String(decoding: bytes[start..<count], as: UTF8.self))
        }
        while digits.last == "0" { digits.removeLast() }
        self.digits = digits
        self.isWellFormed = wellFormed
    }

    /// The numeric value of segment `index` (0 for a missing segment), or `nil` when it does not fit an `Int`.
    public func segment(_ index: Int) -> Int? {
        index < digits.count ? Int(digits[index]) : 0
    }

    /// The number of segments written, at least 1 (`1.0` has 2, `2` has 1).
    public var segmentCount: Int {
        max(1, text.split(separator: ".", omittingEmptySubsequences: false).count)
    }

    /// Whether at least one segment starts with a digit. `""`, `"unknown"` and `"v."` have none: they carry no
    /// version at all (the request gate treats such a header as missing).
    public var hasNumber: Bool {
        text.split(separator: ".", omittingEmptySubsequences: false).contains { $0.utf8.first.map(GateText.isDigit) ?? false }
    }

    /// The version as given, with its build (`1.9.96+283`).
    public var description: String {
        build.map { "\(text)+\($0)" } ?? text
    }

    /// Equal when every segment is equal, missing ones read as 0; the build is ignored.
    public static func == (lhs: GateVersion, rhs: GateVersion) -> Bool {
        lhs.digits == rhs.digits
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(digits)
    }

    public static func < (lhs: GateVersion, rhs: GateVersion) -> Bool {
        for index in 0..<max(lhs.digits.count, rhs.digits.count) {
            let left = index < lhs.digits.count ? lhs.digits[index] : "0"
            let right = index < rhs.digits.count ? rhs.digits[index] : "0"
            if left == right { continue }
            // Same length: decimal strings without leading zeros compare like their numbers.
            if left.utf8.count != right.utf8.count { return left.utf8.count < right.utf8.count }
            return left < right
        }
        return false
    }
}

extension GateVersion: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self.init(value)
    }
}
