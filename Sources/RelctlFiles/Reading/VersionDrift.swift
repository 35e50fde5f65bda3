import RelctlCore

/// Files that disagree about one field.
package struct VersionDrift: Sendable, Hashable, CustomStringConvertible {
    package var field: VersionField
    /// (path, line, value) for every file carrying the field.
    package var values: [Site]

    package struct Site: Sendable, Hashable {
        package var path: String
        package var line: Int
        package var value: String
    }

    package var description: String {
        "\(field.rawValue) differs: " + values.map { "\($0.path):\($0.line) \($0.value)" }.joined(separator: ", ")
    }
}

extension VersionDrift {
    /// Drift rules: marketing versions must share one core (`1.3.0-beta.2` and `1.3.0` agree, since iOS
    /// files carry the store-safe core), and files that keep the full version (json, gradle,
    /// properties, a regex admitting prereleases) must agree exactly; iOS builds must agree; Android builds must
    /// agree. The version of every target of a pbxproj counts where it really lives, so an extension whose
    /// Info.plist or .xcconfig (listed or not) holds an older version is drift.
    static func find(in files: [FileVersions]) -> [VersionDrift] {
        func sites(_ fields: [VersionField]) -> [VersionDrift.Site] {
            var result: [VersionDrift.Site] = []
            var seen = Set<String>()
            func add(_ path: String, _ line: Int, _ value: String) {
                if seen.insert("\(path):\(line)").inserted { result.append(VersionDrift.Site(path: path, line: line, value: value)) }
            }
            for f in files {
                for l in f.usedLocations where fields.contains(l.field) && l.indirection == nil { add(f.entry.path, l.line, l.value) }
            }
            for f in files {
                for target in f.targets {
                    for field in fields where field != .build && f.entry.options.only?.admits(field) ?? true {
                        let source = target.source(field == .androidBuild ? .iosBuild : field)
                        guard field != .androidBuild, [.plist, .xcconfig, .pbxproj].contains(source.kind),
                              let path = source.path, let line = source.line, let value = source.value else { continue }
                        add(path, line, value)
                    }
                }
            }
            return result
        }
        var result: [VersionDrift] = []
        let marketing = sites([.marketing])
        let full = files.filter(\.keepsPrerelease)
        let fullValues = Set(full.flatMap { $0.usedLocations.filter { $0.field == .marketing && $0.indirection == nil }.map(\.value) })
        if Set(marketing.map { VersionParts($0.value).core }).count > 1 || fullValues.count > 1 {
            result.append(VersionDrift(field: .marketing, values: marketing))
        }
        let ios = sites([.iosBuild, .build])
        if Set(ios.map { CurrentVersions.normalizeBuild($0.value) }).count > 1 { result.append(VersionDrift(field: .iosBuild, values: ios)) }
        let android = sites([.androidBuild, .build])
        if Set(android.map { CurrentVersions.normalizeBuild($0.value) }).count > 1 { result.append(VersionDrift(field: .androidBuild, values: android)) }
        return result
    }
}
