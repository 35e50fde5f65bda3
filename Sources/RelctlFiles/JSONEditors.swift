import RelctlCore

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

    /// The edit writing `newValue` at `location`, keeping string-vs-number and the quote character; nil when unchanged.
    static func edit(_ location: VersionLocation, to newValue: String, text: ByteText, path: String) throws(FileEditError) -> TextEdit? {
        if location.value == newValue { return nil }
        if location.isNumber == true {
            guard newValue.isASCIIDigits, newValue.first != "0" || newValue == "0" else {
                throw FileEditError(path: path, line: location.line,
                                    message: "\(location.context ?? "value") is a number in the file, but \"\(newValue)\" is not an integer",
                                    hint: "write the value as a string in the file if it must hold \"\(newValue)\"")
            }
            return TextEdit(range: location.range, replacement: newValue)
        }
        let quoteChar: Character = text.bytes[location.range.lowerBound] == UInt8(ascii: "'") ? "'" : "\""
        return TextEdit(range: location.range, replacement: JSONDocument.quote(newValue, quote: quoteChar))
    }
}

/// Expo `app.json` / `app.config.json`: `expo.version`, `expo.ios.buildNumber`, `expo.android.versionCode`.
/// Read as JSON5 (comments, trailing commas); string-vs-number is kept as found.
/// A file without a top-level `expo` key is treated as the config itself (allowed by Expo for app.config.json).
public struct ExpoJSONEditor: VersionEditor {
    public init() {}

    static let fields: [(VersionField, [String])] = [
        (.marketing, ["version"]),
        (.iosBuild, ["ios", "buildNumber"]),
        (.androidBuild, ["android", "versionCode"]),
    ]

    public func read(_ text: String, path: String) throws(FileEditError) -> [VersionLocation] {
        let root = try JSONEditing.parse(text, path: path, json5: true)
        guard root.objectMembers != nil else {
            throw FileEditError(path: path, line: root.line, message: "expected a JSON object at the top level, found \(JSONEditing.article(root.typeName))")
        }
        var base = root
        var prefix: [String] = []
        if let expo = try JSONEditing.find(["expo"], in: root, path: path) {
            guard expo.objectMembers != nil else {
                throw FileEditError(path: path, line: expo.line, message: "expo is \(JSONEditing.article(expo.typeName)), expected an object")
            }
            base = expo
            prefix = ["expo"]
        }
        var result: [VersionLocation] = []
        for (field, keys) in Self.fields {
            guard let node = try JSONEditing.find(keys, in: base, path: path) else { continue }
            let keyPath = (prefix + keys).joined(separator: ".")
            let location = try JSONEditing.location(node, field: field, keyPath: keyPath, path: path)
            if field == .marketing && location.isNumber == true {
                throw FileEditError(path: path, line: node.line, message: "\(keyPath) is a number, expected a string such as \"1.0.0\"")
            }
            result.append(location)
        }
        return result
    }

    public func edits(_ text: String, path: String, target: VersionTarget) throws(FileEditError) -> [TextEdit] {
        let locations = try read(text, path: path)
        if target.marketing != nil && !locations.contains(where: { $0.field == .marketing }) {
            let root = try JSONEditing.parse(text, path: path, json5: true)
            let expo = try JSONEditing.find(["expo"], in: root, path: path)
            throw FileEditError(path: path, line: expo?.line ?? root.line, message: "no expo.version found",
                                hint: "add \"version\" under \"expo\", or list package.json as a json entry: without expo.version Expo takes the version from package.json, and relctl then leaves this file's version alone")
        }
        try requireFields(locations, target: target, fields: [.iosBuild, .androidBuild], path: path) { field in
            field == .iosBuild ? "expo.ios.buildNumber" : "expo.android.versionCode"
        }
        let bytes = ByteText(text)
        var edits: [TextEdit] = []
        for location in locations {
            guard let newValue = target.value(for: location.field) else { continue }
            if let edit = try JSONEditing.edit(location, to: newValue, text: bytes, path: path) { edits.append(edit) }
        }
        return edits
    }
}

/// Any JSON file (package.json by default): one key path holding one field.
/// Strict JSON unless `json5` is set.
public struct JSONKeyPathEditor: VersionEditor {
    public var keyPath: [String]
    public var field: VersionField
    public var json5: Bool

    public init(keyPath: [String] = ["version"], field: VersionField = .marketing, json5: Bool = false) {
        self.keyPath = keyPath
        self.field = field
        self.json5 = json5
    }

    public func read(_ text: String, path: String) throws(FileEditError) -> [VersionLocation] {
        let root = try JSONEditing.parse(text, path: path, json5: json5)
        guard let node = try JSONEditing.find(keyPath, in: root, path: path) else { return [] }
        return [try JSONEditing.location(node, field: field, keyPath: keyPath.joined(separator: "."), path: path)]
    }

    public func edits(_ text: String, path: String, target: VersionTarget) throws(FileEditError) -> [TextEdit] {
        let locations = try read(text, path: path)
        guard let newValue = target.value(for: field) else { return [] }
        guard let location = locations.first else {
            throw FileEditError(path: path, line: nil, message: "missing key \(keyPath.joined(separator: "."))",
                                hint: "add \"\(keyPath.last ?? "version")\" to the file or fix keyPath in the entry")
        }
        if let edit = try JSONEditing.edit(location, to: newValue, text: ByteText(text), path: path) { return [edit] }
        return []
    }
}
