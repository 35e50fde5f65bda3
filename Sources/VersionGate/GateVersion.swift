/// An app version as the gate compares it: dot-separated numbers, compared one segment at a time.
///
/// The rules are the seed's `compareVersions` exactly (its TypeScript: `v.split('.')`, each part read with
/// `parseInt(part, 10)`, `NaN` read as `0`, a missing part read as `0`), so the app, a JavaScript backend and
/// `relctl gate` give the same verdict for every value a person can type into the Remote Config console:
/// - The text is split at every `.`; segments are compared as numbers, left to right: `1.10.0` > `1.9.0`;
///   leading zeros do not count (`1.02` == `1.2`). A missing segment is `0`: `1.0` == `1.0.0`, `2` == `2.0.0`.
/// - A segment is read as JavaScript's `parseInt(segment, 10)` reads it: whitespace before it is skipped
///   (JavaScript's whitespace: space, tab, line breaks, no-break space, BOM and the Unicode space separators),
///   then an optional `+` or `-` sign, then ASCII digits up to the first other character; nothing to read
///   (`v2`, `beta`, empty) is `0`. So `3. 6.36` is `3.6.36`, `2.0.0-beta` is `2.0.0`, `4.1rc2` is `4.1`,
///   `v2.0` is `0.0`, `-1` is below `0`, and `2.1.0-beta.1` is `2.1.0.1` (its last part is a segment too).
/// - A segment's value is a JavaScript number: exact up to 2^53 (9,007,199,254,740,992); beyond that rounded
///   to the nearest double as JavaScript rounds it, so two numbers that differ only past the 16th digit compare
///   equal, as they do in the seed's code; past about 309 digits a segment is infinite.
/// - The whole text takes part, `+build` included, as in the seed: `1.9.96+283` reads `96+283` as `96`, so
///   the build never changes the comparison in a usual version; ``build`` keeps it for display.
/// - Leading and trailing ASCII whitespace is trimmed from ``text`` (the values are the same either way).
///
/// Store versions never carry the odd forms, so they are never a crash, never an error at run time, and
/// ``isWellFormed`` tells a tool (`relctl gate check`) to flag them.
public struct GateVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The version as given, whitespace trimmed and the `+build` suffix removed.
    public let text: String
    /// The text after the first `+`, or `nil` when there is none.
    public let build: String?
    /// Each segment's value as the seed's `parseInt` gives it (`NaN` as 0, `-0` as 0), trailing zero segments
    /// removed, so that equal versions have equal values.
    let values: [Double]
    /// Whether at least one segment has a number to read (not `NaN` under `parseInt`).
    public let hasNumber: Bool
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
        var wellFormed = true
        for segment in versionPart.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            if segment.isEmpty || !segment.allSatisfy(GateText.isDigit) { wellFormed = false }
        }
        var values: [Double] = []
        var hasNumber = false
        for segment in whole.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false) {
            if let value = Self.parseInt(segment) {
                hasNumber = true
                values.append(value == 0 ? 0 : value)
            } else {
                values.append(0)
            }
        }
        while values.last == 0 { values.removeLast() }
        self.values = values
        self.hasNumber = hasNumber
        self.isWellFormed = wellFormed
    }

    /// JavaScript's `parseInt(segment, 10)`: `nil` where it gives `NaN`.
    static func parseInt(_ segment: Substring.UnicodeScalarView) -> Double? {
        var index = segment.startIndex
        while index < segment.endIndex, isJavaScriptWhitespace(segment[index]) { index = segment.index(after: index) }
        var negative = false
        if index < segment.endIndex, segment[index] == "-" || segment[index] == "+" {
            negative = segment[index] == "-"
            index = segment.index(after: index)
        }
        var digits = ""
        while index < segment.endIndex, ("0"..."9").contains(segment[index]) {
            digits.unicodeScalars.append(segment[index])
            index = segment.index(after: index)
        }
        guard !digits.isEmpty else { return nil }
        // Swift reads a decimal string to the nearest double (infinite past the largest), as JavaScript does.
        let magnitude = Double(digits) ?? .infinity
        return negative ? -magnitude : magnitude
    }

    /// JavaScript's StrWhiteSpaceChar: its WhiteSpace (tab, vertical tab, form feed, space, no-break space, the
    /// byte-order mark, every Unicode space separator) and its line terminators (LF, CR, U+2028, U+2029).
    static func isJavaScriptWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0xFEFF, 0x2028, 0x2029: return true
        default: return scalar.properties.generalCategory == .spaceSeparator
        }
    }

    /// The numeric value of segment `index` (0 for a missing segment), or `nil` when it is not a whole number
    /// an `Int` holds (beyond 64 bits, or infinite).
    public func segment(_ index: Int) -> Int? {
        index < values.count ? Int(exactly: values[index]) : 0
    }

    /// The number of segments written, at least 1 (`1.0` has 2, `2` has 1).
    public var segmentCount: Int {
        max(1, text.split(separator: ".", omittingEmptySubsequences: false).count)
    }

    /// The version as given, with its build (`1.9.96+283`).
    public var description: String {
        build.map { "\(text)+\($0)" } ?? text
    }

    /// Equal when every segment is equal, missing ones read as 0.
    public static func == (lhs: GateVersion, rhs: GateVersion) -> Bool {
        lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(values)
    }

    public static func < (lhs: GateVersion, rhs: GateVersion) -> Bool {
        for index in 0..<max(lhs.values.count, rhs.values.count) {
            let left = index < lhs.values.count ? lhs.values[index] : 0
            let right = index < rhs.values.count ? rhs.values[index] : 0
            if left != right { return left < right }
        }
        return false
    }
}

extension GateVersion: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self.init(value)
    }
}
