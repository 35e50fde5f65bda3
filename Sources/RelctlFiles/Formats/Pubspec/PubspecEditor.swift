import RelctlCore

/// Flutter `pubspec.yaml`: the top-level `version: 1.2.3+45` key only (column 0, exact key,
/// so `isar_version: &v 3.1.0+1` and nested keys never match). The build name is `.marketing`,
/// the `+N` build number is `.build` (written from `androidBuild ?? iosBuild`).
/// With `padBuildNumber`, a zero-padded build number (`+020903`) is written zero-padded to the same width.
package struct PubspecEditor: VersionEditor {
    package var padBuildNumber: Bool

    package init(padBuildNumber: Bool = false) {
        self.padBuildNumber = padBuildNumber
    }

    struct Found {
        var line: Int
        var valueRange: Range<Int>
        var name: Range<Int>
        var build: Range<Int>?
    }

    func find(_ t: ByteText, path: String) throws(FileEditError) -> Found? {
        var found: [Found] = []
        let key = Array("version".utf8)
        var inBlockScalar = false
        for n in 1...t.lineCount {
            let r = t.lineRange(n)
            guard r.count >= key.count + 1 else { continue }
            let first = t.bytes[r.lowerBound]
            if inBlockScalar && (first.isASCIIHorizontalSpace) { continue }
            inBlockScalar = false
            var i = r.lowerBound
            var quoted: UInt8? = nil
            if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") { quoted = first; i += 1 }
            guard i + key.count <= r.upperBound, Array(t.bytes[i..<i + key.count]) == key else {
                // Track block scalars (`key: |`) so their indented content is skipped.
                if let colon = t.bytes[r].lastIndex(of: UInt8(ascii: ":")), colon + 1 < r.upperBound {
                    let rest = t.string(colon + 1..<r.upperBound).trimmingSpaces
                    if rest.hasPrefix("|") || rest.hasPrefix(">") { inBlockScalar = true }
                }
                continue
            }
            i += key.count
            if let q = quoted {
                guard i < r.upperBound, t.bytes[i] == q else { continue }
                i += 1
            }
            while i < r.upperBound && t.bytes[i].isASCIIHorizontalSpace { i += 1 }
            guard i < r.upperBound, t.bytes[i] == UInt8(ascii: ":") else { continue }
            i += 1
            while i < r.upperBound && t.bytes[i].isASCIIHorizontalSpace { i += 1 }
            if i < r.upperBound && t.bytes[i] == UInt8(ascii: "&") { // anchor: `version: &v 1.2.3+4`
                while i < r.upperBound && !t.bytes[i].isASCIIHorizontalSpace { i += 1 }
                while i < r.upperBound && t.bytes[i].isASCIIHorizontalSpace { i += 1 }
            }
            guard i < r.upperBound, t.bytes[i] != UInt8(ascii: "#") else {
                throw FileEditError(path: path, line: n, message: "top-level version: has no value",
                                    hint: "write it on the same line, e.g. version: 1.0.0+1")
            }
            if t.bytes[i] == UInt8(ascii: "*") {
                throw FileEditError(path: path, line: n, message: "top-level version: is a YAML alias",
                                    hint: "edit the anchored value instead, or write the version literally")
            }
            var valueQuote: UInt8? = nil
            if t.bytes[i] == UInt8(ascii: "\"") || t.bytes[i] == UInt8(ascii: "'") { valueQuote = t.bytes[i] }
            let valueStart = i
            var start = i
            var end: Int
            if let q = valueQuote {
                start = i + 1
                end = start
                while end < r.upperBound && t.bytes[end] != q { end += 1 }
                guard end < r.upperBound else {
                    throw FileEditError(path: path, line: n, message: "unterminated quoted version")
                }
            } else {
                end = i
                while end < r.upperBound {
                    if t.bytes[end] == UInt8(ascii: "#") && end > i && t.bytes[end - 1].isASCIIHorizontalSpace { break }
                    end += 1
                }
                while end > start && t.bytes[end - 1].isASCIIHorizontalSpace { end -= 1 }
            }
            let valueEnd = valueQuote == nil ? end : end + 1
            var nameEnd = start
            while nameEnd < end && t.bytes[nameEnd] != UInt8(ascii: "+") { nameEnd += 1 }
            let build: Range<Int>? = nameEnd < end ? (nameEnd + 1)..<end : nil
            found.append(Found(line: n, valueRange: valueStart..<valueEnd, name: start..<nameEnd, build: build))
        }
        if found.count > 1 {
            throw FileEditError(path: path, line: found[1].line,
                                message: "top-level version: appears more than once (lines \(found.map { String($0.line) }.joined(separator: ", ")))",
                                hint: "keep a single version: key")
        }
        return found.first
    }

    package func parse(_ text: String, path: String) throws(FileEditError) -> any ParsedVersionFile {
        let t = ByteText(text)
        let found = try find(t, path: path)
        var locations: [VersionLocation] = []
        if let f = found {
            locations.append(VersionLocation(field: .marketing, value: t.string(f.name), line: f.line, range: f.name, context: "version"))
            if let b = f.build {
                locations.append(VersionLocation(field: .build, value: t.string(b), line: f.line, range: b, context: "version"))
            }
        }
        return Parsed(path: path, padBuildNumber: padBuildNumber, found: found, locations: locations)
    }

    struct Parsed: ParsedVersionFile {
        let path: String
        let padBuildNumber: Bool
        let found: Found?
        let locations: [VersionLocation]

        func edits(for target: VersionTarget) throws(FileEditError) -> [TextEdit] {
            if let ios = target.iosBuild, let android = target.androidBuild, ios != android {
                throw FileEditError(path: path, line: nil,
                                    message: "pubspec.yaml has one build number for both platforms, but iOS \(ios) and Android \(android) differ",
                                    hint: "use a shared build counter for Flutter apps")
            }
            guard let f = found else {
                if target.marketing == nil && target.value(for: .build) == nil { return [] }
                throw FileEditError(path: path, line: nil, message: "missing top-level version: key",
                                    hint: "add a line such as version: 1.0.0+1")
            }
            let name = locations[0].value
            let old = locations.count > 1 ? locations[1].value : nil
            var edits: [TextEdit] = []
            if let newName = target.marketing, newName != name {
                if newName.contains("+") {
                    throw FileEditError(path: path, line: f.line, message: "build name \"\(newName)\" must not contain '+'",
                                        hint: "pass the build number separately")
                }
                edits.append(TextEdit(range: f.name, replacement: newName))
            }
            if var build = target.value(for: .build) {
                guard build.isASCIIDigits else {
                    throw FileEditError(path: path, line: f.line, message: "build number \"\(build)\" is not an integer",
                                        hint: "Flutter uses the +N build number as versionCode and CFBundleVersion")
                }
                if let current = f.build, let old {
                    if padBuildNumber, old.count > build.count, old.hasPrefix("0") {
                        build = String(repeating: "0", count: old.count - build.count) + build
                    }
                    if build != old { edits.append(TextEdit(range: current, replacement: build)) }
                } else {
                    edits.append(TextEdit(range: f.name.upperBound..<f.name.upperBound, replacement: "+" + build))
                }
            }
            return edits
        }
    }
}
