import RelctlJSON

/// A JSON value as the gate reads and writes it (RFC 8259), without Foundation. The text is read by relctl's one
/// JSON parser (the dependency-free `RelctlJSON` module), strictly, and its tree turned into this value.
public indirect enum GateJSON: Sendable, Hashable {
    /// Members in document order. A key given twice is rejected by the reader.
    case object([(key: String, value: GateJSON)])
    case array([GateJSON])
    case string(String)
    /// The number exactly as written (`900`, `4.1`, `1e3`).
    case number(String)
    case bool(Bool)
    case null

    /// How deep objects and arrays may nest in a document the library reads, so a hostile document cannot exhaust
    /// the stack of a server that reads it. A tree relctl's parser read with its own (higher) limit is held to it too.
    public static let maximumDepth = 100

    /// Reads one JSON document (RFC 8259: no comments, no trailing commas, no key twice; a byte-order mark is
    /// skipped; nesting deeper than ``maximumDepth`` is refused while reading). Throws ``GateDocumentError`` with
    /// the line and column of the first problem. The same path as relctl's own reading: the tree, then ``init(_:)``.
    public static func parse(_ text: String) throws(GateDocumentError) -> GateJSON {
        let tree: JSONNode
        do {
            tree = try JSONDocument.parse(text, allowJSON5: false, maximumDepth: maximumDepth)
        } catch {
            throw GateDocumentError(error.message, line: error.line, column: error.column)
        }
        return try GateJSON(tree)
    }

    /// The value of a tree read by `RelctlJSON`'s parser in strict mode (relctl's `gate` commands parse the
    /// document once, with positions, and hand the tree here). Nesting deeper than ``maximumDepth`` is an error
    /// at the line of the first level too deep, with the message ``parse(_:)`` gives (and no column).
    public init(_ node: JSONNode) throws(GateDocumentError) {
        self = try GateJSON.converting(node, depth: 0)
    }

    private static func converting(_ node: JSONNode, depth: Int) throws(GateDocumentError) -> GateJSON {
        switch node.value {
        case .object(let members):
            guard depth < maximumDepth else { throw tooDeep(node) }
            var converted: [(key: String, value: GateJSON)] = []
            converted.reserveCapacity(members.count)
            for member in members { converted.append((member.key, try converting(member.value, depth: depth + 1))) }
            return .object(converted)
        case .array(let items):
            guard depth < maximumDepth else { throw tooDeep(node) }
            var converted: [GateJSON] = []
            converted.reserveCapacity(items.count)
            for item in items { converted.append(try converting(item, depth: depth + 1)) }
            return .array(converted)
        case .string(let text): return .string(text)
        case .number(let text): return .number(text)
        case .bool(let value): return .bool(value)
        case .null: return .null
        }
    }

    private static func tooDeep(_ node: JSONNode) -> GateDocumentError {
        GateDocumentError("nesting deeper than \(maximumDepth) levels", line: node.line)
    }

    /// The member named `key` of an object, or `nil`.
    public subscript(key: String) -> GateJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The members of an object (empty for anything else).
    public var members: [(key: String, value: GateJSON)] {
        if case .object(let members) = self { return members }
        return []
    }

    /// The name used in messages: object, array, string, number, boolean, null.
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

    public static func == (lhs: GateJSON, rhs: GateJSON) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let a), .array(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .object(let members):
            hasher.combine(0)
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        case .array(let items):
            hasher.combine(1)
            hasher.combine(items)
        case .string(let text):
            hasher.combine(2)
            hasher.combine(text)
        case .number(let text):
            hasher.combine(3)
            hasher.combine(text)
        case .bool(let value):
            hasher.combine(4)
            hasher.combine(value)
        case .null:
            hasher.combine(5)
        }
    }

    /// The value as compact JSON text, members in their order. Strings escape `"`, `\` and control
    /// characters (`JSONDocument.quote`, as relctl writes JSON); everything else is written as is (UTF-8).
    public var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                out += JSONDocument.quote(member.key)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .string(let text): out += JSONDocument.quote(text)
        case .number(let text): out += text
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        }
    }
}
