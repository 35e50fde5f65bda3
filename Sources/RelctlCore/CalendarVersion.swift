/// A version of a ``CalendarScheme``: its period (year, then month, week or day, as full numbers), the counter
/// within the period, and an optional prerelease. Ordered by period, then counter, then SemVer prerelease rules.
public struct CalendarVersion: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The version as written (`2024.01.3`).
    public let text: String
    /// The date values in scheme order (a short year as the full year: `24` is 2024).
    public let period: [UInt64]
    /// The counter (`MICRO`/`PATCH`); nil when the scheme has none.
    public let counter: UInt64?
    public let prerelease: [PrereleaseIdentifier]

    public var isStable: Bool { prerelease.isEmpty }
    public var description: String { text }

    public static func < (a: CalendarVersion, b: CalendarVersion) -> Bool {
        if a.period != b.period { return a.period.lexicographicallyPrecedes(b.period) }
        if (a.counter ?? 0) != (b.counter ?? 0) { return (a.counter ?? 0) < (b.counter ?? 0) }
        switch (a.prerelease.isEmpty, b.prerelease.isEmpty) {
        case (true, _): return false
        case (false, true): return true
        case (false, false): return a.prerelease.lexicographicallyPrecedes(b.prerelease)
        }
    }

    /// Equal up to the way it is written (`2024.12` and `2024.12.0` under `YYYY.M.MICRO`) and build metadata.
    public func hasSamePrecedence(as other: CalendarVersion) -> Bool { !(self < other) && !(other < self) }
}
