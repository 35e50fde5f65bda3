/// A ``GateStorage`` in a dictionary, for tests and for servers that keep nothing.
public struct InMemoryGateStorage: GateStorage, Sendable, Hashable {
    public var values: [String: String]

    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    public func string(forKey key: String) -> String? {
        values[key]
    }

    public mutating func setString(_ value: String?, forKey key: String) {
        values[key] = value
    }
}
