import Foundation

/// The dates git accepts in `GIT_AUTHOR_DATE` / `GIT_COMMITTER_DATE`, read without a repository.
enum GitDate {
    /// The forms `parse` reads, for error messages.
    static let acceptedForms = "@1700000000 +0000 (git's raw form), 2020-01-01T00:00:00Z or 2020-01-01 00:00:00+02:00 (ISO 8601) or Wed, 1 Jan 2020 00:00:00 +0000 (RFC 2822)"

    /// A date in a form git accepts in `GIT_*_DATE`: the raw `@1700000000 +0000` / `1700000000 +0200`,
    /// ISO 8601 (`2020-01-01T00:00:00Z`, `2020-01-01 00:00:00+02:00`, `…+0200`, fractions ignored; no zone
    /// means `localZone`, the local zone as git does) or RFC 2822 (`Wed, 1 Jan 2020 00:00:00 +0000`).
    /// Nil when unreadable.
    static func parse(_ text: String, localZone: TimeZone = .current) -> (seconds: Int64, offsetMinutes: Int32)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return parseRaw(trimmed) ?? parseISO8601(trimmed, localZone: localZone) ?? parseRFC2822(trimmed)
    }

    /// `@seconds [±hhmm]` or `seconds ±hhmm`.
    private static func parseRaw(_ text: String) -> (seconds: Int64, offsetMinutes: Int32)? {
        let parts = text.split(separator: " ")
        guard let first = parts.first, parts.count <= 2 else { return nil }
        let raw = first.hasPrefix("@")
        // A bare number is a timestamp only when it is too big to be a date like 20200101 (git's rule).
        guard let seconds = Int64(raw ? first.dropFirst() : first), raw || parts.count == 2 || seconds >= 100_000_000 else { return nil }
        guard parts.count == 2 else { return (seconds, 0) }
        guard let offset = zoneOffset(parts[1]) else { return nil }
        return (seconds, offset)
    }

    /// `YYYY-MM-DD[T| ]HH:MM[:SS[.fff]][ ][Z|±hh:mm|±hhmm|±hh]`.
    private static func parseISO8601(_ text: String, localZone: TimeZone) -> (seconds: Int64, offsetMinutes: Int32)? {
        let chars = Array(text.utf8)
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= chars.count else { return nil }
            var value = 0
            for c in chars[i..<i + width] {
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            i += width
            return value
        }
        func take(_ c: UInt8) -> Bool {
            guard i < chars.count, chars[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(4), take(UInt8(ascii: "-")), let month = number(2), take(UInt8(ascii: "-")), let day = number(2),
              take(UInt8(ascii: "T")) || take(UInt8(ascii: " ")),
              let hour = number(2), take(UInt8(ascii: ":")), let minute = number(2) else { return nil }
        var second = 0
        if take(UInt8(ascii: ":")) {
            guard let s = number(2) else { return nil }
            second = s
            if take(UInt8(ascii: ".")) || take(UInt8(ascii: ",")) {
                let start = i
                while i < chars.count, chars[i] >= 48 && chars[i] <= 57 { i += 1 }
                guard i > start else { return nil }
            }
        }
        _ = take(UInt8(ascii: " "))
        let zone = String(decoding: chars[i...], as: UTF8.self)
        guard let local = epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else { return nil }
        let offset: Int32
        if zone.isEmpty {
            offset = Int32(localZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(local))) / 60)
        } else if zone == "Z" || zone == "z" {
            offset = 0
        } else {
            guard let parsed = zoneOffset(Substring(zone)) else { return nil }
            offset = parsed
        }
        return (local - Int64(offset) * 60, offset)
    }

    /// `[Wed, ]1 Jan 2020 00:00[:00] +0000` (also `GMT`/`UT`/`Z` for +0000).
    private static func parseRFC2822(_ text: String) -> (seconds: Int64, offsetMinutes: Int32)? {
        var parts = text.split(separator: " ").map(String.init)
        if let first = parts.first, first.hasSuffix(",") {
            guard ["mon,", "tue,", "wed,", "thu,", "fri,", "sat,", "sun,"].contains(first.lowercased()) else { return nil }
            parts.removeFirst()
        }
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        guard parts.count == 5, let day = Int(parts[0]), let monthIndex = months.firstIndex(of: parts[1].lowercased()),
              parts[2].count == 4, let year = Int(parts[2]) else { return nil }
        let time = parts[3].split(separator: ":", omittingEmptySubsequences: false)
        guard time.count == 2 || time.count == 3, time.allSatisfy({ $0.count == 2 }),
              let hour = Int(time[0]), let minute = Int(time[1]) else { return nil }
        var second = 0
        if time.count == 3 {
            guard let s = Int(time[2]) else { return nil }
            second = s
        }
        let offset: Int32
        if ["GMT", "UT", "UTC", "Z"].contains(parts[4].uppercased()) {
            offset = 0
        } else {
            guard parts[4].count == 5, let parsed = zoneOffset(Substring(parts[4])) else { return nil }
            offset = parsed
        }
        guard let local = epochSeconds(year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second) else { return nil }
        return (local - Int64(offset) * 60, offset)
    }

    /// `+0200`, `-05:30`, `+02` → minutes east of UTC.
    private static func zoneOffset(_ zone: Substring) -> Int32? {
        let chars = Array(zone)
        guard let sign = chars.first, sign == "+" || sign == "-" else { return nil }
        var digits = Array(chars.dropFirst())
        if digits.count == 5 {
            guard digits[2] == ":" else { return nil }
            digits.remove(at: 2)
        }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let hours = Int32(String(digits[0..<2]))!
        let minutes = digits.count == 4 ? Int32(String(digits[2..<4]))! : 0
        guard hours <= 14, minutes < 60 else { return nil }
        return (hours * 60 + minutes) * (sign == "-" ? -1 : 1)
    }

    /// Seconds since the epoch of a UTC civil time, nil when a field is out of range.
    private static func epochSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64? {
        guard (1...12).contains(month), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...lengths[month - 1]).contains(day) else { return nil }
        // Days from civil (Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = Int64(era * 146_097 + doe - 719_468)
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }
}
