/// A version value found in a file.
package struct VersionLocation: Sendable, Hashable {
    package var field: VersionField
    /// The value as found (decoded for JSON/plist strings), e.g. `1.4.0`, `57`, `$(MARKETING_VERSION)`.
    package var value: String
    /// 1-based line.
    package var line: Int
    /// UTF-8 byte range of the value token (quotes included where the format has them).
    package var range: Range<Int>
    /// true: written as a number; false: written as a string; nil: the format has no such distinction.
    package var isNumber: Bool?
    /// Set when the file only refers to the real value elsewhere; such locations are never edited.
    package var indirection: Indirection?
    /// Context such as `target HelloWorld, configuration Release` or a key path.
    package var context: String?
    /// Set when this literal is only a fallback (`System.getenv("BUILD") ?: 12`): the source that wins when it is
    /// set. The literal is edited like any other; the source is shown by `relctl current`.
    package var overriddenBy: Indirection?

    package init(field: VersionField, value: String, line: Int, range: Range<Int>, isNumber: Bool? = nil,
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
    package var notice: String? {
        switch indirection {
        case .buildSetting(let name)?:
            return "value is \(value); the real value lives in the build setting \(name) (project.pbxproj or an .xcconfig)"
        case .gradleProperty(let name)?:
            return "value comes from the Gradle property \(name); add a `properties` entry for gradle.properties"
        case .versionCatalog(let alias)?:
            return "value comes from the version catalog (libs.versions.\(alias)); add a `version-catalog` entry for gradle/libs.versions.toml"
        case .packageJSON(let path)?:
            return "value is the version of \(path); add a `json` entry for \(path)"
        case .computed(let expression, let hint)?:
            return "computed value (\(expression)); \(hint)"
        case nil:
            return nil
        }
    }
}
