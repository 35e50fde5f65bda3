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
///
/// A target configuration without the setting inherits it: with `readFile` (the project's other files, root-relative)
/// relctl resolves it as Xcode does (`XcodeTargetVersions`) and edits the project-level value when that is where
/// it lives; a value in an `.xcconfig` or an Info.plist is that file's entry's to write (the sync plan checks one
/// covers it). Without `readFile` only the project-level value of a target without a base configuration is followed,
/// and a setting missing from a configuration without a base configuration is an error.
public struct PbxprojEditor: VersionEditor {
    public var targets: [String]?
    /// The text of another file of the repository (root-relative path), nil when unreadable.
    package var readFile: (@Sendable (String) -> String?)?

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

    package init(targets: [String]?, readFile: (@Sendable (String) -> String?)?) {
        self.targets = targets
        self.readFile = readFile
    }

    public struct Configuration: Sendable, Hashable {
        public var target: String
        public var configuration: String
        /// The target's own setting, or the project-level one it inherits (nil = not in this file).
        public var marketing: VersionLocation?
        public var build: VersionLocation?
    }

    /// The targets this editor works on.
    package func selectedTargets(_ project: XcodeProject, path: String) throws(FileEditError) -> [XcodeProject.Target] {
        if let targets {
            for name in targets where !project.targets.contains(where: { $0.name == name }) {
                throw FileEditError(path: path, line: nil, message: "no target named \(name)",
                                    hint: "targets in this project: \(project.targets.map(\.name).joined(separator: ", "))")
            }
            return try Self.usable(project.targets.filter { targets.contains($0.name) })
        }
        let selected = project.targets.filter { Self.defaultProductTypes.contains($0.productType) }
        if selected.isEmpty {
            throw FileEditError(path: path, line: nil, message: "no application or app-extension target found",
                                hint: "name the targets in the entry's \"targets\" option")
        }
        return try Self.usable(selected)
    }

    private static func usable(_ targets: [XcodeProject.Target]) throws(FileEditError) -> [XcodeProject.Target] {
        if let error = targets.lazy.compactMap(\.error).first { throw error }
        return targets
    }

    /// Where each selected target's version lives (needs `readFile` to look into .xcconfig files and Info.plists;
    /// without it they count as unreadable).
    package func targetVersions(_ text: String, path: String) throws(FileEditError) -> [XcodeTargetVersion] {
        let project = try XcodeProject(text, path: path)
        let selected = try selectedTargets(project, path: path)
        let read = readFile
        return XcodeTargetVersions.resolve(project, targets: selected) { read?($0) }
    }

    /// Every build configuration of the selected targets, with the values found in this file (nil = not here),
    /// and where each one's version lives when `readFile` is given.
    func resolved(_ text: String, path: String) throws(FileEditError)
        -> [(configuration: Configuration, version: XcodeTargetVersion?, inherits: Bool)] {
        let project = try XcodeProject(text, path: path)
        let selected = try selectedTargets(project, path: path)
        let t = ByteText(text)
        let read = readFile
        let versions = readFile.map { _ in XcodeTargetVersions.resolve(project, targets: selected) { read?($0) } }
        var result: [(configuration: Configuration, version: XcodeTargetVersion?, inherits: Bool)] = []
        var index = 0
        for target in selected {
            for config in target.configurations {
                let version = versions?[index]
                index += 1
                let projectConfig = project.projectConfiguration(named: config.name)
                func location(_ key: String, _ field: VersionField) -> VersionLocation? {
                    if let s = config.settings[key] {
                        return VersionLocation(field: field, value: s.value, line: s.line, range: s.range,
                                               indirection: buildSettingReference(s.value).map { .buildSetting($0) },
                                               context: "target \(target.name), configuration \(config.name)")
                    }
                    // Inherited from the project's build settings: certain without a base configuration;
                    // with the other files read, whenever that is where the value really lives.
                    let source = version?.source(field)
                    if let source, source.kind == .pbxproj, let range = source.range, let value = source.value {
                        return VersionLocation(field: field, value: value, line: t.line(of: range.lowerBound), range: range,
                                               context: "project, configuration \(config.name) (\(source.setting))")
                    }
                    if version == nil, !config.hasBaseConfiguration, let s = projectConfig?.settings[key] {
                        return VersionLocation(field: field, value: s.value, line: s.line, range: s.range,
                                               indirection: buildSettingReference(s.value).map { .buildSetting($0) },
                                               context: "project, configuration \(config.name)")
                    }
                    return nil
                }
                // Without the other files, only a base configuration can hold what this file lacks.
                let inherits = config.hasBaseConfiguration || projectConfig?.hasBaseConfiguration == true
                result.append((Configuration(target: target.name, configuration: config.name,
                                             marketing: location("MARKETING_VERSION", .marketing),
                                             build: location("CURRENT_PROJECT_VERSION", .iosBuild)), version, inherits))
            }
        }
        return result
    }

    /// Every build configuration of the selected targets, with the values found (nil = setting absent).
    public func configurations(_ text: String, path: String) throws(FileEditError) -> [Configuration] {
        try resolved(text, path: path).map(\.configuration)
    }

    public func read(_ text: String, path: String) throws(FileEditError) -> [VersionLocation] {
        var seen = Set<Range<Int>>()
        return try configurations(text, path: path).flatMap { [$0.marketing, $0.build].compactMap { $0 } }
            .filter { seen.insert($0.range).inserted }
    }

    public func edits(_ text: String, path: String, target: VersionTarget) throws(FileEditError) -> [TextEdit] {
        var edits: [TextEdit] = []
        var edited = Set<Range<Int>>()
        let bytes = Array(text.utf8)
        for (config, version, inherits) in try resolved(text, path: path) {
            for (key, field, location) in [("MARKETING_VERSION", VersionField.marketing, config.marketing),
                                           ("CURRENT_PROJECT_VERSION", VersionField.iosBuild, config.build)] {
                guard let newValue = target.value(for: field) else { continue }
                guard let location else {
                    // Elsewhere (an .xcconfig, the Info.plist, pubspec.yaml): the sync plan checks an entry covers it.
                    if let source = version?.source(field) {
                        if source.kind == .unset { throw Self.notSet(key, config, path: path) }
                        if source.kind == .unresolved {
                            throw FileEditError(path: source.path ?? path, line: source.line,
                                                message: "\(source.reason ?? source.setting), which relctl cannot follow to a value for target \(config.target)",
                                                hint: "write a literal there, or leave the target out with \"targets\"")
                        }
                        continue
                    }
                    if inherits { continue }
                    throw Self.notSet(key, config, path: path)
                }
                if location.indirection != nil || location.value == newValue || !edited.insert(location.range).inserted { continue }
                edits.append(TextEdit(range: location.range, replacement: Self.literal(newValue, quotedBefore: bytes[location.range.lowerBound] == UInt8(ascii: "\""))))
            }
        }
        return edits
    }

    static func notSet(_ key: String, _ config: Configuration, path: String) -> FileEditError {
        FileEditError(path: path, line: nil,
                      message: "\(key) is not set in target \(config.target), configuration \(config.configuration)",
                      hint: "set it in Xcode (Build Settings → Versioning) or leave the target out with \"targets\"")
    }

    static func literal(_ value: String, quotedBefore: Bool) -> String {
        if !quotedBefore, !value.isEmpty, value.utf8.allSatisfy({ PBXParser.isUnquoted($0) && $0 != UInt8(ascii: "$") }) {
            return value
        }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
