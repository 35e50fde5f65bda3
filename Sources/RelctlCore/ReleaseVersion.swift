#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A release version in the app's ``VersionScheme``: a semantic version, or a calendar one.
public enum ReleaseVersion: Hashable, Sendable, Comparable, CustomStringConvertible {
    case semantic(SemanticVersion)
    /// A two-part version (`8.19`), of the `major.minor` scheme.
    case twoPart(TwoPartVersion)
    case calendar(CalendarVersion)

    /// Prerelease versions are never a release base.
    public var isStable: Bool {
        switch self {
        case .semantic(let version): version.isStable
        case .twoPart(let version): version.isStable
        case .calendar(let version): version.isStable
        }
    }

    public var description: String {
        switch self {
        case .semantic(let version): version.description
        case .twoPart(let version): version.text
        case .calendar(let version): version.text
        }
    }

    /// The semantic version, when the scheme is semver.
    public var semantic: SemanticVersion? {
        if case .semantic(let version) = self { return version }
        return nil
    }

    /// The numbers the commits bump, as a semantic version: the version itself under semver, a two-part version
    /// with patch 0 (`8.19.0-rc.2` for `8.19-rc-2`); nil for a calendar version.
    public var numbered: SemanticVersion? {
        switch self {
        case .semantic(let version): version
        case .twoPart(let version): version.semantic
        case .calendar: nil
        }
    }

    /// The calendar version, when the scheme is a calendar one.
    public var calendar: CalendarVersion? {
        if case .calendar(let version) = self { return version }
        return nil
    }

    /// Precedence within a scheme (SemVer §11, or date then counter); two schemes never meet in one run, and
    /// if they did, the versions are ordered number by number (``VersionOrder``).
    public static func < (a: ReleaseVersion, b: ReleaseVersion) -> Bool {
        switch (a, b) {
        case let (.semantic(x), .semantic(y)): x < y
        case let (.twoPart(x), .twoPart(y)): x < y
        case let (.calendar(x), .calendar(y)): x < y
        default: VersionOrder.compare(a.description, b.description) == .orderedAscending
        }
    }

    /// Equal up to build metadata (and, for calendar versions, an omitted counter).
    public func hasSamePrecedence(as other: ReleaseVersion) -> Bool { !(self < other) && !(other < self) }
}
