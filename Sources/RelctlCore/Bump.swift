/// The size of a version increment, ordered `none < patch < minor < major`.
public enum Bump: Int, Comparable, Sendable, CaseIterable, CustomStringConvertible {
    case none, patch, minor, major

    /// Parses `"none"`, `"patch"`, `"minor"` or `"major"` (ASCII case-insensitive).
    public init?(name: String) {
        switch name.lowercased() {
        case "none": self = .none
        case "patch": self = .patch
        case "minor": self = .minor
        case "major": self = .major
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .none: "none"
        case .patch: "patch"
        case .minor: "minor"
        case .major: "major"
        }
    }

    public static func < (lhs: Bump, rhs: Bump) -> Bool { lhs.rawValue < rhs.rawValue }
}
