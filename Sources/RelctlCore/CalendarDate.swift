/// A day of the proleptic Gregorian calendar in UTC, with its ISO 8601 week: what a calendar version is made of.
///
/// Pure arithmetic on days since 1970-01-01 (Howard Hinnant's `civil_from_days`), so RelctlCore needs no
/// calendar or time-zone database and the same epoch seconds give the same version on every machine.
public struct CalendarDate: Hashable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int
    /// The ISO 8601 week-numbering year and week (1…53): 2024-12-30 is in week 1 of 2025.
    public let isoYear: Int
    public let isoWeek: Int

    /// The UTC day holding `epochSeconds` (seconds since 1970-01-01T00:00:00Z).
    public init(epochSeconds: Int64) {
        let days = Int(epochSeconds >= 0 ? epochSeconds / 86_400 : (epochSeconds - 86_399) / 86_400)
        (year, month, day) = Self.civil(fromDays: days)
        // Monday is 0; 1970-01-01 was a Thursday (3). The ISO week belongs to the year of its Thursday.
        let weekday = ((days + 3) % 7 + 7) % 7
        let thursday = days - weekday + 3
        let thursdayYear = Self.civil(fromDays: thursday).year
        isoYear = thursdayYear
        isoWeek = (thursday - Self.days(fromYear: thursdayYear, month: 1, day: 1)) / 7 + 1
    }

    /// `year-month-day` of a UTC day; nil when the date does not exist.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        let days = Self.days(fromYear: year, month: month, day: day)
        guard Self.civil(fromDays: days) == (year, month, day) else { return nil }
        self.init(epochSeconds: Int64(days) * 86_400)
    }

    public var description: String {
        "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func days(fromYear year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
