/// The versions a maintenance branch releases: `1.4.x` (patches of 1.4) or `1.x` (minors and patches of 1).
public struct MaintenanceRange: Hashable, Sendable, CustomStringConvertible {
    public let major: UInt64
    /// nil: every minor of `major` (`1.x`).
    public let minor: UInt64?

    public init(major: UInt64, minor: UInt64? = nil) {
        self.major = major
        self.minor = minor
    }

    /// `1.4.x`, `1.x`, or `1.4` (read as `1.4.x`); nil for anything else.
    public init?(_ text: String) {
        var parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.last == "x" || parts.last == "X" { parts.removeLast() }
        guard (1...2).contains(parts.count), parts.allSatisfy(\.isASCIIDigits),
              parts.allSatisfy({ $0 == "0" || !$0.hasPrefix("0") }),
              let major = UInt64(parts[0]) else { return nil }
        self.major = major
        if parts.count == 2 {
            guard let minor = UInt64(parts[1]) else { return nil }
            self.minor = minor
        } else {
            // `1` alone is not a range: only `1.x` says so.
            guard text.hasSuffix(".x") || text.hasSuffix(".X") else { return nil }
            self.minor = nil
        }
    }

    /// The range a branch name spells in its last path component, only with the `x`: `release/1.4.x`, `1.x`,
    /// `hotfix/2.0.x`. `release/1.4` says nothing (an entry with `"maintenance": true` reads it).
    public init?(branchName: String) {
        let last = branchName.split(separator: "/").last.map(String.init) ?? branchName
        guard last.hasSuffix(".x") || last.hasSuffix(".X"), let range = MaintenanceRange(last) else { return nil }
        self = range
    }

    /// The range of a branch marked maintenance: its name's `1.4.x`, `1.x` or `1.4`; nil when it spells none.
    public init?(maintenanceBranchName branchName: String) {
        if let range = MaintenanceRange(branchName: branchName) {
            self = range
            return
        }
        let last = branchName.split(separator: "/").last.map(String.init) ?? branchName
        guard last.contains("."), let range = MaintenanceRange(last) else { return nil }
        self = range
    }

    public var description: String { minor.map { "\(major).\($0).x" } ?? "\(major).x" }

    public func contains(_ version: SemanticVersion) -> Bool {
        version.major == major && (minor.map { version.minor == $0 } ?? true)
    }

    /// The largest bump that stays inside: `patch` on `1.4.x`, `minor` on `1.x`.
    public var largestBump: Bump { minor == nil ? .minor : .patch }
}
