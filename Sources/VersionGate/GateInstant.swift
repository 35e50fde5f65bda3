/// A moment in wall-clock time, as seconds since 1970-01-01 UTC. The library reads no clock itself: an app
/// passes `GateInstant(secondsSince1970: Date().timeIntervalSince1970)` from its injected clock, and tests
/// pass fixed instants.
public struct GateInstant: Sendable, Hashable, Comparable {
    public var secondsSince1970: Double

    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    /// The instant `seconds` later (earlier when negative).
    public func adding(seconds: Double) -> GateInstant {
        GateInstant(secondsSince1970: secondsSince1970 + seconds)
    }

    /// Seconds from `earlier` to this instant (negative when `earlier` is later).
    public func seconds(since earlier: GateInstant) -> Double {
        secondsSince1970 - earlier.secondsSince1970
    }

    public static func < (lhs: GateInstant, rhs: GateInstant) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }
}
