import RelctlCore

/// `relctl sync`: every file's new content, computed and validated before anything is written.
///
/// Planning is pure: it works on files already read and parsed (`CurrentVersions`), asks each parsed file for its
/// edits, and reads nothing from disk, so a command may plan several times (the version alone, then with build
/// numbers) at the cost of the edits only.
package struct SyncPlan: Sendable {
    package var root: String
    package var version: String
    package var iosBuild: String?
    package var androidBuild: String?
    package var changes: [FileChange]

    /// Plans writing `version` (and build numbers, nil = leave untouched) into every file of `current`.
    ///
    /// Per file, the marketing version follows its format's `marketingPlatform` (iOS formats get
    /// `storeMarketingVersion(for:platform: .ios)`, e.g. `1.3.0` for `1.3.0-beta.2`). Build numbers are
    /// written only where the file already has the field (pubspec: `+N` is added if missing). A new
    /// build number must pass the store rules and be greater than the value it replaces.
    /// Indirections must be covered by another entry (`$(MARKETING_VERSION)` by a pbxproj/xcconfig/pubspec
    /// entry; a Gradle property by a properties entry with that key). Any problem throws before writing.
    package static func make(_ current: CurrentVersions, version: String, iosBuild: String? = nil,
                             androidBuild: String? = nil) throws(FileEditError) -> SyncPlan {
        let entries = current.files.map(\.entry)
        let builds = SyncBuilds(ios: iosBuild, android: androidBuild)
        var changes: [FileChange] = []
        for file in current.files {
            let path = file.entry.path
            let target = try self.target(for: file, entries: entries, version: version, builds: builds)
            try checkIndirections(file, target: target, entries: entries, project: current.project)
            try checkTargets(file, target: target, entries: entries)
            try validateBuilds(file, target: target)
            let edits = try file.parsed.edits(for: target)
            let newText = edits.isEmpty ? file.text : applying(edits, to: file.text)
            changes.append(FileChange(path: path, absolutePath: current.project.absolute(path), format: file.entry.format,
                                      oldText: file.text, newText: newText, locations: file.locations, edits: edits, target: target))
        }
        return SyncPlan(root: current.root, version: version, iosBuild: iosBuild, androidBuild: androidBuild, changes: changes)
    }

    /// The values one file is asked to hold when `entries` are synced to `version` (and build numbers): the
    /// version, store-safe for the format's platform, and each build number the file has a field for, as the
    /// format's unit adjusts them (`VersionFileFormat.adjust`), less what its `"only"` leaves alone.
    static func target(for file: FileVersions, entries: [FileEntry], version: String,
                       builds: SyncBuilds) throws(FileEditError) -> VersionTarget {
        let entry = file.entry
        let unit = entry.format.unit
        var target = VersionTarget()
        if let platform = unit.marketingPlatform {
            do {
                target.marketing = try storeMarketingVersion(for: version, platform: platform)
            } catch {
                let line = file.locations.first(where: { $0.field == .marketing })?.line
                throw FileEditError(path: entry.path, line: line, message: error.message, hint: "\(error.rule); \(error.fix)")
            }
        } else {
            target.marketing = version
        }
        let fields = Set(file.locations.map(\.field))
        if fields.contains(.iosBuild) { target.iosBuild = builds.ios }
        if fields.contains(.androidBuild) { target.androidBuild = builds.android }
        unit.adjust(&target, for: file, builds: builds, entries: entries)
        if let only = entry.options.only, unit.takesOnly { target = only.selecting(target) }
        return target
    }

    /// What the changed files become: the one conversion to writes (`FileChange.write`), shared by `sync` and
    /// `release`.
    package var writes: [FileWrite] { changes.filter(\.isChanged).map(\.write) }

    /// Writes every changed file all-or-nothing (see `TransactionalWriter`).
    package func write() throws(FileEditError) {
        try TransactionalWriter.write(writes)
    }
}
