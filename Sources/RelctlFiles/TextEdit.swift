import RelctlCore

/// Replace the UTF-8 bytes `range` of a file with `replacement`.
public struct TextEdit: Hashable, Sendable {
    /// UTF-8 byte offsets into the original text.
    public var range: Range<Int>
    public var replacement: String

    public init(range: Range<Int>, replacement: String) {
        self.range = range
        self.replacement = replacement
    }
}

/// Applies non-overlapping edits (in any order). Bytes outside the edited ranges never change.
public func applying(_ edits: [TextEdit], to text: String) -> String {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var cursor = 0
    // Stable: two insertions at one offset (a pubspec's version and its new "+N") keep the order given.
    let ordered = edits.enumerated().sorted { ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset) }
    for edit in ordered.map(\.element) {
        precondition(edit.range.lowerBound >= cursor && edit.range.upperBound <= bytes.count,
                     "overlapping or out-of-bounds TextEdit \(edit.range)")
        out.append(contentsOf: bytes[cursor..<edit.range.lowerBound])
        out.append(contentsOf: Array(edit.replacement.utf8))
        cursor = edit.range.upperBound
    }
    out.append(contentsOf: bytes[cursor...])
    return String(decoding: out, as: UTF8.self)
}

/// Which version field a location holds.
public enum VersionField: String, Sendable, Hashable, CaseIterable {
    /// The marketing version: expo.version, versionName, CFBundleShortVersionString, MARKETING_VERSION, package.json version.
    case marketing
    /// CFBundleVersion / CURRENT_PROJECT_VERSION / expo.ios.buildNumber.
    case iosBuild
    /// versionCode / expo.android.versionCode.
    case androidBuild
    /// A build number shared by both platforms (pubspec `+N`).
    case build
}

/// Where a value does not live in this file.
public enum Indirection: Hashable, Sendable, CustomStringConvertible {
    /// `$(MARKETING_VERSION)` in a plist or pbxproj: the value lives in a build setting (pbxproj or .xcconfig).
    case buildSetting(String)
    /// A Gradle property such as `APP_VERSION_CODE` read from `gradle.properties`.
    case gradleProperty(String)
    /// A Gradle version catalog entry (`libs.versions.app.version.get()`): the alias as the script spells it
    /// (`app.version`), which names the key `app-version`, `app_version` or `app.version` of the `[versions]`
    /// table of `gradle/libs.versions.toml`.
    case versionCatalog(String)
    /// A computed value (expression, identifier, call, template): reported by `read`, refused by `edits`.
    case computed(expression: String, hint: String)

    public var description: String {
        switch self {
        case .buildSetting(let name): return "$(\(name))"
        case .gradleProperty(let name): return "gradle property \(name)"
        case .versionCatalog(let alias): return "version catalog libs.versions.\(alias)"
        case .computed(let expression, _): return "computed value \(expression)"
        }
    }
}

/// A version value found in a file.
public struct VersionLocation: Sendable, Hashable {
    public var field: VersionField
    /// The value as found (decoded for JSON/plist strings), e.g. `1.4.0`, `57`, `$(MARKETING_VERSION)`.
    public var value: String
    /// 1-based line.
    public var line: Int
    /// UTF-8 byte range of the value token (quotes included where the format has them).
    public var range: Range<Int>
    /// true: written as a number; false: written as a string; nil: the format has no such distinction.
    public var isNumber: Bool?
    /// Set when the file only refers to the real value elsewhere; such locations are never edited.
    public var indirection: Indirection?
    /// Context such as `target HelloWorld, configuration Release` or a key path.
    public var context: String?
    /// Set when this literal is only a fallback (`System.getenv("BUILD") ?: 12`): the source that wins when it is
    /// set. The literal is edited like any other; the source is shown by `relctl current`.
    public var overriddenBy: Indirection?

    public init(field: VersionField, value: String, line: Int, range: Range<Int>, isNumber: Bool? = nil,
                indirection: Indirection? = nil, context: String? = nil, overriddenBy: Indirection? = nil) {
        self.field = field
        self.value = value
        self.line = line
        self.range = range
        self.isNumber = isNumber
        self.indirection = indirection
        self.context = context
        self.overriddenBy = overriddenBy
    }

    /// A human note for indirections, e.g. for `relctl current`.
    public var notice: String? {
        switch indirection {
        case .buildSetting(let name)?:
            return "value is \(value); the real value lives in the build setting \(name) (project.pbxproj or an .xcconfig)"
        case .gradleProperty(let name)?:
            return "value comes from the Gradle property \(name); add a `properties` entry for gradle.properties"
        case .versionCatalog(let alias)?:
            return "value comes from the version catalog (libs.versions.\(alias)); add a `version-catalog` entry for gradle/libs.versions.toml"
        case .computed(let expression, let hint)?:
            return "computed value (\(expression)); \(hint)"
        case nil:
            return nil
        }
    }
}

/// An error in one file: `path:line: message (hint)`, the path relative to the project root. The command line
/// prints it after its own `error: `, so the description carries no `error:` of its own.
public struct FileEditError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var line: Int?
    public var message: String
    public var hint: String?

    public init(path: String, line: Int? = nil, message: String, hint: String? = nil) {
        self.path = path
        self.line = line
        self.message = message
        self.hint = hint
    }

    public var description: String {
        var s = path
        if let line { s += ":\(line)" }
        s += ": \(message)"
        if let hint { s += " (\(hint))" }
        return s
    }
}

/// The values to write; nil leaves a field untouched.
public struct VersionTarget: Sendable, Hashable {
    public var marketing: String?
    public var iosBuild: String?
    public var androidBuild: String?

    public init(marketing: String? = nil, iosBuild: String? = nil, androidBuild: String? = nil) {
        self.marketing = marketing
        self.iosBuild = iosBuild
        self.androidBuild = androidBuild
    }

    /// The value for one field. `.build` (pubspec) takes `androidBuild ?? iosBuild`.
    public func value(for field: VersionField) -> String? {
        switch field {
        case .marketing: return marketing
        case .iosBuild: return iosBuild
        case .androidBuild: return androidBuild
        case .build: return androidBuild ?? iosBuild
        }
    }
}

/// A format-preserving editor: a pure function of the file's text.
public protocol VersionEditor: Sendable {
    /// Every version value in the file (including indirections, which are reported but never edited).
    func read(_ text: String, path: String) throws(FileEditError) -> [VersionLocation]
    /// The edits that write `target`; empty when the file already holds it.
    func edits(_ text: String, path: String, target: VersionTarget) throws(FileEditError) -> [TextEdit]
}

// MARK: - Shared helpers

/// Byte-level view of a text with line lookup.
struct ByteText {
    let bytes: [UInt8]
    let lineStarts: [Int]

    init(_ text: String) {
        bytes = Array(text.utf8)
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A { starts.append(i + 1) }
        lineStarts = starts
    }

    func line(of offset: Int) -> Int {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo + 1
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// Byte range of line `n` (1-based) without its `\n` / `\r\n`.
    func lineRange(_ n: Int) -> Range<Int> {
        let start = lineStarts[n - 1]
        var end = n < lineStarts.count ? lineStarts[n] - 1 : bytes.count
        if end > start && bytes[end - 1] == 0x0D { end -= 1 }
        return start..<end
    }

    var lineCount: Int { lineStarts.count }
}

extension UInt8 {
    var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
    var isASCIILetter: Bool { (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) }
    var isIdentifierByte: Bool { isASCIIDigit || isASCIILetter || self == 0x5F || self == 0x24 }
    var isHorizontalSpace: Bool { self == 0x20 || self == 0x09 }
}

func isAllDigits(_ s: String) -> Bool { !s.isEmpty && s.utf8.allSatisfy(\.isASCIIDigit) }

/// `$(NAME)`, `${NAME}` or `$(NAME:modifier)` → NAME; any other value containing `$(`/`${` → the value itself; else nil.
func buildSettingReference(_ value: String) -> String? {
    guard value.contains("$(") || value.contains("${") else { return nil }
    for (open, close) in [("$(", ")"), ("${", "}")] where value.hasPrefix(open) && value.hasSuffix(close) {
        var name = String(value.dropFirst(2).dropLast())
        if let colon = name.firstIndex(of: ":") { name = String(name[..<colon]) }
        if !name.contains("$") && !name.contains(")") { return name }
    }
    return value
}

/// Refuses to edit a requested field whose value is computed.
func refuseComputed(_ locations: [VersionLocation], target: VersionTarget, path: String) throws(FileEditError) {
    for location in locations where target.value(for: location.field) != nil {
        if case .computed(let expression, let hint)? = location.indirection {
            throw FileEditError(path: path, line: location.line,
                                message: "\(location.context ?? location.field.rawValue) is a computed value (\(expression)), relctl edits only literals",
                                hint: hint)
        }
    }
}

/// The value a location should get, or nil when this field is not requested.
/// Every requested field must have at least one location (indirections count).
func requireFields(_ locations: [VersionLocation], target: VersionTarget, fields: [VersionField],
                   path: String, describe: (VersionField) -> String) throws(FileEditError) {
    for field in fields where target.value(for: field) != nil {
        if !locations.contains(where: { $0.field == field }) {
            throw FileEditError(path: path, line: nil, message: "no \(describe(field)) found",
                                hint: "add it to the file, or leave this field out of the target")
        }
    }
}
