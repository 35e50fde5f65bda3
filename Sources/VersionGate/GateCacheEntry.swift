/// The cached copy of the last document fetched successfully: the raw text, never the verdict, so an app
/// updated while offline is judged again by its new version.
public struct GateCacheEntry: Sendable, Hashable {
    /// The document exactly as fetched.
    public var document: String
    /// When it was fetched: the last successful check.
    public var fetchedAt: GateInstant

    public init(document: String, fetchedAt: GateInstant) {
        self.document = document
        self.fetchedAt = fetchedAt
    }
}
