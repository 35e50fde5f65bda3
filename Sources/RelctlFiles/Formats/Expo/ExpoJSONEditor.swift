import RelctlCore

/// Expo `app.json` / `app.config.json`: `expo.version`, `expo.ios.buildNumber`, `expo.android.versionCode`.
/// Read as JSON5 (comments, trailing commas); string-vs-number is kept as found.
/// A file without a top-level `expo` key is treated as the config itself (allowed by Expo for app.config.json).
package struct ExpoJSONEditor: VersionEditor {
    package init() {}

    static let fields: [(VersionField, [String])] = [
        (.marketing, ["version"]),
        (.iosBuild, ["ios", "buildNumber"]),
        (.androidBuild, ["android", "versionCode"]),
    ]

    package func parse(_ text: String, path: String) throws(FileEditError) -> any ParsedVersionFile {
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
            let keyPath = (prefix + keys).joinedByAppending(".")
            let location = try JSONEditing.location(node, field: field, keyPath: keyPath, path: path)
            if field == .marketing && location.isNumber == true {
                throw FileEditError(path: path, line: node.line, message: "\(keyPath) is a number, expected a string such as \"1.0.0\"")
            }
            result.append(location)
        }
        return Parsed(text: text, path: path, locations: result, configLine: base.line)
    }

    struct Parsed: ParsedVersionFile {
        let text: String
        let path: String
        let locations: [VersionLocation]
        /// The line of the `expo` object (or of the top-level object when there is none).
        let configLine: Int

        func edits(for target: VersionTarget) throws(FileEditError) -> [TextEdit] {
            if target.marketing != nil && !locations.contains(where: { $0.field == .marketing }) {
                throw FileEditError(path: path, line: configLine, message: "no expo.version found",
                                    hint: "add \"version\" under \"expo\", or list package.json as a json entry: without expo.version Expo takes the version from package.json, and relctl then leaves this file's version alone")
            }
            try requireFields(locations, target: target, fields: [.iosBuild, .androidBuild], path: path) { field in
                field == .iosBuild ? "expo.ios.buildNumber" : "expo.android.versionCode"
            }
            return try literalEdits(locations, target: target) { location, value throws(FileEditError) in
                try JSONEditing.encode(location, value, quote: text.utf8Byte(at: location.range.lowerBound), path: path)
            }
        }
    }
}
