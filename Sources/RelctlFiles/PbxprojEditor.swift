import Foundation
import RelctlCore

/// A parsed old-style (OpenStep) property list value with source positions, as used by `project.pbxproj`.
indirect enum PBXValue {
    case string(String, range: Range<Int>, quoted: Bool)
    case array([PBXValue])
    case dict([(key: String, value: PBXValue)])

    subscript(key: String) -> PBXValue? {
        if case .dict(let pairs) = self { return pairs.last(where: { $0.key == key })?.value }
        return nil
    }

    var string: String? {
        if case .string(let s, _, _) = self { return s }
        return nil
    }

    var array: [PBXValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
}

struct PBXParser {
    let t: ByteText
    var pos = 0
    let path: String
    /// Nesting of dictionaries and arrays; real projects stay under ten, a hostile file must not exhaust the stack.
    var depth = 0
    static let maxDepth = 200

    init(_ t: ByteText, path: String) {
        self.t = t
        self.path = path
    }

    func fail(_ message: String) -> FileEditError {
        FileEditError(path: path, line: t.line(of: min(pos, max(0, t.bytes.count - 1))), message: "cannot parse project.pbxproj: \(message)")
    }

    mutating func skip() throws(FileEditError) {
        let b = t.bytes
        while pos < b.count {
            if b[pos] == 0x20 || b[pos] == 0x09 || b[pos] == 0x0A || b[pos] == 0x0D { pos += 1; continue }
            if b[pos] == UInt8(ascii: "/"), pos + 1 < b.count {
                if b[pos + 1] == UInt8(ascii: "/") {
                    while pos < b.count && b[pos] != 0x0A { pos += 1 }
                    continue
                }
                if b[pos + 1] == UInt8(ascii: "*") {
                    pos += 2
                    while pos + 1 < b.count && !(b[pos] == UInt8(ascii: "*") && b[pos + 1] == UInt8(ascii: "/")) { pos += 1 }
                    guard pos + 1 < b.count else { throw fail("unterminated comment") }
                    pos += 2
                    continue
                }
            }
            break
        }
    }

    static func isUnquoted(_ c: UInt8) -> Bool {
        c.isIdentifierByte || c == UInt8(ascii: ".") || c == UInt8(ascii: "/") || c == UInt8(ascii: "-") || c == UInt8(ascii: ":")
    }

    mutating func parseDocument() throws(FileEditError) -> PBXValue {
        if t.bytes.starts(with: Array("// !$*UTF8*$!".utf8)) { pos = 0 }
        try skip()
        let v = try parseValue()
        try skip()
        guard pos >= t.bytes.count else { throw fail("unexpected text after the root dictionary") }
        return v
    }

    private mutating func enter() throws(FileEditError) {
        depth += 1
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth) levels") }
    }

    mutating func parseValue() throws(FileEditError) -> PBXValue {
        let b = t.bytes
        guard pos < b.count else { throw fail("unexpected end of file") }
        switch b[pos] {
        case UInt8(ascii: "{"):
            try enter()
            pos += 1
            var pairs: [(key: String, value: PBXValue)] = []
            while true {
                try skip()
                guard pos < b.count else { throw fail("unterminated dictionary") }
                if b[pos] == UInt8(ascii: "}") { pos += 1; depth -= 1; return .dict(pairs) }
                guard case .string(let key, _, _) = try parseValue() else { throw fail("dictionary key must be a string") }
                try skip()
                guard pos < b.count, b[pos] == UInt8(ascii: "=") else { throw fail("expected '=' after \(key)") }
                pos += 1
                try skip()
                let value = try parseValue()
                try skip()
                guard pos < b.count, b[pos] == UInt8(ascii: ";") else { throw fail("expected ';' after the value of \(key)") }
                pos += 1
                pairs.append((key, value))
            }
        case UInt8(ascii: "("):
            try enter()
            pos += 1
            var items: [PBXValue] = []
            while true {
                try skip()
                guard pos < b.count else { throw fail("unterminated array") }
                if b[pos] == UInt8(ascii: ")") { pos += 1; depth -= 1; return .array(items) }
                items.append(try parseValue())
                try skip()
                if pos < b.count && b[pos] == UInt8(ascii: ",") { pos += 1 }
            }
        case UInt8(ascii: "\""):
            let start = pos
            pos += 1
            var out: [UInt8] = []
            while pos < b.count && b[pos] != UInt8(ascii: "\"") {
                if b[pos] == UInt8(ascii: "\\") && pos + 1 < b.count {
                    pos += 1
                    switch b[pos] {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    default: out.append(b[pos])
                    }
                } else {
                    out.append(b[pos])
                }
                pos += 1
            }
            guard pos < b.count else { pos = start; throw fail("unterminated string") }
            pos += 1
            return .string(String(decoding: out, as: UTF8.self), range: start..<pos, quoted: true)
        default:
            let start = pos
            while pos < b.count && Self.isUnquoted(b[pos]) { pos += 1 }
            guard pos > start else { throw fail("unexpected character '\(Character(Unicode.Scalar(b[pos])))'") }
            return .string(t.string(start..<pos), range: start..<pos, quoted: false)
        }
    }
}

/// Xcode `project.pbxproj`: `MARKETING_VERSION` (marketing) and `CURRENT_PROJECT_VERSION` (iOS build)
/// in every `XCBuildConfiguration` of the selected targets, found through
/// PBXNativeTarget → buildConfigurationList → XCConfigurationList → buildConfigurations.
///
/// `targets == nil` selects application and app-extension targets (including watch apps/extensions,
/// App Clips and message extensions); test and framework targets are never touched by default.
/// A `$(VAR)` value (Flutter's `"$(FLUTTER_BUILD_NUMBER)"`) is reported as an indirection and left alone.
public struct PbxprojEditor: VersionEditor {
    public var targets: [String]?

    public static let defaultProductTypes: Set<String> = [
        "com.apple.product-type.application",
        "com.apple.product-type.app-extension",
        "com.apple.product-type.application.watchapp",
        "com.apple.product-type.application.watchapp2",
        "com.apple.product-type.application.watchapp2-container",
        "com.apple.product-type.watchkit-extension",
        "com.apple.product-type.watchkit2-extension",
        "com.apple.product-type.application.on-demand-install-capable",
        "com.apple.product-type.app-extension.messages",
        "com.apple.product-type.app-extension.messages-sticker-pack",
        "com.apple.product-type.extensionkit-extension",
        "com.apple.product-type.tv-app-extension",
    ]

    public init(targets: [String]? = nil) {
        self.targets = targets
    }

    public struct Configuration: Sendable, Hashable {
        public var target: String
        public var configuration: String
        public var marketing: VersionLocation?
        public var build: VersionLocation?
    }

    /// Every build configuration of the selected targets, with the values found (nil = setting absent).
    public func configurations(_ text: String, path: String) throws(FileEditError) -> [Configuration] {
        let t = ByteText(text)
        var parser = PBXParser(t, path: path)
        let root = try parser.parseDocument()
        guard case .dict(let objectPairs)? = root["objects"] else {
            throw FileEditError(path: path, line: nil, message: "no objects dictionary; is this a project.pbxproj?")
        }
        var objects: [String: PBXValue] = [:]
        for (id, value) in objectPairs { objects[id] = value }

        var nativeTargets: [(name: String, productType: String, object: PBXValue)] = []
        for (_, object) in objectPairs where object["isa"]?.string == "PBXNativeTarget" {
            nativeTargets.append((object["name"]?.string ?? "?", object["productType"]?.string ?? "", object))
        }
        let selected: [(name: String, productType: String, object: PBXValue)]
        if let targets {
            for name in targets where !nativeTargets.contains(where: { $0.name == name }) {
                throw FileEditError(path: path, line: nil, message: "no target named \(name)",
                                    hint: "targets in this project: \(nativeTargets.map(\.name).joined(separator: ", "))")
            }
            selected = nativeTargets.filter { targets.contains($0.name) }
        } else {
            selected = nativeTargets.filter { Self.defaultProductTypes.contains($0.productType) }
            if selected.isEmpty {
                throw FileEditError(path: path, line: nil, message: "no application or app-extension target found",
                                    hint: "name the targets in the entry's \"targets\" option")
            }
        }
        var result: [Configuration] = []
        for target in selected {
            guard let listID = target.object["buildConfigurationList"]?.string,
                  let list = objects[listID], list["isa"]?.string == "XCConfigurationList",
                  let configIDs = list["buildConfigurations"]?.array else {
                throw FileEditError(path: path, line: nil, message: "target \(target.name) has no usable buildConfigurationList")
            }
            for idValue in configIDs {
                guard let id = idValue.string, let config = objects[id], config["isa"]?.string == "XCBuildConfiguration" else {
                    throw FileEditError(path: path, line: nil, message: "target \(target.name) refers to a missing XCBuildConfiguration")
                }
                let configName = config["name"]?.string ?? "?"
                let context = "target \(target.name), configuration \(configName)"
                func location(_ key: String, _ field: VersionField) -> VersionLocation? {
                    guard case .string(let value, let range, _)? = config["buildSettings"]?[key] else { return nil }
                    return VersionLocation(field: field, value: value, line: t.line(of: range.lowerBound), range: range,
                                           indirection: buildSettingReference(value).map { .buildSetting($0) }, context: context)
                }
                result.append(Configuration(target: target.name, configuration: configName,
                                            marketing: location("MARKETING_VERSION", .marketing),
                                            build: location("CURRENT_PROJECT_VERSION", .iosBuild)))
            }
        }
        return result
    }

    public func read(_ text: String, path: String) throws(FileEditError) -> [VersionLocation] {
        try configurations(text, path: path).flatMap { [$0.marketing, $0.build].compactMap { $0 } }
    }

    public func edits(_ text: String, path: String, target: VersionTarget) throws(FileEditError) -> [TextEdit] {
        var edits: [TextEdit] = []
        let bytes = Array(text.utf8)
        for config in try configurations(text, path: path) {
            for (key, field, location) in [("MARKETING_VERSION", VersionField.marketing, config.marketing),
                                           ("CURRENT_PROJECT_VERSION", VersionField.iosBuild, config.build)] {
                guard let newValue = target.value(for: field) else { continue }
                guard let location else {
                    throw FileEditError(path: path, line: nil,
                                        message: "\(key) is not set in target \(config.target), configuration \(config.configuration)",
                                        hint: "set it in Xcode (Build Settings → Versioning) or leave the target out with \"targets\"")
                }
                if location.indirection != nil || location.value == newValue { continue }
                edits.append(TextEdit(range: location.range, replacement: Self.literal(newValue, quotedBefore: bytes[location.range.lowerBound] == UInt8(ascii: "\""))))
            }
        }
        return edits
    }

    static func literal(_ value: String, quotedBefore: Bool) -> String {
        if !quotedBefore, !value.isEmpty, value.utf8.allSatisfy({ PBXParser.isUnquoted($0) && $0 != UInt8(ascii: "$") }) {
            return value
        }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
