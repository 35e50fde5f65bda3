/// When to check, what to cache and how long a cached document applies: pure functions of the time given.
public struct GateCachePolicy: Sendable, Hashable {
    /// How long a cached document applies when the document gives no `maxAgeSeconds`: 7 days, so a user who
    /// is really off the network is not trapped behind a block forever.
    public var maxAgeSeconds: Double
    /// At most one successful check per this many seconds: 15 minutes. Coming back to the foreground more
    /// often does nothing.
    public var throttleSeconds: Double

    public static let defaultMaxAgeSeconds: Double = 7 * 24 * 60 * 60
    public static let defaultThrottleSeconds: Double = 15 * 60

    public init(
        maxAgeSeconds: Double = GateCachePolicy.defaultMaxAgeSeconds,
        throttleSeconds: Double = GateCachePolicy.defaultThrottleSeconds
    ) {
        self.maxAgeSeconds = maxAgeSeconds
        self.throttleSeconds = throttleSeconds
    }

    /// Whether to fetch the document now: never checked, the throttle window since the last successful check
    /// is over, or the clock went back before it (the window cannot be trusted). A failed check does not
    /// count, so the next foreground tries again.
    public func shouldCheck(lastSuccessfulCheck: GateInstant?, now: GateInstant) -> Bool {
        guard let last = lastSuccessfulCheck else { return true }
        let elapsed = now.seconds(since: last)
        return elapsed < 0 || elapsed >= throttleSeconds
    }

    /// The entry to cache after fetching `document`: `nil` for a mock or test document, which is never cached
    /// (it would outlive the test that set it).
    public func entryToCache(document: String, isMock: Bool, now: GateInstant) -> GateCacheEntry? {
        isMock ? nil : GateCacheEntry(document: document, fetchedAt: now)
    }

    /// Whether a cached entry still applies at `now`: younger than the document's own `maxAgeSeconds`, or
    /// than ``maxAgeSeconds`` when it has none. An entry from the future (the clock went back) does not apply:
    /// its age is unknown, and a stale block must never trap a user.
    public func applies(_ entry: GateCacheEntry, documentMaxAgeSeconds: Int?, now: GateInstant) -> Bool {
        let age = now.seconds(since: entry.fetchedAt)
        let limit = documentMaxAgeSeconds.map(Double.init) ?? maxAgeSeconds
        return age >= 0 && age <= limit
    }
}
