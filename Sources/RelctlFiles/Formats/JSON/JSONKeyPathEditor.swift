import RelctlCore

/// Any JSON file (package.json by default): one key path holding one field.
/// Strict JSON unless `json5` is set.
package struct JSONKeyPathEditor: VersionEditor {
    package var keyPath: [String]
    package var field: VersionField
    package var json5: Bool

    package init(keyPath: [String] = ["version"], field: VersionField = .marketing, json5: Bool = false) {
        self.keyPath = keyPath
        self.field = field
        self.json5 = json5
    }

    package func parse(_ text: String, path: String) throws(FileEditError) -> any ParsedVersionFile {
        let root = try JSONEditing.parse(text, path: path, json5: json5)
        var locations: [VersionLocation] = []
        if let node = try JSONEditing.find(keyPath, in: root, path: path) {
            locations = [try JSONEditing.location(node, field: field, keyPath: keyPath.joinedByAppending("."), path: path)]
        }
        return Parsed(text: text, path: path, keyPath: keyPath, field: field, locations: locations)
    }

    struct Parsed: ParsedVersionFile {
        let text: String
        let path: String
        let keyPath: [String]
        let field: VersionField
        let locations: [VersionLocation]

        func edits(for target: VersionTarget) throws(FileEditError) -> [TextEdit] {
            guard target.value(for: field) != nil else { return [] }
            guard !locations.isEmpty else {
                throw FileEditError(path: path, line: nil, message: "missing key \(keyPath.joined(separator: "."))",
                                    hint: "add \"\(keyPath.last ?? "version")\" to the file or fix keyPath in the entry")
            }
            return try literalEdits(locations, target: target) { location, value throws(FileEditError) in
                try JSONEditing.encode(location, value, quote: text.utf8Byte(at: location.range.lowerBound), path: path)
            }
        }
    }
}
