import RelctlCore
import RelctlJSON

/// Reads the keys of one JSON object strictly: each known key once, with the right type; anything else an error.
struct StrictObject {
    let node: JSONNode
    let path: String
    /// Where this object sits ("" for the root, "buildNumber." for a nested one), for messages.
    let prefix: String

    init(_ node: JSONNode, path: String, prefix: String = "") throws(Problem) {
        guard node.objectMembers != nil else {
            throw Problem("\(prefix.isEmpty ? "the config" : "'\(prefix.dropLast())'") must be a JSON object, not \(Self.article(node.typeName))", at: DiagnosticLocation(path: path, line: node.line))
        }
        self.node = node
        self.path = path
        self.prefix = prefix
    }

    static func article(_ typeName: String) -> String {
        (["a", "e", "i", "o", "u"].contains(typeName.prefix(1)) ? "an " : "a ") + typeName
    }

    /// Fails on the first key not in `known`, naming the key, its line and the keys that exist.
    func rejectUnknownKeys(_ known: [String]) throws(Problem) {
        for member in node.objectMembers ?? [] where !known.contains(member.key) {
            let suggestion = known.min { editDistance($0, member.key) < editDistance($1, member.key) }
            var message = "unknown key '\(prefix)\(member.key)'"
            if let suggestion, editDistance(suggestion, member.key) <= 2 {
                message += "; did you mean '\(prefix)\(suggestion)'?"
            } else {
                message += "; known keys: \(known.map { prefix + $0 }.joined(separator: ", "))"
            }
            throw Problem(message, at: DiagnosticLocation(path: path, line: member.keyLine))
        }
    }

    func wrongType(_ key: String, _ node: JSONNode, expected: String) -> Problem {
        Problem("'\(prefix)\(key)' must be \(expected), not \(Self.article(node.typeName))", at: DiagnosticLocation(path: path, line: node.line))
    }

    func string(_ key: String) throws(Problem) -> (String, JSONNode)? {
        guard let value = node.member(key) else { return nil }
        guard let text = value.stringValue else { throw wrongType(key, value, expected: "a string") }
        return (text, value)
    }

    func bool(_ key: String) throws(Problem) -> Bool? {
        guard let value = node.member(key) else { return nil }
        guard let flag = value.boolValue else { throw wrongType(key, value, expected: "true or false") }
        return flag
    }

    func object(_ key: String) throws(Problem) -> StrictObject? {
        guard let value = node.member(key) else { return nil }
        guard value.objectMembers != nil else { throw wrongType(key, value, expected: "an object") }
        return try StrictObject(value, path: path, prefix: prefix + key + ".")
    }

    func array(_ key: String) throws(Problem) -> [JSONNode]? {
        guard let value = node.member(key) else { return nil }
        guard let items = value.arrayValue else { throw wrongType(key, value, expected: "an array") }
        return items
    }

    func error(_ node: JSONNode, _ message: String) -> Problem {
        Problem(message, at: DiagnosticLocation(path: path, line: node.line))
    }
}
