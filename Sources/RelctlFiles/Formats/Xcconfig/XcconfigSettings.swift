import RelctlCore

/// The settings an `.xcconfig` makes, with its `#include` / `#include?` chain followed as Xcode does: an included
/// file's settings stand where the directive stands (a later assignment wins), its path is relative to the
/// including file, a missing `#include?` is skipped. A missing plain `#include` is skipped too but remembered
/// (Flutter's `Generated.xcconfig` is written by `flutter build`, so a fresh checkout lacks it).
package struct XcconfigSettings: Sendable {
    package struct Assignment: Sendable, Hashable {
        package var key: String
        package var value: String
        /// Root-relative file holding the line.
        package var path: String
        package var line: Int
        /// `KEY[sdk=…] = …`: Xcode applies it on some SDKs only.
        package var conditional: Bool
        /// The files that included `path`, nearest first (empty for the base file itself).
        package var includedFrom: [String]
    }

    package var assignments: [Assignment] = []
    /// Files named by a plain `#include` that could not be read.
    package var missing: [String] = []

    /// Reads `path` (root-relative) and what it includes through `read`, which returns nil for an unreadable file.
    package init(path: String, read: (String) -> String?) {
        var visiting: [String] = []
        load(path, read: read, stack: &visiting)
    }

    private mutating func load(_ path: String, read: (String) -> String?, stack: inout [String]) {
        // An include cycle or an absurd depth stops quietly; Xcode reports the cycle itself.
        guard !stack.contains(path), stack.count < 32, let text = read(path) else { return }
        stack.append(path)
        defer { stack.removeLast() }
        let folder = XcodePaths.folder(of: path)
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = Substring(String(rawLine).trimmingSpaces)
            if line.hasPrefix("#include") {
                var rest = line.dropFirst("#include".count)
                let optional = rest.hasPrefix("?")
                if optional { rest = rest.dropFirst() }
                rest = rest.drop { $0 == " " || $0 == "\t" }
                guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { continue }
                let name = String(rest[rest.index(after: rest.startIndex)..<close])
                guard let included = XcodePaths.join(folder, name) else { continue }
                if read(included) == nil {
                    if !optional { missing.append(included) }
                    continue
                }
                let before = assignments.count
                load(included, read: read, stack: &stack)
                for i in before..<assignments.count { assignments[i].includedFrom.append(path) }
                continue
            }
            guard let assignment = Self.assignment(line, path: path, line: number) else { continue }
            assignments.append(assignment)
        }
    }

    /// `KEY = value // comment`, `KEY[sdk=iphoneos*] = value;` → the assignment; nil for anything else.
    static func assignment(_ line: Substring, path: String, line number: Int) -> Assignment? {
        let bytes = Array(line.utf8)
        var i = 0
        while i < bytes.count && bytes[i].isIdentifierByte && bytes[i] != UInt8(ascii: "$") { i += 1 }
        guard i > 0 else { return nil }
        let key = String(decoding: bytes[0..<i], as: UTF8.self)
        var conditional = false
        while i < bytes.count && bytes[i].isASCIIHorizontalSpace { i += 1 }
        while i < bytes.count && bytes[i] == UInt8(ascii: "[") {
            conditional = true
            while i < bytes.count && bytes[i] != UInt8(ascii: "]") { i += 1 }
            i += 1
            while i < bytes.count && bytes[i].isASCIIHorizontalSpace { i += 1 }
        }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { return nil }
        i += 1
        var end = i
        while end < bytes.count {
            if bytes[end] == UInt8(ascii: "/") && end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: "/") { break }
            end += 1
        }
        var value = String(decoding: bytes[i..<end], as: UTF8.self).trimmingSpaces
        while value.hasSuffix(";") { value = String(value.dropLast()).trimmingSpaces }
        return Assignment(key: key, value: value, path: path, line: number, conditional: conditional, includedFrom: [])
    }

    /// The unconditional assignment of `key` that wins (the last one), if any.
    package func value(_ key: String) -> Assignment? {
        assignments.last { $0.key == key && !$0.conditional }
    }
}
