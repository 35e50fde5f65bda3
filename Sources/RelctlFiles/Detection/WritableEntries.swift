import RelctlCore

/// `relctl init` keeps a detected file only when `relctl sync` could write it.
enum WritableEntries {
    /// The entries whose every version value `relctl sync` can write, given the other entries (see
    /// `VersionFileDetection`): each holds a literal (or is one its format keeps without: `keptWithoutLiteral`),
    /// every reference in it is covered by another kept entry, sync would not refuse it, and its format keeps it
    /// beside the others (`keptBeside`).
    static func filter(_ candidates: [FileEntry], files project: ProjectFiles) -> [FileEntry] {
        var files: [FileEntry: FileVersions] = [:]
        for entry in candidates {
            if let file = try? FileVersions.load(entry, from: project) { files[entry] = file }
        }
        // The editor's own refusals (a conditional xcconfig setting, a target whose version lives in a file
        // left out, …): a dry run of what sync asks of the file.
        func syncRefuses(_ file: FileVersions, with entries: [FileEntry]) -> Bool {
            do {
                let target = try SyncPlan.target(for: file, entries: entries, version: "1.0.0", builds: SyncBuilds(ios: "1", android: "1"))
                try SyncPlan.checkTargets(file, target: target, entries: entries)
                _ = try file.parsed.edits(for: target)
                return false
            } catch {
                return true
            }
        }
        var kept = candidates.filter { files[$0] != nil }
        // Dropping one entry can uncover another's reference: repeat until nothing changes.
        while true {
            let keptFiles = kept.compactMap { files[$0] }
            let next = kept.filter { entry in
                guard let file = files[entry] else { return false }
                let unit = entry.format.unit
                let values = file.locations
                guard unit.keptWithoutLiteral(file) || (!values.isEmpty && values.contains(where: { $0.indirection == nil })),
                      unit.keptBeside(file, kept: keptFiles), !syncRefuses(file, with: kept) else { return false }
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
