/// What the app got when it asked for the gate document this time.
public enum GateFetchResult: Sendable, Hashable {
    /// The document as the server sent it.
    case fetched(String)
    /// A mock or test document (a debug setting): used for this decision only, never cached.
    case mock(String)
    /// No document this time: the fetch failed (timeout, 5xx, no connection) or was skipped because
    /// ``GateClient/shouldCheck()`` said no. The cached copy is used while it applies.
    case unavailable
}
