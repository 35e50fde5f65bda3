/// Why the request gate allowed or refused a request.
public enum RequestGateReason: String, Sendable, Hashable, CaseIterable, Codable {
    /// No `X-App-Version` (a web or legacy client), or one without any number in it: allowed (log it).
    case missingVersion
    /// The document sets no minimum for the platform: allowed.
    case noMinimum
    /// At or above the minimum: allowed.
    case supported
    /// Below the minimum: refused with the upgrade response.
    case belowMinimum
    /// The document is `null`: allowed.
    case nullDocument
    /// The document's values could not be read: allowed (fail open, as the app does).
    case documentUnreadable
}
