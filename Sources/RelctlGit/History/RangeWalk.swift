/// The commits reachable from a head and not from a hidden base.
public struct RangeWalk: Sendable {
    /// Newest first, in committer-date order (as `git log` prints them).
    public var commits: [CommitRecord]
    /// Whether the hidden base is an ancestor of (or equal to) the head.
    public var reachedBase: Bool
}
