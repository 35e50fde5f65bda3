/// The commits reachable from a head and not from a hidden base.
package struct RangeWalk: Sendable {
    /// Newest first, in committer-date order (as `git log` prints them).
    package var commits: [CommitRecord]
    /// Whether the hidden base is an ancestor of (or equal to) the head.
    package var reachedBase: Bool
}
