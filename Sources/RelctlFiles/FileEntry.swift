import RelctlCore

/// The format of a version file, as written in `.relctl.json` (`"format": "expo-js"`).
public enum FileFormat: String, Sendable, CaseIterable, Hashable {
    case expo, json, expoJS = "expo-js", pbxproj, plist, xcconfig, gradle, properties, versionCatalog = "version-catalog", pubspec, regex

    /// The platform whose store rules apply to the marketing version written into this format.
    /// `.ios` formats get the store-safe marketing version (`1.3.0` for `1.3.0-beta.2`);
    /// the others keep the version whole.
    public var marketingPlatform: StorePlatform? {
        switch self {
        case .expo, .expoJS, .pbxproj, .plist, .xcconfig, .pubspec: return .ios
        case .gradle, .properties, .versionCatalog: return .android
        case .json, .regex: return nil
        }
    }
}

/// Per-format options; each applies only to the formats listed.
public struct FileOptions: Sendable, Hashable {
    /// json: key path of the value (default `["version"]`).
    public var keyPath: [String]?
    /// json, regex: which field the value is (default marketing).
    public var field: VersionField?
    /// pbxproj: target names (nil = application and app-extension targets).
    public var targets: [String]?
    /// regex: a pattern with a `(?<version>…)` group.
    public var pattern: String?
    /// properties: key of the version name (`VERSION_NAME` when neither key is given); version-catalog: the key of
    /// the `[versions]` table holding the version name.
    public var versionNameKey: String?
    /// properties: key of the version code (`VERSION_CODE` when neither key is given); version-catalog: the key of
    /// the `[versions]` table holding the version code.
    public var versionCodeKey: String?
    /// pubspec: keep a zero-padded build number zero-padded to the same width.
    public var padBuildNumber: Bool
    /// pbxproj, plist, xcconfig: read and write only this value (see `OnlyField`).
    public var only: OnlyField?

    /// properties: the keys read and written. Only the configured keys; `VERSION_NAME` and `VERSION_CODE` when
    /// neither is configured.
    public var propertyKeys: (name: String?, code: String?) {
        if versionNameKey == nil && versionCodeKey == nil { return ("VERSION_NAME", "VERSION_CODE") }
        return (versionNameKey, versionCodeKey)
    }

    public init(keyPath: [String]? = nil, field: VersionField? = nil, targets: [String]? = nil, pattern: String? = nil,
                versionNameKey: String? = nil, versionCodeKey: String? = nil, padBuildNumber: Bool = false,
                only: OnlyField? = nil) {
        self.keyPath = keyPath
        self.field = field
        self.targets = targets
        self.pattern = pattern
        self.versionNameKey = versionNameKey
        self.versionCodeKey = versionCodeKey
        self.padBuildNumber = padBuildNumber
        self.only = only
    }
}

/// One version file of the project, relative to the project root.
public struct FileEntry: Sendable, Hashable {
    public var path: String
    public var format: FileFormat
    public var options: FileOptions

    public init(path: String, format: FileFormat, options: FileOptions = FileOptions()) {
        self.path = path
        self.format = format
        self.options = options
    }

    /// A json entry writing the version of the package.json in the folder of `path` (Expo's fallback when
    /// app.json has no `expo.version`).
    public func isPackageJSONVersion(beside path: String) -> Bool {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return format == .json && self.path == (folder.isEmpty ? "" : folder + "/") + "package.json"
            && (options.keyPath ?? ["version"]) == ["version"] && (options.field ?? .marketing) == .marketing
    }

    /// The editor for this entry. A leading UTF-8 byte order mark is kept in the text (so it is written back
    /// unchanged) and hidden from the format's editor.
    public var editor: any VersionEditor { editor(readFile: nil) }

    /// The editor, looking into the files a project file refers to (an Xcode project's .xcconfig files and
    /// Info.plists, root-relative under `root`) to know where each target's version really lives.
    public func editor(root: String) -> any VersionEditor {
        editor(readFile: { path in try? VersionFiles.readText(root: root, path: path) })
    }

    func editor(readFile: (@Sendable (String) -> String?)?) -> any VersionEditor {
        let inner = ByteOrderMarkSkipping(inner: formatEditor(readFile: readFile))
        guard let only = options.only, OnlyField.formats.contains(format) else { return inner }
        return FieldSelecting(inner: inner, only: only)
    }

    private func formatEditor(readFile: (@Sendable (String) -> String?)?) -> any VersionEditor {
        switch format {
        case .expo: return ExpoJSONEditor()
        case .json: return JSONKeyPathEditor(keyPath: options.keyPath ?? ["version"], field: options.field ?? .marketing,
                                             json5: false)
        case .expoJS: return ExpoJSEditor()
        case .pbxproj: return PbxprojEditor(targets: options.targets, readFile: readFile)
        case .plist: return PlistEditor()
        case .xcconfig: return XcconfigEditor()
        case .gradle: return GradleEditor()
        case .properties: return PropertiesEditor(versionNameKey: options.propertyKeys.name, versionCodeKey: options.propertyKeys.code)
        case .versionCatalog: return VersionCatalogEditor(versionNameKey: options.versionNameKey, versionCodeKey: options.versionCodeKey)
        case .pubspec: return PubspecEditor(padBuildNumber: options.padBuildNumber)
        case .regex: return RegexEditor(pattern: options.pattern ?? "", field: options.field ?? .marketing)
        }
    }

    /// Which option keys each format accepts (besides `path` and `format`).
    public static let optionKeys: [FileFormat: Set<String>] = [
        .expo: [], .expoJS: [], .gradle: [],
        .plist: ["only"], .xcconfig: ["only"],
        .json: ["keyPath", "field"],
        .pbxproj: ["targets", "only"],
        .properties: ["versionNameKey", "versionCodeKey"],
        .versionCatalog: ["versionNameKey", "versionCodeKey"],
        .pubspec: ["padBuildNumber"],
        .regex: ["pattern", "field"],
    ]

    /// Strict decoding of one `files` item of `.relctl.json`, e.g.
    /// `{"path": "ios/App.xcodeproj/project.pbxproj", "format": "pbxproj", "targets": ["App"]}`.
    /// Unknown keys, options of another format and wrong types are errors with the line.
    public init(from node: JSONNode, configPath: String) throws(FileEditError) {
        func fail(_ line: Int, _ message: String, _ hint: String? = nil) -> FileEditError {
            FileEditError(path: configPath, line: line, message: message, hint: hint)
        }
        guard let members = node.objectMembers else {
            throw fail(node.line, "a files entry must be an object, found \(JSONEditing.article(node.typeName))",
                       "e.g. {\"path\": \"package.json\", \"format\": \"json\"}")
        }
        func string(_ key: String) throws(FileEditError) -> String? {
            guard let v = node.member(key) else { return nil }
            guard let s = v.stringValue else { throw fail(v.line, "\(key) must be a string, found \(JSONEditing.article(v.typeName))") }
            return s
        }
        func stringArray(_ key: String) throws(FileEditError) -> [String]? {
            guard let v = node.member(key) else { return nil }
            guard let items = v.arrayValue else {
                throw fail(v.line, "\(key) must be an array of strings, found \(JSONEditing.article(v.typeName))")
            }
            var out: [String] = []
            for item in items {
                guard let s = item.stringValue else {
                    throw fail(item.line, "\(key) must be an array of strings, found \(JSONEditing.article(item.typeName)) in it")
                }
                out.append(s)
            }
            return out
        }
        guard let path = try string("path") else { throw fail(node.line, "files entry without \"path\"") }
        guard let formatName = try string("format") else {
            throw fail(node.line, "files entry \(path) without \"format\"",
                       "one of: \(FileFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let format = FileFormat(rawValue: formatName) else {
            throw fail(node.member("format")?.line ?? node.line, "unknown format \"\(formatName)\"",
                       "one of: \(FileFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let allowed = (Self.optionKeys[format] ?? []).union(["path", "format"])
        for member in members where !allowed.contains(member.key) {
            let known = Set(Self.optionKeys.values.joined()).contains(member.key)
            throw fail(member.keyLine, known ? "option \"\(member.key)\" does not apply to format \(format.rawValue)"
                                             : "unknown key \"\(member.key)\" in files entry \(path)",
                       "allowed keys for \(format.rawValue): \(allowed.sorted().joined(separator: ", "))")
        }
        var options = FileOptions()
        if let v = node.member("keyPath") {
            if let s = v.stringValue { options.keyPath = s.split(separator: ".").map(String.init) }
            else { options.keyPath = try stringArray("keyPath") }
            if options.keyPath?.isEmpty == true { throw fail(v.line, "keyPath must not be empty") }
        }
        if let f = try string("field") {
            guard let field = VersionField(rawValue: f) else {
                throw fail(node.member("field")!.line, "unknown field \"\(f)\"",
                           "one of: \(VersionField.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            options.field = field
        }
        options.targets = try stringArray("targets")
        options.pattern = try string("pattern")
        options.versionNameKey = try string("versionNameKey")
        options.versionCodeKey = try string("versionCodeKey")
        if let v = node.member("padBuildNumber") {
            guard let b = v.boolValue else { throw fail(v.line, "padBuildNumber must be a boolean, found \(JSONEditing.article(v.typeName))") }
            options.padBuildNumber = b
        }
        if format == .versionCatalog && options.versionNameKey == nil && options.versionCodeKey == nil {
            throw fail(node.line, "version-catalog entry \(path) needs \"versionNameKey\" or \"versionCodeKey\"",
                       "the keys of its [versions] table the build script reads, e.g. \"versionNameKey\": \"appVersionName\" for libs.versions.appVersionName")
        }
        if let v = node.member("only") {
            guard let s = v.stringValue, let only = OnlyField(rawValue: s) else {
                throw fail(v.line, "only must be \"build\" or \"marketing\", found \(v.stringValue.map { "\"\($0)\"" } ?? JSONEditing.article(v.typeName))",
                           "\"only\": \"build\" writes the build number alone, \"only\": \"marketing\" the version alone")
            }
            options.only = only
        }
        if format == .regex {
            guard let pattern = options.pattern else {
                throw fail(node.line, "regex entry \(path) needs a \"pattern\" with a (?<version>…) group")
            }
            try RegexEditor.validate(pattern: pattern, path: configPath, line: node.member("pattern")?.line)
        }
        self.init(path: path, format: format, options: options)
    }
}

/// Runs an editor on the text after a leading U+FEFF (byte order mark) and shifts its byte ranges back, so every
/// editor sees the text as it would without the mark and the mark's 3 bytes are never edited.
struct ByteOrderMarkSkipping: VersionEditor {
    let inner: any VersionEditor
    static let markLength = 3

    private func split(_ text: String) -> (String, Int) {
        guard text.unicodeScalars.first == "\u{FEFF}" else { return (text, 0) }
        return (String(text.unicodeScalars.dropFirst()), Self.markLength)
    }

    func read(_ text: String, path: String) throws(FileEditError) -> [VersionLocation] {
        let (body, shift) = split(text)
        return try inner.read(body, path: path).map { location in
            var moved = location
            moved.range = (location.range.lowerBound + shift)..<(location.range.upperBound + shift)
            return moved
        }
    }

    func edits(_ text: String, path: String, target: VersionTarget) throws(FileEditError) -> [TextEdit] {
        let (body, shift) = split(text)
        return try inner.edits(body, path: path, target: target).map {
            TextEdit(range: ($0.range.lowerBound + shift)..<($0.range.upperBound + shift), replacement: $0.replacement)
        }
    }
}
