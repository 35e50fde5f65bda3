/// How an app numbers its releases: `semver` (the default) or a calendar scheme such as `YYYY.M.MICRO`.
public enum VersionScheme: Hashable, Sendable, CustomStringConvertible {
    case semver
    case calendar(CalendarScheme)

    /// `"semver"`, or a calendar pattern (see ``CalendarScheme``).
    public init(_ text: String) throws(CalendarSchemeError) {
        if text == "semver" { self = .semver } else { self = .calendar(try CalendarScheme(text)) }
    }

    public var description: String {
        switch self {
        case .semver: "semver"
        case .calendar(let scheme): scheme.pattern
        }
    }

    /// The version `text` stands for in this scheme; nil when it is not one (`2.43` under semver).
    public func parse(_ text: String) -> ReleaseVersion? {
        switch self {
        case .semver: SemanticVersion(text).map(ReleaseVersion.semantic)
        case .calendar(let scheme): scheme.parse(text).map(ReleaseVersion.calendar)
        }
    }

    /// The most components a version of this scheme has (3 for semver).
    public var componentCount: Int {
        switch self {
        case .semver: 3
        case .calendar(let scheme): scheme.tokens.count
        }
    }

    /// How a version of this scheme is written, for messages: `MAJOR.MINOR.PATCH such as 1.3.0`.
    public var example: String {
        switch self {
        case .semver: "MAJOR.MINOR.PATCH such as \(sample)"
        case .calendar(let scheme): "\(scheme.pattern) such as \(sample)"
        }
    }

    /// A version of this scheme, for messages: `1.3.0`, or the first release of March 2024 (`2024.3.0`).
    public var sample: String {
        switch self {
        case .semver: "1.3.0"
        case .calendar(let scheme): scheme.format(period: scheme.period(of: CalendarDate(year: 2024, month: 3, day: 5)!), counter: 0)
        }
    }
}
