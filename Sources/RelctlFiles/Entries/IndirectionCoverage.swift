/// Which entry holds the real value of an indirection: the one rule `sync` (is every reference covered?), `init`
/// (keep a file only when its references are covered) and `current` (where does the value live?) share.
extension FileEntry {
    /// Whether this entry writes the value `indirection` in the file at `path` refers to: a build setting by a
    /// file that sets them (pbxproj, xcconfig; pubspec.yaml for Flutter's) other than `path` itself, a Gradle property
    /// by a properties entry with that key, a version catalog alias by the catalog entry with that key. What each
    /// format provides, its unit says (`VersionFileFormat.provides`); a computed value is covered by none.
    package func covers(_ indirection: Indirection, inFileAt path: String) -> Bool {
        switch indirection {
        case .computed: return false
        case .buildSetting where self.path == path: return false
        case .packageJSON(let packagePath):
            return format == .json && self.path == packagePath && (options.keyPath ?? ["version"]) == ["version"]
        default: return format.unit.provides(indirection, options: options)
        }
    }
}
