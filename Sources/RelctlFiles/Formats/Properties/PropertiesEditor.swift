import RelctlCore

/// Java `.properties` (`gradle.properties`): `KEY=value`, `KEY = value`, `KEY: value`; `#`/`!` comments.
/// Spacing around the separator and after the value is kept.
package struct PropertiesEditor: VersionEditor {
    package var versionNameKey: String?
    package var versionCodeKey: String?

    package init(versionNameKey: String? = "VERSION_NAME", versionCodeKey: String? = "VERSION_CODE") {
        self.versionNameKey = versionNameKey
        self.versionCodeKey = versionCodeKey
    }

    package func parse(_ text: String, path: String) throws(FileEditError) -> any ParsedVersionFile {
        let t = ByteText(text)
        var result: [VersionLocation] = []
        var continued = false
        for n in 1...t.lineCount {
            let r = t.lineRange(n)
            let wasContinued = continued
            continued = r.count > 0 && t.bytes[r.upperBound - 1] == UInt8(ascii: "\\")
            if wasContinued { continue }
            var i = r.lowerBound
            while i < r.upperBound && (t.bytes[i].isASCIIHorizontalSpace || t.bytes[i] == 0x0C) { i += 1 }
            guard i < r.upperBound, t.bytes[i] != UInt8(ascii: "#"), t.bytes[i] != UInt8(ascii: "!") else { continue }
            let keyStart = i
            while i < r.upperBound, !t.bytes[i].isASCIIHorizontalSpace, t.bytes[i] != UInt8(ascii: "="), t.bytes[i] != UInt8(ascii: ":") { i += 1 }
            let key = t.string(keyStart..<i)
            let field: VersionField
            if key == versionNameKey { field = .marketing } else if key == versionCodeKey { field = .androidBuild } else { continue }
            let keyEnd = i
            while i < r.upperBound && t.bytes[i].isASCIIHorizontalSpace { i += 1 }
            if i < r.upperBound && (t.bytes[i] == UInt8(ascii: "=") || t.bytes[i] == UInt8(ascii: ":")) { i += 1 }
            while i < r.upperBound && t.bytes[i].isASCIIHorizontalSpace { i += 1 }
            if keyEnd == r.upperBound {
                // `KEY` alone: a value written here would run into the key.
                throw FileEditError(path: path, line: n, message: "\(key) has no value and no '='",
                                    hint: "write it as \(key)=<value>")
            }
            var end = r.upperBound
            while end > i && t.bytes[end - 1].isASCIIHorizontalSpace { end -= 1 }
            if continued {
                throw FileEditError(path: path, line: n, message: "\(key) continues on the next line (trailing backslash)",
                                    hint: "write the value on one line")
            }
            result.append(VersionLocation(field: field, value: t.string(i..<end), line: n, range: i..<end, context: key))
        }
        try refuseDuplicates(result, path: path) { $0 == .marketing ? (versionNameKey ?? "") : (versionCodeKey ?? "") }
        return Parsed(path: path, versionNameKey: versionNameKey, versionCodeKey: versionCodeKey, locations: result)
    }

    struct Parsed: ParsedVersionFile {
        let path: String
        let versionNameKey: String?
        let versionCodeKey: String?
        let locations: [VersionLocation]

        func edits(for target: VersionTarget) throws(FileEditError) -> [TextEdit] {
            try requireKeyedFields(locations, target: target, path: path, versionNameKey: versionNameKey,
                                   versionCodeKey: versionCodeKey)
            return try literalEdits(locations, target: target)
        }
    }
}
