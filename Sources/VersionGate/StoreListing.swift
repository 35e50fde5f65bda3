/// What the app store lists, when the store is the source of "latest".
public enum StoreListing: Sendable, Hashable {
    /// The store is not consulted: the document's `latestVersion` is the latest.
    case notConfigured
    /// The store lists `version`, with its page at `url` when known. This version is the latest, and an
    /// installed version that is not older than it is never asked to update (there is nothing to install).
    case listed(version: GateVersion, url: String?)
    /// The store was asked but the lookup failed or listed nothing: no prompt at all, forced or not.
    case unavailable
}
