/// How an app numbers its releases: `semver` (the default), `major.minor` (two parts, `8.19`), or a calendar
/// scheme such as `YYYY.M.MICRO`.
public enum VersionScheme: Hashable, Sendable, CustomStringConvertible {
    case semver
    /// Two parts, `MAJOR.MINOR` (see ``TwoPartVersion``): kept two in the files and the tags.
    case majorMinor
    case calendar(CalendarScheme)

    /// The name of the two-part scheme in `.relctl.json`.
    public static let majorMinorName = "major.minor"

    /// `"semver"`, `"major.minor"`, or a calendar pattern (see ``CalendarScheme``).
    public init(_ text: String) throws(Problem) {
        if text == "semver" { self = .semver }
        else if text == Self.majorMinorName { self = .majorMinor }
        else { self = .calendar(try CalendarScheme(text)) }
    }

    public var description: String {
        switch self {
        case .semver: "semver"
        case .majorMinor: Self.majorMinorName
        case .calendar(let scheme): scheme.pattern
        }
    }

    /// The release version of `semantic` in this scheme, for the schemes the commits number (semver and two-part;
    /// nil for a calendar scheme): a two-part scheme drops the patch and writes a prerelease with `spelling`.
    public func version(_ semantic: SemanticVersion, spelling: PrereleaseSpelling = .dotted) -> ReleaseVersion? {
        switch self {
        case .semver: .semantic(semantic)
        case .majorMinor: .twoPart(TwoPartVersion(semantic, spelling: spelling))
        case .calendar: nil
        }
    }

    /// Whether the commits choose the number (semver, two-part), not the date (a calendar scheme).
    public var bumpsByCommits: Bool {
        if case .calendar = self { return false }
        return true
    }

    /// The bump the scheme applies for `bump`: a two-part version has no patch to move, so a patch moves the minor.
    public func effective(_ bump: Bump) -> Bump {
        if case .majorMinor = self { return TwoPartVersion.bump(bump) }
        return bump
    }

    /// The initial version in this scheme (`1.0` for `1.0.0` under major.minor).
    public func initial(_ semantic: SemanticVersion) -> ReleaseVersion? { version(semantic) }

    /// The version `text` stands for in this scheme; nil when it is not one (`2.43` under semver).
    public func parse(_ text: String) -> ReleaseVersion? {
        switch self {
        case .semver: SemanticVersion(text).map(ReleaseVersion.semantic)
        case .majorMinor: TwoPartVersion(text).map(ReleaseVersion.twoPart)
        case .calendar(let scheme): scheme.parse(text).map(ReleaseVersion.calendar)
        }
    }

    /// The most components a version of this scheme has (3 for semver).
    public var componentCount: Int {
        switch self {
        case .semver: 3
        case .majorMinor: 2
        case .calendar(let scheme): scheme.tokens.count
        }
    }

    /// How a version of this scheme is written, for messages: `MAJOR.MINOR.PATCH such as 1.3.0`.
    public var example: String {
        switch self {
        case .semver: "MAJOR.MINOR.PATCH such as \(sample)"
        case .majorMinor: "MAJOR.MINOR such as \(sample)"
        case .calendar(let scheme): "\(scheme.pattern) such as \(sample)"
        }
    }

    /// A version of this scheme, for messages: `1.3.0`, or the first release of March 2024 (`2024.3.0`).
    public var sample: String {
        switch self {
        case .semver: "1.3.0"
        case .majorMinor: "1.3"
        case .calendar(let scheme): scheme.format(period: scheme.period(of: CalendarDate(year: 2024, month: 3, day: 5)!), counter: 0)
        }
    }
}
