#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Orders version strings the way the stores read them, whatever scheme wrote them: `2.43` (a two-part marketing
/// version), `2.43.0`, `2024.12.3`, `1.3.0-beta.1`.
///
/// The stores compare marketing versions number by number, so this does too: the core's dot-separated integers
/// left to right, a missing trailing number counting as 0 (`2.43` = `2.43.0`, as App Store Connect reads
/// CFBundleShortVersionString), leading zeros ignored (`2024.01` = `2024.1`); then, with equal cores, SemVer's
/// rule for prereleases (§11: `1.3.0-beta.1` < `1.3.0`; identifiers numeric or lexical). Build metadata is ignored.
public enum VersionOrder {
    /// The order of `a` and `b`; nil when either core is not dot-separated decimal integers (`UNVERSIONED`, `v1.2`).
    public static func compare(_ a: String, _ b: String) -> ComparisonResult? {
        guard let x = Key(a), let y = Key(b) else { return nil }
        for i in 0..<max(x.numbers.count, y.numbers.count) {
            let p = i < x.numbers.count ? x.numbers[i] : 0, q = i < y.numbers.count ? y.numbers[i] : 0
            if p != q { return p < q ? .orderedAscending : .orderedDescending }
        }
        switch (x.prerelease.isEmpty, y.prerelease.isEmpty) {
        case (true, true): return .orderedSame
        case (true, false): return .orderedDescending
        case (false, true): return .orderedAscending
        case (false, false): break
        }
        for (p, q) in zip(x.prerelease, y.prerelease) where p != q {
            return p < q ? .orderedAscending : .orderedDescending
        }
        if x.prerelease.count == y.prerelease.count { return .orderedSame }
        return x.prerelease.count < y.prerelease.count ? .orderedAscending : .orderedDescending
    }

    /// Whether `text` is a version this type can order: a core of dot-separated integers, with an optional
    /// `-prerelease` and `+metadata`.
    public static func isNumeric(_ text: String) -> Bool { Key(text) != nil }

    /// The numeric core of `text` (`[2, 43]` for `2.43`), nil when it is not numeric.
    public static func numbers(_ text: String) -> [UInt64]? { Key(text)?.numbers }

    private struct Key {
        var numbers: [UInt64] = []
        var prerelease: [PrereleaseIdentifier] = []

        init?(_ text: String) {
            let parts = VersionParts(text)
            for component in parts.core.split(separator: ".", omittingEmptySubsequences: false) {
                guard !component.isEmpty, component.utf8.count <= 19,
                      component.isASCIIDigits, let n = UInt64(component) else { return nil }
                numbers.append(n)
            }
            if let pre = parts.prerelease {
                for identifier in pre.split(separator: ".", omittingEmptySubsequences: false) {
                    guard !identifier.isEmpty else { return nil }
                    if identifier.isASCIIDigits, let n = UInt64(identifier) {
                        prerelease.append(.numeric(n))
                    } else {
                        prerelease.append(.alphanumeric(String(identifier)))
                    }
                }
            }
        }
    }
}
