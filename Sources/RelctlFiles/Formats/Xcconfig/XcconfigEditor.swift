import RelctlCore

/// `.xcconfig`: `MARKETING_VERSION = 1.2.3` and `CURRENT_PROJECT_VERSION = 45` lines (unconditional settings only:
/// a conditional `MARKETING_VERSION[sdk=macosx*] = …` is refused by `edits` with its line, never skipped).
/// `//` comments are kept; a `$(VAR)` value is reported as an indirection and never edited.
package struct XcconfigEditor: VersionEditor {
    package var marketingKey: String
    package var buildKey: String

    package init(marketingKey: String = "MARKETING_VERSION", buildKey: String = "CURRENT_PROJECT_VERSION") {
        self.marketingKey = marketingKey
        self.buildKey = buildKey
    }

    /// The unconditional settings as locations, and the conditional ones (`MARKETING_VERSION[sdk=macosx*]`) with
    /// their lines.
    package func parse(_ text: String, path: String) throws(FileEditError) -> any ParsedVersionFile {
        let t = ByteText(text)
        var result: [VersionLocation] = []
        var conditionals: [(field: VersionField, setting: String, line: Int)] = []
        for n in 1...t.lineCount {
            let r = t.lineRange(n)
            var i = r.lowerBound
            while i < r.upperBound && t.bytes[i].isASCIIHorizontalSpace { i += 1 }
            let keyStart = i
            while i < r.upperBound && t.bytes[i].isIdentifierByte { i += 1 }
            let key = t.string(keyStart..<i)
            let field: VersionField
            if key == marketingKey { field = .marketing } else if key == buildKey { field = .iosBuild } else { continue }
            while i < r.upperBound && t.bytes[i].isASCIIHorizontalSpace { i += 1 }
            if i < r.upperBound, t.bytes[i] == UInt8(ascii: "[") {
                // `KEY[sdk=macosx*] = …`: a conditional value relctl does not edit; `edits` refuses it.
                var end = i
                while end < r.upperBound && t.bytes[end] != UInt8(ascii: "]") { end += 1 }
                conditionals.append((field, t.string(keyStart..<min(r.upperBound, end + 1)), n))
                continue
            }
            guard i < r.upperBound, t.bytes[i] == UInt8(ascii: "=") else { continue }
            i += 1
            while i < r.upperBound && t.bytes[i].isASCIIHorizontalSpace { i += 1 }
            var end = i
            while end < r.upperBound {
                if t.bytes[end] == UInt8(ascii: "/") && end + 1 < r.upperBound && t.bytes[end + 1] == UInt8(ascii: "/") { break }
                end += 1
            }
            while end > i && (t.bytes[end - 1].isASCIIHorizontalSpace || t.bytes[end - 1] == UInt8(ascii: ";")) { end -= 1 }
            let value = t.string(i..<end)
            let reference = buildSettingReference(value)
            result.append(VersionLocation(field: field, value: value, line: n, range: i..<end,
                                          indirection: reference.map { .buildSetting($0) }, context: key))
        }
        try refuseDuplicates(result, path: path) { $0 == .marketing ? marketingKey : buildKey }
        return Parsed(path: path, marketingKey: marketingKey, buildKey: buildKey, locations: result, conditionals: conditionals)
    }

    struct Parsed: ParsedVersionFile {
        let path: String
        let marketingKey: String
        let buildKey: String
        let locations: [VersionLocation]
        let conditionals: [(field: VersionField, setting: String, line: Int)]

        func edits(for target: VersionTarget) throws(FileEditError) -> [TextEdit] {
            if let conditional = conditionals.first(where: { target.value(for: $0.field) != nil }) {
                throw FileEditError(path: path, line: conditional.line,
                                    message: "conditional setting \(conditional.setting); relctl edits unconditional settings only",
                                    hint: "remove it (one \(conditional.setting.prefix { $0 != "[" }) for every SDK), or use a regex entry for this line")
            }
            // A file may hold one of the two (Version.xcconfig and Build.xcconfig): it writes what it holds.
            if locations.isEmpty && (target.marketing != nil || target.iosBuild != nil) {
                throw FileEditError(path: path, line: nil, message: "neither \(marketingKey) nor \(buildKey) is set in this file",
                                    hint: "add \(marketingKey) = 1.0.0 (or \(buildKey) = 1) to it, or remove its entry from 'files'")
            }
            return try literalEdits(locations, target: target)
        }
    }
}
