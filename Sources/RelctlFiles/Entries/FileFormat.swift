/// The format of a version file, as written in `.relctl.json` (`"format": "expo-js"`). What each format is and does
/// lives in its unit (`FileFormat.unit`, `FormatRegistry`).
package enum FileFormat: String, Sendable, CaseIterable, Hashable {
    case expo, json, expoJS = "expo-js", pbxproj, plist, xcconfig, gradle, properties, versionCatalog = "version-catalog", pubspec, regex
}
