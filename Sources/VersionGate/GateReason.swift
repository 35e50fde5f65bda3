/// Why the gate gave its ``GateStatus``: one step of the decision ladder.
public enum GateReason: String, Sendable, Hashable, CaseIterable, Codable {
    /// `maintenance` is on in the document.
    case maintenance
    /// The installed version is below the minimum supported version.
    case belowMinimum
    /// The installed version is below the latest version.
    case belowLatest
    /// Below the latest, but the user chose Later for exactly that latest version.
    case dismissed
    /// At or above the latest version (or no latest is set).
    case upToDate
    /// The store lists no version newer than the installed one: there is nothing to install, so nothing is
    /// asked, even below the minimum.
    case notOlderThanStore
    /// The document is `null`: the app runs with its defaults.
    case nullDocument
    /// The config could not be fetched, or no cached copy is young enough to apply (fail open).
    case configUnavailable
    /// The config was fetched but could not be read (fail open).
    case configUnreadable
    /// The store lookup is configured but failed or listed nothing (fail open).
    case storeUnavailable
}
