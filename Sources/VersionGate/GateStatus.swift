/// The five outcomes of the gate. Only ``blocked`` and ``maintenance`` stop the user.
public enum GateStatus: String, Sendable, Hashable, CaseIterable, Codable {
    /// Below the minimum supported version: a full-screen wall with one Update button and no way to dismiss.
    case blocked
    /// At or above the minimum but below the latest: a nudge with Update and Later.
    case updateAvailable
    /// Nothing to show.
    case ok
    /// The server says it is down for maintenance: a full-screen wall with Retry instead of Update, whatever
    /// the version.
    case maintenance
    /// The config could not be fetched or read (or the store lookup failed): the user is let through. A
    /// network hiccup must never block a working user.
    case error

    /// Whether the app must stop the user (``blocked`` or ``maintenance``).
    public var stopsUser: Bool {
        self == .blocked || self == .maintenance
    }
}
