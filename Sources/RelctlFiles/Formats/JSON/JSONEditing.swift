import RelctlCore
import RelctlJSON

/// Shared JSON plumbing: find a key path (refusing duplicate keys along it) and rewrite a scalar token.
enum JSONEditing {
    static func parse(_ text: String, path: String, json5: Bool) throws(FileEditError) -> JSONNode {
        do {
            return try JSONDocument.parse(text, allowJSON5: json5)
        } catch {
            throw FileEditError(path: path, line: error.line,
                                message: "cannot parse JSON: \(error.message) (column \(error.column))")
        }
    }

    /// The node at `keys` below `node`, nil when a key is missing. Duplicate keys are an ambiguity error.
    static func find(_ keys: [String], in node: JSONNode, path: String) throws(FileEditError) -> JSONNode? {
        var current = node
        var walked: [String] = []
        for key in keys {
            walked.append(key)
            let found = current.members(named: key)
            if found.count > 1 {
                throw FileEditError(path: path, line: found[1].keyLine,
                                    message: "duplicate key \(walked.joined(separator: ".")) (also at line \(found[0].keyLine))",
                                    hint: "remove one of them; relctl will not guess which one is used")
            }
            guard let next = found.first?.value else { return nil }
            current = next
        }
        return current
    }

    /// A location for a string or number value; other types are an error.
    static func location(_ node: JSONNode, field: VersionField, keyPath: String, path: String) throws(FileEditError) -> VersionLocation {
        switch node.value {
        case .string(let s):
            return VersionLocation(field: field, value: s, line: node.line, range: node.range, isNumber: false, context: keyPath)
        case .number(let n):
            return VersionLocation(field: field, value: n, line: node.line, range: node.range, isNumber: true, context: keyPath)
        default:
            throw FileEditError(path: path, line: node.line,
                                message: "\(keyPath) is \(article(node.typeName)), expected a string or a number")
        }
    }

    static func article(_ type: String) -> String {
        type == "object" || type == "array" ? "an \(type)" : "a \(type)"
    }

    /// `newValue` written where `location` is, keeping string-vs-number and the quote character (`quote`, the
    /// first byte of the token). A number token takes only an integer.
    static func encode(_ location: VersionLocation, _ newValue: String, quote: UInt8, path: String) throws(FileEditError) -> String {
        if location.isNumber == true {
            guard newValue.isASCIIDigits, newValue.first != "0" || newValue == "0" else {
                throw FileEditError(path: path, line: location.line,
                                    message: "\(location.context ?? "value") is a number in the file, but \"\(newValue)\" is not an integer",
                                    hint: "write the value as a string in the file if it must hold \"\(newValue)\"")
            }
            return newValue
        }
        return JSONDocument.quote(newValue, quote: quote == UInt8(ascii: "'") ? "'" : "\"")
    }
}
