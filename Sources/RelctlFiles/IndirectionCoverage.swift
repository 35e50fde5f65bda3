/// Which entry holds the real value of an indirection: the one rule `sync` (is every reference covered?), `init`
/// (keep a file only when its references are covered) and `current` (where does the value live?) share.
extension FileEntry {
    /// Whether this entry writes the value `indirection` in the file at `path` refers to.
    public func covers(_ indirection: Indirection, inFileAt path: String) -> Bool {
        switch indirection {
        case .buildSetting:
            return [.pbxproj, .xcconfig, .pubspec].contains(format) && self.path != path
        case .gradleProperty(let name):
            return format == .properties && (options.propertyKeys.name == name || options.propertyKeys.code == name)
        case .versionCatalog(let alias):
            let wanted = VersionCatalogEditor.alias(alias)
            return format == .versionCatalog
                && [options.versionNameKey, options.versionCodeKey].contains { $0.map(VersionCatalogEditor.alias) == wanted }
        case .computed:
            return false
        }
    }

}
