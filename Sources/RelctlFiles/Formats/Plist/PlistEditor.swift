#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RelctlCore

/// XML `Info.plist`: `<key>CFBundleShortVersionString</key>` / `<key>CFBundleVersion</key>` followed by a
/// `<string>` literal. XML comments are skipped. A `$(VAR)` value is reported as an indirection
/// (the real value lives in the pbxproj or an .xcconfig) and never edited.
package struct PlistEditor: VersionEditor {
    package init() {}

    static let keys: [String: VersionField] = ["CFBundleShortVersionString": .marketing, "CFBundleVersion": .iosBuild]

    package func parse(_ text: String, path: String) throws(FileEditError) -> any ParsedVersionFile {
        let t = ByteText(text)
        if t.bytes.starts(with: Array("bplist".utf8)) {
            throw FileEditError(path: path, line: nil, message: "binary property list",
                                hint: "convert it to XML with `plutil -convert xml1 \(path)`")
        }
        let b = t.bytes
        var result: [VersionLocation] = []
        var i = 0
        // Called at every byte: compares in place (two arrays a call made this most of `relctl next`'s own work).
        func starts(_ s: StaticString, at p: Int) -> Bool {
            let n = s.utf8CodeUnitCount
            guard p + n <= b.count else { return false }
            let u = s.utf8Start
            for k in 0..<n where b[p + k] != u[k] { return false }
            return true
        }
        func find(_ s: StaticString, from p: Int) -> Int? {
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
        return Parsed(path: path, locations: result)
    }

    struct Parsed: ParsedVersionFile {
        let path: String
        let locations: [VersionLocation]

        func edits(for target: VersionTarget) throws(FileEditError) -> [TextEdit] {
            try requireFields(locations, target: target, fields: [.marketing, .iosBuild], path: path) {
                $0 == .marketing ? "CFBundleShortVersionString" : "CFBundleVersion"
            }
            return try literalEdits(locations, target: target) { _, value in PlistEditor.escape(value) }
        }
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
