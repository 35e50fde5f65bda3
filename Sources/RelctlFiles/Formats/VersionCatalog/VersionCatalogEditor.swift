import RelctlCore

/// A Gradle version catalog (`gradle/libs.versions.toml`): the entries `versionNameKey` and `versionCodeKey` of its
/// `[versions]` table, which a build script reads as `libs.versions.<alias>.get()`.
///
/// Keys match the way Gradle names accessors: `-`, `_` and `.` all separate the parts of an alias, so the
/// accessor `libs.versions.app.version` reads the key `app-version`, `app_version` or `app.version` (bare or
/// quoted). Only a plain value is written: `"1.2.0"` or `'1.2.0'` keep their quotes, a bare number stays bare.
/// A rich version (`{ strictly = "1.2" }`) is reported as computed and refused. Comments, spacing, other tables and
/// other keys are never touched; strings spanning lines and arrays spanning lines are skipped whole, so a
/// `[versions]` inside a multi-line string is not a table.
package struct VersionCatalogEditor: VersionEditor {
    package var versionNameKey: String?
    package var versionCodeKey: String?

    package init(versionNameKey: String? = nil, versionCodeKey: String? = nil) {
        self.versionNameKey = versionNameKey
        self.versionCodeKey = versionCodeKey
    }

    /// The alias a key stands for, as Gradle normalises it: `app-version`, `app_version` and `app.version` → `app.version`.
    package static func alias(_ key: String) -> String {
        String(key.map { $0 == "-" || $0 == "_" ? "." : $0 })
    }

    /// One `key = value` line of the `[versions]` table.
    struct Entry {
        /// The key as written, without quotes.
        var key: String
        var line: Int
        /// The value as written (up to a comment), e.g. `"1.2.0"` or `{ strictly = "1.2" }`.
        var raw: String
        /// The bytes to replace: inside the quotes of a string, the digits of a bare number; nil for anything else.
        var editable: Range<Int>?
        var valueRange: Range<Int>
    }

    /// Every entry of the `[versions]` table (a table named twice is read twice, as TOML would refuse it anyway).
    static func versionEntries(_ text: String, path: String) throws(FileEditError) -> [Entry] {
        let t = ByteText(text)
        let b = t.bytes
        var table: String? = nil
        var entries: [Entry] = []
        var openString: [UInt8]? = nil   // the delimiter of a multi-line string still open
        var arrayDepth = 0               // inside an array spanning lines
        let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'")

        /// Skips a string starting at `i` (on one line, or opening a multi-line one), returning the index after it.
        func skipString(_ i: Int, _ end: Int) -> Int {
            let q = b[i]
            if i + 2 < end, b[i + 1] == q, b[i + 2] == q {
                openString = [q, q, q]
                return closeMultiline(i + 3, end)
            }
            var j = i + 1
            while j < end, b[j] != q {
                if q == quote, b[j] == UInt8(ascii: "\\") { j += 1 }
                j += 1
            }
            return min(end, j + 1)
        }
        /// Continues a multi-line string from `i`; returns the index after its closing delimiter, or `end`.
        func closeMultiline(_ i: Int, _ end: Int) -> Int {
            guard let d = openString else { return i }
            var j = i
            while j < end {
                if d[0] == quote, b[j] == UInt8(ascii: "\\") { j += 2; continue }
                if j + 3 <= end, b[j] == d[0], b[j + 1] == d[0], b[j + 2] == d[0] {
                    openString = nil
                    return j + 3
                }
                j += 1
            }
            return end
        }
        /// Tracks brackets, strings and comments from `i` to the end of the line.
        func scanRest(_ i: Int, _ end: Int) {
            var j = i
            while j < end {
                if openString != nil { j = closeMultiline(j, end); continue }
                let c = b[j]
                if c == UInt8(ascii: "#") { return }
                if c == quote || c == apostrophe { j = skipString(j, end); continue }
                if c == UInt8(ascii: "[") || c == UInt8(ascii: "{") { arrayDepth += 1 }
                if c == UInt8(ascii: "]") || c == UInt8(ascii: "}") { arrayDepth = max(0, arrayDepth - 1) }
                j += 1
            }
        }

        for n in 1...t.lineCount {
            let r = t.lineRange(n)
            if openString != nil || arrayDepth > 0 { scanRest(r.lowerBound, r.upperBound); continue }
            var i = r.lowerBound
            while i < r.upperBound && b[i].isASCIIHorizontalSpace { i += 1 }
            guard i < r.upperBound, b[i] != UInt8(ascii: "#") else { continue }
            if b[i] == UInt8(ascii: "[") {
                // `[versions]`, `[ versions ]`, `["versions"]`; `[[array]]` is some other table.
                var end = r.upperBound
                if let hash = b[i..<r.upperBound].firstIndex(of: UInt8(ascii: "#")) { end = hash }
                let header = t.string(i..<end).trimmingSpaces
                var name = String(header.dropFirst().dropLast()).trimmingSpaces
                if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = String(name.dropFirst().dropLast()) }
                table = header.hasPrefix("[[") ? "[[]]" : name
                continue
            }
            // key = value
            let keyStart = i
            var key: String
            if b[i] == quote || b[i] == apostrophe {
                let q = b[i]
                var j = i + 1
                while j < r.upperBound, b[j] != q { j += 1 }
                guard j < r.upperBound else {
                    throw FileEditError(path: path, line: n, message: "unterminated quoted key", hint: "close the quote")
                }
                key = t.string(i + 1..<j)
                i = j + 1
            } else {
                while i < r.upperBound, b[i].isIdentifierByte || b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: ".") { i += 1 }
                key = t.string(keyStart..<i)
            }
            while i < r.upperBound && b[i].isASCIIHorizontalSpace { i += 1 }
            guard !key.isEmpty, i < r.upperBound, b[i] == UInt8(ascii: "=") else {
                scanRest(i, r.upperBound)
                continue
            }
            i += 1
            while i < r.upperBound && b[i].isASCIIHorizontalSpace { i += 1 }
            let valueStart = i
            if table != "versions" {
                scanRest(valueStart, r.upperBound)
                continue
            }
            var editable: Range<Int>? = nil
            var valueEnd = valueStart
            if valueStart < r.upperBound, b[valueStart] == quote || b[valueStart] == apostrophe {
                let q = b[valueStart]
                let multiline = valueStart + 2 < r.upperBound && b[valueStart + 1] == q && b[valueStart + 2] == q
                if multiline {
                    scanRest(valueStart, r.upperBound)
                    valueEnd = r.upperBound
                } else {
                    var j = valueStart + 1
                    var escaped = false
                    while j < r.upperBound, b[j] != q {
                        if q == quote, b[j] == UInt8(ascii: "\\") { escaped = true; j += 1 }
                        j += 1
                    }
                    guard j < r.upperBound else {
                        throw FileEditError(path: path, line: n, message: "unterminated string for \(key)", hint: "close the quote")
                    }
                    valueEnd = j + 1
                    if !escaped { editable = valueStart + 1..<j }
                }
            } else {
                var j = valueStart
                while j < r.upperBound, b[j] != UInt8(ascii: "#") { j += 1 }
                while j > valueStart, b[j - 1].isASCIIHorizontalSpace { j -= 1 }
                valueEnd = j
                if valueEnd > valueStart, b[valueStart..<valueEnd].allSatisfy(\.isASCIIDigit) { editable = valueStart..<valueEnd }
                scanRest(valueStart, r.upperBound)
            }
            entries.append(Entry(key: key, line: n, raw: t.string(valueStart..<valueEnd), editable: editable, valueRange: valueStart..<valueEnd))
        }
        return entries
    }

    package func parse(_ text: String, path: String) throws(FileEditError) -> any ParsedVersionFile {
        let bytes = Array(text.utf8)
        var result: [VersionLocation] = []
        for entry in try Self.versionEntries(text, path: path) {
            let alias = Self.alias(entry.key)
            let field: VersionField
            if let key = versionNameKey, Self.alias(key) == alias { field = .marketing }
            else if let key = versionCodeKey, Self.alias(key) == alias { field = .androidBuild }
            else { continue }
            if let range = entry.editable {
                result.append(VersionLocation(field: field, value: String(decoding: bytes[range], as: UTF8.self), line: entry.line,
                                              range: range, isNumber: entry.raw.first?.isNumber == true, context: entry.key))
            } else {
                let hint = entry.raw.hasPrefix("{")
                    ? "a rich version; write a plain string, e.g. \(entry.key) = \"\(field == .marketing ? "1.0.0" : "1")\""
                    : "write a plain string, e.g. \(entry.key) = \"\(field == .marketing ? "1.0.0" : "1")\""
                result.append(VersionLocation(field: field, value: entry.raw, line: entry.line, range: entry.valueRange,
                                              indirection: .computed(expression: entry.raw, hint: hint), context: entry.key))
            }
        }
        try refuseDuplicates(result, path: path) { ($0 == .marketing ? versionNameKey : versionCodeKey) ?? "" }
        return Parsed(path: path, versionNameKey: versionNameKey, versionCodeKey: versionCodeKey, locations: result)
    }

    struct Parsed: ParsedVersionFile {
        let path: String
        let versionNameKey: String?
        let versionCodeKey: String?
        let locations: [VersionLocation]

        func edits(for target: VersionTarget) throws(FileEditError) -> [TextEdit] {
            try requireKeyedFields(locations, target: target, path: path, versionNameKey: versionNameKey,
                                   versionCodeKey: versionCodeKey, where: " in [versions]")
            try refuseComputed(locations, target: target, path: path)
            for location in locations where location.field == .androidBuild {
                if let code = target.androidBuild, !code.isASCIIDigits {
                    throw FileEditError(path: path, line: location.line, message: "versionCode must be an integer, got \"\(code)\"")
                }
            }
            return try literalEdits(locations, target: target)
        }
    }
}
