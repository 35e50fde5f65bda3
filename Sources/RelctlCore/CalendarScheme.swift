/// A calendar versioning scheme such as `YYYY.M.MICRO`, `YY.0M` or `YYYY.WW`, with the tokens of calver.org.
///
/// Tokens (case-sensitive), one per dot-separated component:
/// - year: `YYYY` (2024), `YY` (24; 106 in 2106), `0Y` (zero-padded: 06, 24)
/// - month: `MM` or `M` (1…12, no padding, as calver.org's `MM`), `0M` (01…12)
/// - ISO week: `WW` or `W` (1…53), `0W` (01…53); with a week, the year is the ISO week-numbering year, so
///   2024-12-30 is `2025.1` and versions never go backwards at the turn of the year
/// - day: `DD` or `D` (1…31), `0D` (01…31)
/// - counter: `MICRO` or `PATCH` (0, 1, 2 …): the releases within one period
///
/// A scheme starts with a year, may go on with a month (then maybe a day) or a week, and may end with one
/// counter: so versions sort by date, then by counter, and a later period never sorts below an earlier one.
public struct CalendarScheme: Hashable, Sendable, CustomStringConvertible {
    public enum Token: String, Sendable, CaseIterable {
        case fullYear = "YYYY", shortYear = "YY", paddedYear = "0Y"
        case shortMonth = "MM", month = "M", paddedMonth = "0M"
        case shortWeek = "WW", week = "W", paddedWeek = "0W"
        case shortDay = "DD", day = "D", paddedDay = "0D"
        case micro = "MICRO", patch = "PATCH"

        /// In the order a scheme writes them (a month or a week, not both).
        enum Kind: Int { case year, month, week, day, counter }

        var kind: Kind {
            switch self {
            case .fullYear, .shortYear, .paddedYear: .year
            case .shortMonth, .month, .paddedMonth: .month
            case .shortWeek, .week, .paddedWeek: .week
            case .shortDay, .day, .paddedDay: .day
            case .micro, .patch: .counter
            }
        }

        var isPadded: Bool { [.paddedYear, .paddedMonth, .paddedWeek, .paddedDay].contains(self) }

        /// The component's text for a value (a year as the full year: 2024 is `24` for `YY`).
        func format(_ value: UInt64) -> String {
            var number = value
            if kind == .year && self != .fullYear { number = value >= 2000 ? value - 2000 : value }
            let text = String(number)
            return isPadded && text.count < 2 ? "0" + text : text
        }

        /// The value of a component's text (a short year is after 2000); nil when the text is not how this
        /// token writes a value (`01` for `M`, `1` for `0M`, `24` for `YYYY`) or the value is out of range.
        func parse(_ text: Substring) -> UInt64? {
            guard !text.isEmpty, text.utf8.count <= 19, text.isASCIIDigits,
                  var value = UInt64(text) else { return nil }
            switch kind {
            case .year:
                if self != .fullYear { value += 2000 } else if value < 1000 { return nil }
            case .month: guard (1...12).contains(value) else { return nil }
            case .week: guard (1...53).contains(value) else { return nil }
            case .day: guard (1...31).contains(value) else { return nil }
            case .counter: break
            }
            return format(value) == text ? value : nil
        }
    }

    /// The pattern as written, e.g. `YYYY.M.MICRO`.
    public let pattern: String
    public let tokens: [Token]

    /// A rejected pattern throws a ``Problem``: `calendar scheme "<pattern>" <reason>`.
    public init(_ pattern: String) throws(Problem) {
        func fail(_ reason: String) -> Problem { Problem("calendar scheme \"\(pattern)\" \(reason)") }
        var tokens: [Token] = []
        for part in pattern.split(separator: ".", omittingEmptySubsequences: false) {
            guard let token = Token(rawValue: String(part)) else {
                throw fail(part.isEmpty ? "has an empty component"
                           : "has an unknown token \"\(part)\" (known: \(Token.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            tokens.append(token)
        }
        guard tokens.first?.kind == .year else { throw fail("must start with a year (YYYY, YY or 0Y)") }
        // year, then month (then day) or week, then the counter: each kind after the ones before it, once.
        var last = -1
        for token in tokens {
            let rank = token.kind.rawValue
            guard rank > last else {
                throw fail("has \(token.rawValue) out of place: write year, then month (and day) or week, then MICRO or PATCH, each once")
            }
            last = rank
        }
        let kinds = tokens.map(\.kind)
        if kinds.contains(.week) && (kinds.contains(.month) || kinds.contains(.day)) {
            throw fail("mixes a week with a month or a day; use YYYY.WW or YYYY.M(.D)")
        }
        if kinds.contains(.day) && !kinds.contains(.month) { throw fail("has a day without a month") }
        self.pattern = pattern
        self.tokens = tokens
    }

    public var description: String { pattern }

    /// Whether the scheme numbers several releases within one period (`MICRO` or `PATCH`).
    public var hasCounter: Bool { tokens.last?.kind == .counter }

    /// The date part of a release on `date`: the year (ISO week-year with a week token), month, week, day.
    public func period(of date: CalendarDate) -> [UInt64] {
        let usesWeek = tokens.contains { $0.kind == .week }
        return tokens.compactMap { token -> UInt64? in
            switch token.kind {
            case .year: UInt64(max(0, usesWeek ? date.isoYear : date.year))
            case .month: UInt64(date.month)
            case .week: UInt64(date.isoWeek)
            case .day: UInt64(date.day)
            case .counter: nil
            }
        }
    }

    /// The version text of a period and counter.
    public func format(period: [UInt64], counter: UInt64?) -> String {
        var parts: [String] = []
        var values = period.makeIterator()
        for token in tokens {
            if token.kind == .counter { parts.append(token.format(counter ?? 0)) }
            else { parts.append(token.format(values.next() ?? 0)) }
        }
        return parts.joined(separator: ".")
    }

    /// Parses `text` written in this scheme (with an optional `-prerelease` and `+metadata`). A version without
    /// its trailing counter (`2024.12` under `YYYY.M.MICRO`) is the period's first release, counter 0.
    public func parse(_ text: String) -> CalendarVersion? {
        let parts = VersionParts(text)
        let components = parts.core.split(separator: ".", omittingEmptySubsequences: false)
        guard components.count == tokens.count || (hasCounter && components.count == tokens.count - 1) else { return nil }
        var period: [UInt64] = []
        var counter: UInt64?
        for (token, component) in zip(tokens, components) {
            guard let value = token.parse(component) else { return nil }
            if token.kind == .counter { counter = value } else { period.append(value) }
        }
        if hasCounter && counter == nil { counter = 0 }
        var prerelease: [PrereleaseIdentifier] = []
        if let pre = parts.prerelease {
            guard let parsed = SemanticVersion("0.0.0-" + pre) else { return nil }
            prerelease = parsed.prerelease
        }
        if let metadata = parts.metadata, SemanticVersion("0.0.0+" + metadata) == nil { return nil }
        return CalendarVersion(text: text, period: period, counter: counter, prerelease: prerelease)
    }

    /// The version of a release on `date` after `current` (nil: the first release).
    ///
    /// A period after the current one starts again at counter 0 (`2024.11.3` → `2024.12.0`); the same period
    /// bumps the counter (`2024.12.0` → `2024.12.1`). A release date before the current version's period (a
    /// clock behind, an old SOURCE_DATE_EPOCH) never goes backwards: it bumps the current version's counter.
    /// nil when the period is not new and the scheme has no counter (`YYYY.M` releases once a month).
    public func next(after current: CalendarVersion?, on date: CalendarDate) -> CalendarVersion? {
        let today = period(of: date)
        let text: String
        if let current, !today.lexicographicallyPrecedes(current.period) && today != current.period {
            text = format(period: today, counter: 0)
        } else if let current {
            guard hasCounter, let counter = current.counter, counter < UInt64.max else { return nil }
            text = format(period: current.period, counter: counter + 1)
        } else {
            text = format(period: today, counter: 0)
        }
        return parse(text)
    }
}

extension CalendarScheme {
    /// The shortest period the scheme tells apart, for messages: "day", "week", "month" or "year".
    public var periodName: String {
        let kinds = tokens.map(\.kind)
        if kinds.contains(.day) { return "day" }
        if kinds.contains(.week) { return "week" }
        if kinds.contains(.month) { return "month" }
        return "year"
    }
}
