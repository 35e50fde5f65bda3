import Foundation
import RelctlCore

// MARK: - Info.plist

/// XML `Info.plist`: `<key>CFBundleShortVersionString</key>` / `<key>CFBundleVersion</key>` followed by a
/// `<string>` literal. XML comments are skipped. A `$(VAR)` value is reported as an indirection
/// (the real value lives in the pbxproj or an .xcconfig) and never edited.
public struct PlistEditor: VersionEditor {
    public init() {}

    static let keys: [String: VersionField] = ["CFBundleShortVersionString": .marketing, "CFBundleVersion": .iosBuild]

    public func read(_ text: String, path: String) throws(FileEditError) -> [VersionLocation] {
        let t = ByteText(text)
        if t.bytes.starts(with: Array("bplist".utf8)) {
            throw FileEditError(path: path, line: nil, message: "binary property list",
                                hint: "convert it to XML with `plutil -convert xml1 \(path)`")
        }
        let b = t.bytes
        var result: [VersionLocation] = []
        var i = 0
        func starts(_ s: String, at p: Int) -> Bool {
            let u = Array(s.utf8)
            return p + u.count <= b.count && Array(b[p..<p + u.count]) == u
        }
        func find(_ s: String, from p: Int) -> Int? {
            var q = p
            while q < b.count { if starts(s, at: q) { return q }; q += 1 }
            return nil
        }
        func skipSpaceAndComments(_ p: inout Int) {
            while p < b.count {
                if b[p] == 0x20 || b[p] == 0x09 || b[p] == 0x0A || b[p] == 0x0D { p += 1; continue }
                if starts("<!--", at: p), let end = find("-->", from: p + 4) { p = end + 3; continue }
                break
            }
        }
        while i < b.count {
            if starts("<!--", at: i) {
                guard let end = find("-->", from: i + 4) else {
                    throw FileEditError(path: path, line: t.line(of: i), message: "unterminated XML comment")
                }
                i = end + 3
                continue
            }
            if starts("<![CDATA[", at: i), let end = find("]]>", from: i) { i = end + 3; continue }
            guard starts("<key>", at: i) else { i += 1; continue }
            let keyStart = i + 5
            guard let keyEnd = find("</key>", from: keyStart) else {
                throw FileEditError(path: path, line: t.line(of: i), message: "unterminated <key> element")
            }
            i = keyEnd + 6
            let key = t.string(keyStart..<keyEnd).trimmingSpaces
            guard let field = Self.keys[key] else { continue }
            var p = i
            skipSpaceAndComments(&p)
            guard starts("<string>", at: p) else {
                throw FileEditError(path: path, line: t.line(of: keyStart),
                                    message: "\(key) is not followed by a <string> value",
                                    hint: "Apple requires a string, e.g. <string>1.0.0</string>")
            }
            let valueStart = p + 8
            guard let valueEnd = find("</string>", from: valueStart) else {
                throw FileEditError(path: path, line: t.line(of: p), message: "unterminated <string> element")
            }
            let raw = t.string(valueStart..<valueEnd)
            let value = Self.unescape(raw)
            result.append(VersionLocation(field: field, value: value, line: t.line(of: valueStart), range: valueStart..<valueEnd,
                                          indirection: buildSettingReference(value).map { .buildSetting($0) }, context: key))
            i = valueEnd + 9
        }
        try refuseDuplicates(result, path: path) { $0 == .marketing ? "CFBundleShortVersionString" : "CFBundleVersion" }
        return result
    }

    public func edits(_ text: String, path: String, target: VersionTarget) throws(FileEditError) -> [TextEdit] {
        let locations = try read(text, path: path)
        try requireFields(locations, target: target, fields: [.marketing, .iosBuild], path: path) {
            $0 == .marketing ? "CFBundleShortVersionString" : "CFBundleVersion"
        }
        var edits: [TextEdit] = []
        for location in locations where location.indirection == nil {
            guard let newValue = target.value(for: location.field), newValue != location.value else { continue }
            edits.append(TextEdit(range: location.range, replacement: Self.escape(newValue)))
        }
        return edits
    }

    static func unescape(_ s: String) -> String {
        guard s.contains("&") else { return s }
        return s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

// MARK: - regex

/// Any text file: exactly one match of `pattern`, whose named group `version` is the value of `field`, and whose
/// optional named group `build` is the build number (`"(?<version>[0-9.]+) \\((?<build>[0-9]+)\\)"` for
/// `40.0.5 (73)`; it gets the shared build number, Android's when the platforms count separately).
/// The pattern is an ICU regular expression (NSRegularExpression) with `^`/`$` matching at line breaks.
///
/// A value is written only if the pattern still matches the new text with that value in its group, so a sync never
/// leaves a file the next sync refuses. A pattern that admits only `X.Y.Z` gets the core of a prerelease
/// (`4.2.0` for `4.2.0-beta.1`): the full version is tried first, then the core.
public struct RegexEditor: VersionEditor {
    public var pattern: String
    public var field: VersionField

    public init(pattern: String, field: VersionField = .marketing) {
        self.pattern = pattern
        self.field = field
    }

    /// Validates the pattern; `path` names the config file in the error.
    public static func validate(pattern: String, path: String, line: Int?) throws(FileEditError) {
        do {
            _ = try compile(pattern)
        } catch {
            throw FileEditError(path: path, line: line, message: "invalid regex pattern: \(error.localizedDescription)")
        }
        guard pattern.contains("(?<version>") else {
            throw FileEditError(path: path, line: line, message: "regex pattern has no (?<version>…) group",
                                hint: "wrap the version part in (?<version>…), e.g. VERSION = \"(?<version>[0-9.]+)\"; a build number goes in (?<build>…)")
        }
    }

    static func compile(_ pattern: String) throws -> NSRegularExpression {
        try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
    }

    private func regex(path: String) throws(FileEditError) -> NSRegularExpression {
        try RegexEditor.validate(pattern: pattern, path: path, line: nil)
        do { return try RegexEditor.compile(pattern) } catch {
            throw FileEditError(path: path, line: nil, message: "invalid regex pattern")
        }
    }

    /// The groups of every match: (version location, build location).
    private func matches(_ text: String, regex: NSRegularExpression) -> [(version: VersionLocation?, build: VersionLocation?)] {
        let t = ByteText(text)
        func location(_ match: NSTextCheckingResult, _ group: String, _ field: VersionField) -> VersionLocation? {
            let ns = match.range(withName: group)
            guard ns.location != NSNotFound, let r = Range(ns, in: text) else { return nil }
            let start = text.utf8.distance(from: text.startIndex, to: r.lowerBound)
            let end = text.utf8.distance(from: text.startIndex, to: r.upperBound)
            return VersionLocation(field: field, value: String(text[r]), line: t.line(of: start), range: start..<end,
                                   context: group == "build" ? "build" : "regex")
        }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            let pair = (location(match, "version", field), pattern.contains("(?<build>") ? location(match, "build", .build) : nil)
            return pair.0 == nil && pair.1 == nil ? nil : pair
        }
    }

    public func read(_ text: String, path: String) throws(FileEditError) -> [VersionLocation] {
        let found = matches(text, regex: try regex(path: path))
        if found.count > 1 {
            let lines = found.map { String(($0.version ?? $0.build)!.line) }
            throw FileEditError(path: path, line: (found[1].version ?? found[1].build)?.line,
                                message: "pattern matches \(found.count) times (lines \(lines.joined(separator: ", "))), expected exactly one",
                                hint: "make the pattern more specific, e.g. anchor it with ^")
        }
        return found.flatMap { [$0.version, $0.build].compactMap { $0 } }
    }

    public func edits(_ text: String, path: String, target: VersionTarget) throws(FileEditError) -> [TextEdit] {
        let regex = try regex(path: path)
        let locations = try read(text, path: path)
        let version = locations.first { $0.field == field }
        let build = locations.first { $0.field == .build }
        if version == nil && build == nil && (target.value(for: field) != nil || target.value(for: .build) != nil) {
            throw FileEditError(path: path, line: nil, message: "pattern \(pattern) does not match",
                                hint: "check the pattern against the file")
        }
        var edits: [TextEdit] = []
        if let build, let newBuild = target.value(for: .build), newBuild != build.value {
            edits.append(TextEdit(range: build.range, replacement: newBuild))
        }
        if let version, let newValue = target.value(for: field) {
            // The full value first; a pattern that admits only X.Y.Z gets the core of a prerelease.
            let core = VersionParts(newValue).core
            var candidates = [newValue]
            if field == .marketing && core != newValue { candidates.append(core) }
            var chosen: String?
            for candidate in candidates {
                let edit = TextEdit(range: version.range, replacement: candidate)
                let after = matches(applying(edits + [edit], to: text), regex: regex)
                if after.count == 1, after[0].version?.value == candidate { chosen = candidate; break }
            }
            guard let chosen else {
                throw FileEditError(path: path, line: version.line,
                                    message: "the pattern would not match \(candidates.map { "\"\($0)\"" }.joined(separator: " or ")) written in place of \"\(version.value)\", so the next sync could not find it",
                                    hint: "widen the (?<version>…) group of the pattern, e.g. (?<version>[0-9A-Za-z.+-]+)")
            }
            if chosen != version.value { edits.append(TextEdit(range: version.range, replacement: chosen)) }
        }
        return edits
    }

    /// Whether the file, written with a prerelease, would still match: false when the pattern admits only `X.Y.Z`
    /// (such a file holds the core of a prerelease, like an iOS file).
    public func admitsPrerelease(_ text: String) -> Bool {
        guard field == .marketing, let regex = try? RegexEditor.compile(pattern),
              let version = matches(text, regex: regex).first?.version else { return true }
        let candidate = VersionParts(version.value).core + "-rc.1"
        let after = matches(applying([TextEdit(range: version.range, replacement: candidate)], to: text), regex: regex)
        return after.count == 1 && after[0].version?.value == candidate
    }
}
