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
    /// `excluding`: `path:line` of values left out of the comparison (`notReadByApp`).
    static func find(in files: [FileVersions], excluding: Set<String> = []) -> [VersionDrift] {
        func sites(_ fields: [VersionField]) -> [VersionDrift.Site] {
            var result: [VersionDrift.Site] = []
            var seen = excluding
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
        // An iOS app and a Mac app (application targets of different platforms) are two apps in App Store Connect,
        // each with its own build numbers: compared only within the platform, as Android builds within the app.
        let platform = applePlatforms(files)
        var iosGroups: [String: [VersionDrift.Site]] = [:]
        var iosOrder: [String] = []
        for site in ios {
            let key = platform["\(site.path):\(site.line)"] ?? ""
            if iosGroups[key] == nil { iosOrder.append(key) }
            iosGroups[key, default: []].append(site)
        }
        let iosDrifting = iosOrder.filter { Set(iosGroups[$0]!.map { CurrentVersions.normalizeBuild($0.value) }).count > 1 }
        if !iosDrifting.isEmpty { result.append(VersionDrift(field: .iosBuild, values: iosDrifting.flatMap { iosGroups[$0]! })) }
        let android = sites([.androidBuild, .build])
        // Each Android app (applicationId, or flavour with its own versionCode) has its own versionCode: compared
        // only within the app.
        let app = androidApplications(files)
        var groups: [String: [VersionDrift.Site]] = [:]
        var order: [String] = []
        for site in android {
            let key = app[site.path] ?? ""
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(site)
        }
        let drifting = order.filter { Set(groups[$0]!.map { CurrentVersions.normalizeBuild($0.value) }).count > 1 }
        if !drifting.isEmpty { result.append(VersionDrift(field: .androidBuild, values: drifting.flatMap { groups[$0]! })) }
        return result
    }

    /// The Apple platform (`macOS`, or "" for iOS and the rest) of each `path:line` holding a build number that a
    /// target of a listed Xcode project reads, when the projects' application targets are for more than one of them
    /// (an iOS app and a Mac app). Empty otherwise: every iOS build is compared.
    static func applePlatforms(_ files: [FileVersions]) -> [String: String] {
        func group(_ platform: String?) -> String { platform == "macosx" ? "macOS" : "" }
        let targets = files.flatMap(\.targets)
        guard Set(targets.filter(\.isApplication).map { group($0.platform) }).count > 1 else { return [:] }
        var result: [String: String] = [:]
        for target in targets {
            let source = target.build
            guard let path = source.path, let line = source.line else { continue }
            result["\(path):\(line)"] = group(target.platform)
        }
        return result
    }

    /// The Android app each file's versionCode belongs to, when the files hold more than one: a build script's
    /// applicationId (a flavour entry: its own), and a gradle.properties / version catalog file's, when the scripts
    /// reading it are all of one app. Empty with one app or none: every Android build is compared.
    static func androidApplications(_ files: [FileVersions]) -> [String: String] {
        var ids: [String: String] = [:]
        for file in files where file.entry.format == .gradle {
            if let flavor = file.entry.options.flavor {
                ids[file.entry.path + "#" + flavor] = "flavor \(flavor) of \(file.entry.path)"
            } else if let id = AndroidProjects.applicationId(file.text) {
                ids[file.entry.path] = id
            }
        }
        guard Set(ids.values).count > 1 else { return [:] }
        var result: [String: String] = [:]
        for file in files where file.entry.format == .gradle {
            // A flavour entry shares its path with the app's: its sites are told apart by line in `find`'s caller.
            if let id = ids[file.entry.path], file.entry.options.flavor == nil { result[file.entry.path] = id }
        }
        for file in files where file.entry.format != .gradle {
            let readers = Set(files.filter { GradleFormat.reads($0, from: file.entry) && $0.entry.options.flavor == nil }.compactMap { ids[$0.entry.path] })
            if readers.count == 1 { result[file.entry.path] = readers.first! }
        }
        return result
    }
}

extension VersionDrift {
    /// `path:line` of the marketing values the application is not built with, when a listed Xcode project has an
    /// application target: the ones only extension, widget or watch targets read (an extension the team left at
    /// Xcode's `1.0` beside an app at `2.3.0`: sync aligns it, but it is not a version the stores have), and the
    /// literals of listed `.xcconfig` files and Info.plists that no target of a listed project reads at all (a
    /// setting a target overrides, a plist no target names). What `adopt` and init's "files disagree" judge is the
    /// application target's resolved version.
    package static func notReadByApp(_ files: [FileVersions]) -> Set<String> {
        var readByApp: [String: Bool] = [:]
        var hasApplication = false
        var resolved = false
        for file in files {
            for target in file.targets {
                resolved = true
                hasApplication = hasApplication || target.isApplication
                for source in [target.marketing, target.build] {
                    guard [.pbxproj, .plist, .xcconfig].contains(source.kind), let path = source.path, let line = source.line else { continue }
                    let key = "\(path):\(line)"
                    readByApp[key] = (readByApp[key] ?? false) || target.isApplication
                }
            }
        }
        guard resolved, hasApplication else { return [] }
        var result = Set(readByApp.filter { !$0.value }.keys)
        // Literals of the listed xcconfig files and plists no target reads.
        for file in files where file.entry.format == .xcconfig || file.entry.format == .plist {
            for location in file.usedLocations where location.indirection == nil {
                let key = "\(file.entry.path):\(location.line)"
                if readByApp[key] == nil { result.insert(key) }
            }
        }
        return result
    }
}

extension CurrentVersions {
    /// The drift among the values the application is built with (`VersionDrift.notReadByApp` left out): what init's
    /// "files disagree" warning judges. `drift` (what `current` reports and `sync` repairs) still counts them all.
    package var applicationDrift: [VersionDrift] {
        let excluded = VersionDrift.notReadByApp(files)
        return excluded.isEmpty ? drift : VersionDrift.find(in: files, excluding: excluded)
    }
}
