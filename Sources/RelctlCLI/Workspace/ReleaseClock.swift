import Foundation
import RelctlCore

/// The release time: `SOURCE_DATE_EPOCH` (reproducible builds, tests) or now. It dates the changelog and the
/// major-release marker, and decides the period of a calendar version (UTC).
enum ReleaseClock {
    /// Seconds since 1970-01-01T00:00:00Z.
    static func seconds(_ environment: [String: String]) -> Int64 {
        if let text = environment["SOURCE_DATE_EPOCH"], let seconds = TimeInterval(text.trimmingCharacters(in: .whitespaces)),
           seconds.isFinite, abs(seconds) < 1e15 {
            return Int64(seconds)
        }
        return Int64(Date().timeIntervalSince1970)
    }

    /// The UTC day of the release.
    static func date(_ environment: [String: String]) -> CalendarDate {
        CalendarDate(epochSeconds: seconds(environment))
    }

    /// The release day as `YYYY-MM-DD` (UTC): the changelog's date.
    static func releaseDate(_ environment: [String: String]) -> String {
        String(isoDate(environment).prefix(10))
    }

    /// The release time as ISO 8601 (UTC): the major-release marker's date.
    static func isoDate(_ environment: [String: String]) -> String {
        let epoch = seconds(environment)
        // 1970-01-01 to 9999-12-31: the proleptic Gregorian arithmetic of CalendarDate gives what the formatter
        // gives (2.6 million instructions of Foundation's calendar set-up); only dates outside it go through it.
        if epoch >= 0 && epoch < 253_402_300_800 {
            let day = CalendarDate(epochSeconds: epoch)
            let time = epoch % 86_400
            func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return "\(day)T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))Z"
        }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(epoch)))
    }
}
