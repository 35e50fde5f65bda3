import RelctlCore

/// Shared edit logic for formats whose values are bare text (no quotes): write when different.
func plainEdits(_ locations: [VersionLocation], target: VersionTarget) -> [TextEdit] {
    var edits: [TextEdit] = []
    for location in locations where location.indirection == nil {
        guard let newValue = target.value(for: location.field), newValue != location.value else { continue }
        edits.append(TextEdit(range: location.range, replacement: newValue))
    }
    return edits
}

/// Refuses two definitions of one field where a single one is expected.
func refuseDuplicates(_ locations: [VersionLocation], path: String, name: (VersionField) -> String) throws(FileEditError) {
    for field in VersionField.allCases {
        let same = locations.filter { $0.field == field }
        if same.count > 1 {
            throw FileEditError(path: path, line: same[1].line,
                                message: "\(name(field)) is set more than once (lines \(same.map { String($0.line) }.joined(separator: ", ")))",
                                hint: "keep a single definition; relctl will not guess which one wins")
        }
    }
}

// MARK: - xcconfig

/// `.xcconfig`: `MARKETING_VERSION = 1.2.3` and `CURRENT_PROJECT_VERSION = 45` lines (unconditional settings only:
/// a conditional `MARKETING_VERSION[sdk=macosx*] = …` is refused by `edits` with its line, never skipped).
/// `//` comments are kept; a `$(VAR)` value is reported as an indirection and never edited.
public struct XcconfigEditor: VersionEditor {
    public var marketingKey: String
    public var buildKey: String

    public init(marketingKey: String = "MARKETING_VERSION", buildKey: String = "CURRENT_PROJECT_VERSION") {
        self.marketingKey = marketingKey
        self.buildKey = buildKey
    }

    public func read(_ text: String, path: String) throws(FileEditError) -> [VersionLocation] {
        try scan(text, path: path).locations
    }

    /// The unconditional settings, and the conditional ones (`MARKETING_VERSION[sdk=macosx*]`) with their lines.
    func scan(_ text: String, path: String) throws(FileEditError)
        -> (locations: [VersionLocation], conditionals: [(field: VersionField, setting: String, line: Int)]) {
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
        return (result, conditionals)
    }

    public func edits(_ text: String, path: String, target: VersionTarget) throws(FileEditError) -> [TextEdit] {
        let (locations, conditionals) = try scan(text, path: path)
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
        return plainEdits(locations, target: target)
    }
}

// MARK: - properties

/// Java `.properties` (`gradle.properties`): `KEY=value`, `KEY = value`, `KEY: value`; `#`/`!` comments.
/// Spacing around the separator and after the value is kept.
public struct PropertiesEditor: VersionEditor {
    public var versionNameKey: String?
    public var versionCodeKey: String?

    public init(versionNameKey: String? = "VERSION_NAME", versionCodeKey: String? = "VERSION_CODE") {
        self.versionNameKey = versionNameKey
        self.versionCodeKey = versionCodeKey
    }

    public func read(_ text: String, path: String) throws(FileEditError) -> [VersionLocation] {
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
        return result
    }

    public func edits(_ text: String, path: String, target: VersionTarget) throws(FileEditError) -> [TextEdit] {
        let locations = try read(text, path: path)
        var fields: [VersionField] = []
        if versionNameKey != nil { fields.append(.marketing) }
        if versionCodeKey != nil { fields.append(.androidBuild) }
        try requireFields(locations, target: target, fields: fields, path: path) {
            "key " + (($0 == .marketing ? versionNameKey : versionCodeKey) ?? "")
        }
        return plainEdits(locations, target: target)
    }
}

// MARK: - pubspec.yaml

/// Flutter `pubspec.yaml`: the top-level `version: 1.2.3+45` key only (column 0, exact key,
/// so `isar_version: &v 3.1.0+1` and nested keys never match). The build name is `.marketing`,
/// the `+N` build number is `.build` (written from `androidBuild ?? iosBuild`).
/// With `padBuildNumber`, a zero-padded build number (`+020903`) is written zero-padded to the same width.
public struct PubspecEditor: VersionEditor {
    public var padBuildNumber: Bool

    public init(padBuildNumber: Bool = false) {
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

    public func read(_ text: String, path: String) throws(FileEditError) -> [VersionLocation] {
        let t = ByteText(text)
        guard let f = try find(t, path: path) else { return [] }
        var result = [VersionLocation(field: .marketing, value: t.string(f.name), line: f.line, range: f.name, context: "version")]
        if let b = f.build {
            result.append(VersionLocation(field: .build, value: t.string(b), line: f.line, range: b, context: "version"))
        }
        return result
    }

    public func edits(_ text: String, path: String, target: VersionTarget) throws(FileEditError) -> [TextEdit] {
        let t = ByteText(text)
        if let ios = target.iosBuild, let android = target.androidBuild, ios != android {
            throw FileEditError(path: path, line: nil,
                                message: "pubspec.yaml has one build number for both platforms, but iOS \(ios) and Android \(android) differ",
                                hint: "use a shared build counter for Flutter apps")
        }
        guard let f = try find(t, path: path) else {
            if target.marketing == nil && target.value(for: .build) == nil { return [] }
            throw FileEditError(path: path, line: nil, message: "missing top-level version: key",
                                hint: "add a line such as version: 1.0.0+1")
        }
        var edits: [TextEdit] = []
        if let name = target.marketing, name != t.string(f.name) {
            if name.contains("+") {
                throw FileEditError(path: path, line: f.line, message: "build name \"\(name)\" must not contain '+'",
                                    hint: "pass the build number separately")
            }
            edits.append(TextEdit(range: f.name, replacement: name))
        }
        if var build = target.value(for: .build) {
            guard build.isASCIIDigits else {
                throw FileEditError(path: path, line: f.line, message: "build number \"\(build)\" is not an integer",
                                    hint: "Flutter uses the +N build number as versionCode and CFBundleVersion")
            }
            if let current = f.build {
                let old = t.string(current)
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

extension String {
    /// Without leading and trailing spaces, tabs and CRs. Works on UTF-8 bytes: Character-wise trimming
    /// re-runs grapheme breaking at each step, which a hostile line can make quadratic.
    var trimmingSpaces: String {
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return "" }
        let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D })!
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
