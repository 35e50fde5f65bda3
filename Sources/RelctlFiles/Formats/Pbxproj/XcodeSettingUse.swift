import RelctlCore

/// Which values of a project.pbxproj are what the app is built with.
///
/// A target's `MARKETING_VERSION` is dead when its Info.plist holds a literal `CFBundleShortVersionString`: Xcode
/// takes the plist's value (a React Native share extension at `MARKETING_VERSION = 1.0` beside a plist holding
/// `2.43.0` ships 2.43.0). `sync` still writes such a value, so it stays in step, but it is not a version of the
/// app: drift, the version floor and `adopt` do not count it, and `current` says so.
extension FileVersions {
    /// A literal build setting of a pbxproj that no selected target reads (each one finds the value elsewhere).
    /// false for every other format, for indirections, and when the targets could not be resolved.
    package func isUnusedSetting(_ location: VersionLocation) -> Bool {
        guard entry.format == .pbxproj, !targets.isEmpty, location.indirection == nil else { return false }
        let field: VersionField = location.field == .marketing ? .marketing : .iosBuild
        return !targets.contains { target in
            let source = target.source(field)
            return source.kind == .pbxproj && (source.range == location.range || source.line == location.line)
        }
    }

    /// The locations whose values count: all of them, less the pbxproj settings no target reads (computed once,
    /// when the file is parsed: `usedLocations`).
    func findUsedLocations() -> [VersionLocation] { locations.filter { !isUnusedSetting($0) } }

}
