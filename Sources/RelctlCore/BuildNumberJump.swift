/// How far one sync may move a build number. Store build numbers cannot be taken back: Google Play never
/// accepts a lower versionCode once one is uploaded, and its cap is 2100000000, so a shared counter that
/// carries an iOS timestamp-like build (1703280000) into Android's versionCode 1 would use 81 % of the
/// range in one release, for good. A move larger than the allowance is refused before anything is written.
public enum BuildNumberJump {
    /// The default largest move, when `buildNumber.maxJump` is not set.
    public static let defaultLimit = 10_000

    /// The largest move allowed from `current`: `limit`, and for Android (and Flutter's shared build number,
    /// which becomes the versionCode) also at most 1 % of what is left below Google Play's cap; at least 1.
    public static func allowance(from current: Int, android: Bool, limit: Int) -> Int {
        guard android else { return limit }
        let remaining = max(0, StoreRules.maxAndroidVersionCode - current)
        return max(1, min(limit, remaining / 100))
    }

    /// The move from `current` to `new` when it exceeds the allowance, nil when it is within it (or when the
    /// numbers cannot be compared: dotted builds with different leading parts, non-numeric values).
    /// Dotted iOS builds (`1.7.0.4`) are compared on their last component when the rest is equal.
    public static func excess(from current: String, to new: String, android: Bool, limit: Int) -> (by: Int, allowed: Int)? {
        guard limit > 0,
              let old = VersionParts(current).numbers, let next = VersionParts(new).numbers,
              !old.isEmpty, old.count == next.count, old.dropLast() == next.dropLast() else { return nil }
        let from = old[old.count - 1], to = next[next.count - 1]
        guard to > from else { return nil }
        let (move, overflow) = to.subtractingReportingOverflow(from)
        let allowed = allowance(from: from, android: android, limit: limit)
        if overflow || move > allowed { return (overflow ? Int.max : move, allowed) }
        return nil
    }
}
