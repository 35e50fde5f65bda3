import RelctlCore

extension SyncPlan {
    /// Every new build number must pass its store's rules and be greater than the one it replaces (the format's
    /// unit names the rule: `VersionFileFormat.checkBuildNumber`).
    static func validateBuilds(_ file: FileVersions, target: VersionTarget) throws(FileEditError) {
        // A pbxproj setting no target reads is written too, but it is no build the stores have seen.
        for location in file.usedLocations where location.indirection == nil {
            guard let new = target.value(for: location.field), location.field != .marketing else { continue }
            let changed = CurrentVersions.normalizeBuild(new) != CurrentVersions.normalizeBuild(location.value)
            do {
                try file.entry.format.unit.checkBuildNumber(location.field, new: new, current: changed ? location.value : nil)
            } catch {
                throw FileEditError(path: file.entry.path, line: location.line, message: error.message, hint: "\(error.rule); \(error.fix)")
            }
        }
    }
}
