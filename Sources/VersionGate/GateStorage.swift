/// Where the gate keeps its cached document and the version the user dismissed: strings by key. An app
/// backs it with `UserDefaults` or a file; tests use ``InMemoryGateStorage``.
public protocol GateStorage {
    func string(forKey key: String) -> String?
    /// Stores `value`, or removes the key when `value` is `nil`.
    mutating func setString(_ value: String?, forKey key: String)
}
