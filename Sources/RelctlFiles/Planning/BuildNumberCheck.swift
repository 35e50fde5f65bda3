import RelctlCore

extension SyncPlan {
    /// Every new build number must pass its store's rules and be greater than the one it replaces (the format's
    /// unit names the rule: `VersionFileFormat.checkBuildNumber`).
    ///
    /// An iOS build (CFBundleVersion) is compared only within one marketing version: App Store Connect asks a higher
    /// build for each upload of a version (TN2420), and a team may start every new version at 1 or 0. Whether the new
    /// version was already uploaded with a higher build is the release tags' to say (`planVersionSync`).
    static func validateBuilds(_ file: FileVersions, target: VersionTarget) throws(FileEditError) {
        let newVersion = target.value(for: .marketing).map { new in
            file.marketing.map { VersionOrder.compare(VersionParts($0).core, VersionParts(new).core) != .orderedSame } ?? false
        } ?? false
        // A pbxproj setting no target reads is written too, but it is no build the stores have seen.
        for location in file.usedLocations where location.indirection == nil {
            guard let new = target.value(for: location.field), location.field != .marketing else { continue }
            let changed = CurrentVersions.normalizeBuild(new) != CurrentVersions.normalizeBuild(location.value)
                && !(newVersion && location.field == .iosBuild)
            do {
                try file.entry.format.unit.checkBuildNumber(location.field, new: new, current: changed ? location.value : nil)
            } catch {
                throw FileEditError(path: file.entry.path, line: location.line, message: error.message, hint: "\(error.rule); \(error.fix)")
            }
        }
    }
}
