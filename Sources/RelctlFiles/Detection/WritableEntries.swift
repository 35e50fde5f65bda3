import RelctlCore

/// `relctl init` keeps a detected file only when `relctl sync` could write it.
enum WritableEntries {
    /// The entries whose every version value `relctl sync` can write, given the other entries (see `VersionFileDetection`).
    static func filter(_ candidates: [FileEntry], files project: ProjectFiles) -> [FileEntry] {
        var files: [FileEntry: FileVersions] = [:]
        for entry in candidates {
            if let file = try? FileVersions.load(entry, from: project) { files[entry] = file }
        }
        var locations: [FileEntry: [VersionLocation]] = [:]
        for (entry, file) in files { locations[entry] = file.locations }
        // The editor's own refusals (a conditional xcconfig setting, a target whose version lives in a file
        // left out, …): a dry run of what sync asks of the file.
        func syncRefuses(_ entry: FileEntry, _ values: [VersionLocation], with entries: [FileEntry]) -> Bool {
            guard let file = files[entry] else { return true }
            do {
                let target = try SyncPlan.target(for: file, entries: entries, version: "1.0.0", builds: SyncBuilds(ios: "1", android: "1"))
                try SyncPlan.checkTargets(file, target: target, entries: entries)
                _ = try file.parsed.edits(for: target)
                return false
            } catch {
                return true
            }
        }
        var kept = candidates.filter { locations[$0] != nil }
        // Dropping one entry can uncover another's reference: repeat until nothing changes.
        while true {
            let next = kept.filter { entry in
                let values = locations[entry] ?? []
                // An Expo config without expo.version takes package.json's version: kept only with that entry.
                if entry.format == .expo && !values.contains(where: { $0.field == .marketing })
                    && !kept.contains(where: { $0.isPackageJSONVersion(beside: entry.path) }) { return false }
                // A Gradle file reading gradle.properties only is kept with it (it tells where the values live).
                // A pbxproj whose targets' versions all live in .xcconfig files or Info.plists is kept with them.
                let projectIndex = entry.format == .pbxproj && files[entry]?.targets.contains { [$0.marketing, $0.build].contains { [.xcconfig, .plist].contains($0.kind) } } == true
                guard projectIndex || (!values.isEmpty && (values.contains(where: { $0.indirection == nil }) || entry.format == .gradle)) else { return false }
                // gradle.properties and the version catalog are added for the Gradle files that read them, and go with them.
                if (entry.format == .properties && entry.path.split(separator: "/").last == "gradle.properties") || entry.format == .versionCatalog {
                    let read = kept.contains { gradle in
                        gradle.format == .gradle && (locations[gradle] ?? []).contains { location in
                            [location.indirection, location.overriddenBy].contains { $0.map { entry.covers($0, inFileAt: gradle.path) } ?? false }
                        }
                    }
                    if !read { return false }
                }
                if syncRefuses(entry, values, with: kept) { return false }
                return values.allSatisfy { location in
                    switch location.indirection {
                    case nil: return true
                    case .computed?: return false
                    case let indirection?: return kept.contains { $0.covers(indirection, inFileAt: entry.path) }
                    }
                }
            }
            if next.count == kept.count { return kept }
            kept = next
        }
    }
}
