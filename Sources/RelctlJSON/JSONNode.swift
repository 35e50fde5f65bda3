/// One `"key": value` pair of an object, in source order.
public struct JSONMember: Hashable, Sendable {
    public var key: String
    /// UTF-8 byte range of the key token, quotes included.
    public var keyRange: Range<Int>
    /// 1-based line of the key.
    public var keyLine: Int
    public var value: JSONNode

    public init(key: String, keyRange: Range<Int>, keyLine: Int, value: JSONNode) {
        self.key = key
        self.keyRange = keyRange
        self.keyLine = keyLine
        self.value = value
    }
}

public indirect enum JSONValue: Hashable, Sendable {
    /// Members in source order; duplicates are kept (JSON5 mode only).
    case object([JSONMember])
    case array([JSONNode])
    case string(String)
    /// The number exactly as written, e.g. `"057"` is impossible but `"1.50"` and `"1e3"` are kept verbatim.
    case number(String)
    case bool(Bool)
    case null

    /// The name used in messages: "object", "array", "string", "number", "boolean", "null".
    public var typeName: String {
        switch self {
        case .object: return "object"
        case .array: return "array"
        case .string: return "string"
        case .number: return "number"
        case .bool: return "boolean"
        case .null: return "null"
        }
    }
}

public struct JSONNode: Hashable, Sendable {
    public var value: JSONValue
    /// UTF-8 byte offsets of the value token(s): quotes included for strings,
    /// braces/brackets included for containers.
    public var range: Range<Int>
    /// 1-based line where the value starts.
    public var line: Int

    public init(value: JSONValue, range: Range<Int>, line: Int) {
        self.value = value
        self.range = range
        self.line = line
    }

    public var typeName: String { value.typeName }

    /// The value of `key` in an object (the last one if the key is duplicated), or nil.
    public func member(_ key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// All members named `key`, in source order (more than one only in JSON5 mode).
    public func members(named key: String) -> [JSONMember] {
        guard case .object(let members) = value else { return [] }
        return members.filter { $0.key == key }
    }

    /// Follows object keys: `path(["expo", "ios", "buildNumber"])`.
    public func path(_ keys: [String]) -> JSONNode? {
        var node = self
        for key in keys {
            guard let next = node.member(key) else { return nil }
            node = next
        }
        return node
    }

    public var objectMembers: [JSONMember]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// Keys of an object in source order (duplicates included), or nil for a non-object.
    public var objectKeys: [String]? { objectMembers?.map(\.key) }

    public var arrayValue: [JSONNode]? {
        if case .array(let items) = value { return items }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    /// The number as written in the source.
    public var numberText: String? {
        if case .number(let s) = value { return s }
        return nil
    }

    /// The number as an `Int` if it is written as a plain integer that fits.
    public var intValue: Int? {
        guard let text = numberText else { return nil }
        return Int(text)
    }

    public var boolValue: Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    public var isNull: Bool { value == .null }

    /// The string or number text (for fields such as buildNumber that may be either).
    public var scalarText: String? { stringValue ?? numberText }
}
