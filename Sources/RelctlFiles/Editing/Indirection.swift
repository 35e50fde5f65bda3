/// Where a value does not live in this file.
package enum Indirection: Hashable, Sendable, CustomStringConvertible {
    /// `$(MARKETING_VERSION)` in a plist or pbxproj: the value lives in a build setting (pbxproj or .xcconfig).
    case buildSetting(String)
    /// A Gradle property such as `APP_VERSION_CODE` read from `gradle.properties`.
    case gradleProperty(String)
    /// A Gradle version catalog entry (`libs.versions.app.version.get()`): the alias as the script spells it
    /// (`app.version`), which names the key `app-version`, `app_version` or `app.version` of the `[versions]`
    /// table of `gradle/libs.versions.toml`.
    case versionCatalog(String)
    /// The `version` of a package.json (root-relative path) a JS config reads (`version: pkg.version`,
    /// `import { version } from "./package.json"`): the json entry for that file writes it.
    case packageJSON(String)
    /// A computed value (expression, identifier, call, template): reported by `read`, refused by `edits`.
    case computed(expression: String, hint: String)

    package var description: String {
        switch self {
        case .buildSetting(let name): return "$(\(name))"
        case .gradleProperty(let name): return "gradle property \(name)"
        case .versionCatalog(let alias): return "version catalog libs.versions.\(alias)"
        case .packageJSON(let path): return "version of \(path)"
        case .computed(let expression, _): return "computed value \(expression)"
        }
    }
}
