import Foundation
import RelctlCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The I/O side of the editors: read files, plan a sync, write all-or-nothing, detect files for `relctl init`.

/// One file as read from disk, with its editor's findings.
public struct FileVersions: Sendable {
    public var entry: FileEntry
    public var text: String
    public var locations: [VersionLocation]
    /// pbxproj: where each selected target's version lives, per build configuration (empty for other formats).
    package var targets: [XcodeTargetVersion] = []

    public init(entry: FileEntry, text: String, locations: [VersionLocation]) {
        self.entry = entry
        self.text = text
        self.locations = locations
    }

    /// Reads one entry under `root`, with its Xcode targets resolved for a pbxproj.
    public static func load(root: String, entry: FileEntry) throws(FileEditError) -> FileVersions {
        let text = try VersionFiles.readText(root: root, path: entry.path)
        let editor = entry.editor(root: root)
        var file = FileVersions(entry: entry, text: text, locations: try editor.read(text, path: entry.path))
        if entry.format == .pbxproj {
            let read: @Sendable (String) -> String? = { path in try? VersionFiles.readText(root: root, path: path) }
            file.targets = try PbxprojEditor(targets: entry.options.targets, readFile: read).targetVersions(text, path: entry.path)
        }
        return file
    }

    /// Whether the file holds a prerelease whole (`1.3.0-beta.1`) rather than its core: Android and JSON files do,
    /// iOS files do not, and a regex entry does when its pattern admits one.
    public var keepsPrerelease: Bool {
        switch entry.format {
        case .regex: return RegexEditor(pattern: entry.options.pattern ?? "", field: entry.options.field ?? .marketing).admitsPrerelease(text)
        default: return entry.format.marketingPlatform != .ios
        }
    }

    /// The first directly written (non-indirect) value of a field that the app is built with, if any.
    public func value(_ field: VersionField) -> String? {
        usedLocations.first(where: { $0.field == field && $0.indirection == nil })?.value
    }

    /// iOS build: `iosBuild`, or pubspec's shared `build`.
    public var iosBuild: String? { value(.iosBuild) ?? value(.build) }
    /// Android build: `androidBuild`, or pubspec's shared `build`.
    public var androidBuild: String? { value(.androidBuild) ?? value(.build) }
    public var marketing: String? { value(.marketing) }
}

/// Files that disagree about one field.
public struct VersionDrift: Sendable, Hashable, CustomStringConvertible {
    public var field: VersionField
    /// (path, line, value) for every file carrying the field.
    public var values: [Site]

    public struct Site: Sendable, Hashable {
        public var path: String
        public var line: Int
        public var value: String
    }

    public var description: String {
        "\(field.rawValue) differs: " + values.map { "\($0.path):\($0.line) \($0.value)" }.joined(separator: ", ")
    }
}

/// `relctl current`: every file's values plus drift.
public struct CurrentVersions: Sendable {
    public var files: [FileVersions]
    public var drift: [VersionDrift]
    /// The project root the paths are relative to.
    public var root: String = ""

    /// The highest iOS / Android build numbers across files (input for `BuildNumberPolicy.next`).
    public var highestIOSBuild: String? { BuildNumberPolicy.highest(files.compactMap(\.iosBuild)) }
    public var highestAndroidBuild: String? { BuildNumberPolicy.highest(files.compactMap(\.androidBuild)) }

    /// Reads every entry (relative to `root`). Throws the first missing/unparsable/ambiguous file.
    public static func read(root: String, entries: [FileEntry]) throws(FileEditError) -> CurrentVersions {
        var files: [FileVersions] = []
        for entry in entries { files.append(try FileVersions.load(root: root, entry: entry)) }
        return CurrentVersions(files: files, drift: drift(files), root: root)
    }

    /// Drift rules: marketing versions must share one core (`1.3.0-beta.2` and `1.3.0` agree, since iOS
    /// files carry the store-safe core), and files that keep the full version (json, gradle,
    /// properties, a regex admitting prereleases) must agree exactly; iOS builds must agree; Android builds must
    /// agree. The version of every target of a pbxproj counts where it really lives, so an extension whose
    /// Info.plist or .xcconfig (listed or not) holds an older version is drift.
    static func drift(_ files: [FileVersions]) -> [VersionDrift] {
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
        if Set(ios.map { normalizeBuild($0.value) }).count > 1 { result.append(VersionDrift(field: .iosBuild, values: ios)) }
        let android = sites([.androidBuild, .build])
        if Set(android.map { normalizeBuild($0.value) }).count > 1 { result.append(VersionDrift(field: .androidBuild, values: android)) }
        return result
    }

    /// `020903` and `20903` are the same build.
    public static func normalizeBuild(_ s: String) -> String {
        if let n = Int(s) { return String(n) }
        return s
    }
}

/// The planned new content of one file.
public struct FileChange: Sendable {
    /// Path relative to the root, as in the entry.
    public var path: String
    public var absolutePath: String
    public var format: FileFormat
    public var oldText: String
    public var newText: String
    /// What was found before editing.
    public var locations: [VersionLocation]
    public var edits: [TextEdit]
    /// The values this file was asked to hold.
    public var target: VersionTarget

    public var isChanged: Bool { oldText != newText }
}

/// `relctl sync`: every file's new content, computed and validated before anything is written.
public struct SyncPlan: Sendable {
    public var root: String
    public var version: String
    public var iosBuild: String?
    public var androidBuild: String?
    public var changes: [FileChange]

    /// Plans writing `version` (and build numbers, nil = leave untouched) into every entry.
    ///
    /// Per file, the marketing version follows `FileFormat.marketingPlatform` (iOS formats get
    /// `storeMarketingVersion(for:platform: .ios)`, e.g. `1.3.0` for `1.3.0-beta.2`). Build numbers are
    /// written only where the file already has the field (pubspec: `+N` is added if missing). A new
    /// build number must pass the store rules and be greater than the value it replaces.
    /// Indirections must be covered by another entry (`$(MARKETING_VERSION)` by a pbxproj/xcconfig/pubspec
    /// entry; a Gradle property by a properties entry with that key). Any problem throws before writing.
    public static func make(root: String, entries: [FileEntry], version: String,
                            iosBuild: String? = nil, androidBuild: String? = nil) throws(FileEditError) -> SyncPlan {
        let current = try CurrentVersions.read(root: root, entries: entries)
        var changes: [FileChange] = []
        for file in current.files {
            let entry = file.entry
            let path = entry.path
            let target = try self.target(for: file, entries: entries, version: version, iosBuild: iosBuild, androidBuild: androidBuild)
            try checkIndirections(file, target: target, entries: entries, root: root)
            try checkTargets(file, target: target, entries: entries)
            try validateBuilds(file, target: target)
            let edits = try entry.editor(root: root).edits(file.text, path: path, target: target)
            let newText = applying(edits, to: file.text)
            changes.append(FileChange(path: path, absolutePath: VersionFiles.absolute(root: root, path: path), format: entry.format,
                                      oldText: file.text, newText: newText, locations: file.locations, edits: edits, target: target))
        }
        return SyncPlan(root: root, version: version, iosBuild: iosBuild, androidBuild: androidBuild, changes: changes)
    }

    /// The values one file is asked to hold when `entries` are synced to `version` (and build numbers).
    static func target(for file: FileVersions, entries: [FileEntry], version: String,
                       iosBuild: String?, androidBuild: String?) throws(FileEditError) -> VersionTarget {
        let entry = file.entry
        let path = entry.path
        let marketingLine = file.locations.first(where: { $0.field == .marketing })?.line
        var target = VersionTarget()
        if let platform = entry.format.marketingPlatform {
            do {
                target.marketing = try storeMarketingVersion(for: version, platform: platform)
            } catch {
                throw FileEditError(path: path, line: marketingLine, message: error.message, hint: "\(error.rule); \(error.fix)")
            }
        } else {
            target.marketing = version
        }
        let fields = Set(file.locations.map(\.field))
        if entry.format == .expo && !fields.contains(.marketing) && entries.contains(where: { $0.isPackageJSONVersion(beside: path) }) {
            // Expo falls back to package.json's version, which that entry writes.
            target.marketing = nil
        }
        if fields.contains(.iosBuild) { target.iosBuild = iosBuild }
        if fields.contains(.androidBuild) { target.androidBuild = androidBuild }
        if fields.contains(.build) && entry.format == .regex {
            target.iosBuild = iosBuild
            target.androidBuild = androidBuild
        }
        // An .xcconfig or Info.plist may hold one of the two values (the other lives elsewhere); a pbxproj's
        // targets are checked one by one (`checkTargets`).
        if [.xcconfig, .plist].contains(entry.format) && !fields.contains(.marketing) && !fields.isEmpty { target.marketing = nil }
        if entry.format == .pbxproj && !file.targets.isEmpty {
            if !fields.contains(.iosBuild) && file.targets.contains(where: { $0.build.kind != .unset }) { target.iosBuild = iosBuild }
        }
        if let only = entry.options.only, OnlyField.formats.contains(entry.format) {
            if !only.admits(.marketing) { target.marketing = nil }
            if !only.admits(.iosBuild) { target.iosBuild = nil; target.androidBuild = nil }
        }
        if entry.format == .pubspec {
            // One build number for both platforms.
            if iosBuild != nil || androidBuild != nil {
                target.iosBuild = iosBuild
                target.androidBuild = androidBuild
            }
        }
        if entry.format == .json || entry.format == .regex, let field = entry.options.field, field != .marketing {
            target.marketing = nil
            switch field {
            case .iosBuild: target.iosBuild = iosBuild
            case .androidBuild: target.androidBuild = androidBuild
            case .build: target.androidBuild = androidBuild ?? iosBuild
            case .marketing: break
            }
        }
        return target
    }

    /// Plans with build numbers from a strategy (reading the current values first).
    public static func make(root: String, entries: [FileEntry], version: String, strategy: BuildNumberStrategy,
                            sharedCounter: Bool = true, environment: [String: String]) throws(FileEditError) -> SyncPlan {
        let current = try CurrentVersions.read(root: root, entries: entries)
        let builds: (ios: String?, android: String?)
        do {
            builds = try BuildNumberPolicy.next(strategy: strategy, shared: sharedCounter, currentIOS: current.highestIOSBuild,
                                                currentAndroid: current.highestAndroidBuild, version: version, environment: environment)
        } catch {
            throw FileEditError(path: ".relctl.json", line: nil, message: error.message, hint: "\(error.rule); \(error.fix)")
        }
        return try make(root: root, entries: entries, version: version, iosBuild: builds.ios, androidBuild: builds.android)
    }

    static func checkIndirections(_ file: FileVersions, target: VersionTarget, entries: [FileEntry], root: String) throws(FileEditError) {
        let path = file.entry.path
        for location in file.locations where target.value(for: location.field) != nil {
            let keyOption = location.field == .marketing ? "versionNameKey" : "versionCodeKey"
            let label = location.context ?? location.field.rawValue
            if let indirection = location.indirection, entries.contains(where: { $0.covers(indirection, inFileAt: path) }) { continue }
            switch location.indirection {
            case .buildSetting(let name)?:
                throw FileEditError(path: path, line: location.line,
                                    message: "\(label) is $(\(name)); the real value lives in the build setting \(name)",
                                    hint: "add the project.pbxproj (or the .xcconfig that sets \(name)) as a files entry")
            case .gradleProperty(let name)?:
                let properties = GradleProjectLayout.propertiesPath(forBuildFile: path, property: name, root: root)
                throw FileEditError(path: path, line: location.line,
                                    message: "\(label) reads the Gradle property \(name), which no files entry covers",
                                    hint: "add {\"path\": \"\(properties)\", \"format\": \"properties\", \"\(keyOption)\": \"\(name)\"}")
            case .versionCatalog(let alias)?:
                let catalog = GradleProjectLayout.catalogPath(forBuildFile: path, root: root)
                let key = GradleProjectLayout.catalogKey(alias, in: catalog, root: root)
                throw FileEditError(path: path, line: location.line,
                                    message: "\(label) reads libs.versions.\(alias) from the version catalog, which no files entry covers",
                                    hint: "add {\"path\": \"\(catalog)\", \"format\": \"version-catalog\", \"\(keyOption)\": \"\(key?.key ?? alias)\"}")
            case .computed?, nil:
                break // literals are edited; computed values are refused by the editor
            }
            // A literal fallback behind a Gradle property that gradle.properties sets: the property wins, so writing
            // only the fallback would change nothing the build uses.
            if let primary = location.overriddenBy, case .gradleProperty(let name) = primary,
               !entries.contains(where: { $0.covers(primary, inFileAt: path) }) {
                let properties = GradleProjectLayout.propertiesPath(forBuildFile: path, property: name, root: root)
                if let line = GradleProjectLayout.propertyLine(name, in: properties, root: root) {
                    throw FileEditError(path: path, line: location.line,
                                        message: "\(label) is \(location.value) only when the Gradle property \(name) is not set, and \(properties):\(line) sets it",
                                        hint: "add {\"path\": \"\(properties)\", \"format\": \"properties\", \"\(keyOption)\": \"\(name)\"} so both are written")
                }
            }
        }
    }

    /// Every selected target of a pbxproj gets the version where it really lives: this file (the editor writes
    /// it), an .xcconfig or Info.plist that an entry covers, or pubspec.yaml for `$(FLUTTER_BUILD_NAME)`.
    /// A value in a file no entry covers stops the sync, naming the file to add.
    static func checkTargets(_ file: FileVersions, target: VersionTarget, entries: [FileEntry]) throws(FileEditError) {
        for version in file.targets {
            for field in [VersionField.marketing, .iosBuild] where target.value(for: field) != nil {
                let source = version.source(field)
                let what = field == .marketing ? "marketing version" : "build number"
                switch source.kind {
                case .pbxproj, .unset, .unresolved:
                    continue // the project editor writes it, or refuses with the reason
                case .flutter:
                    if !entries.contains(where: { $0.format == .pubspec }) {
                        throw FileEditError(path: file.entry.path, line: version.line,
                                            message: "the \(what) of target \(version.target) is $(\(source.setting)), which flutter build sets from pubspec.yaml; no files entry covers it",
                                            hint: "add {\"path\": \"pubspec.yaml\", \"format\": \"pubspec\"}")
                    }
                case .xcconfig, .plist:
                    guard let path = source.path else { continue }
                    let format: FileFormat = source.kind == .plist ? .plist : .xcconfig
                    if entries.contains(where: { $0.path == path && $0.format == format && ($0.options.only?.admits(field) ?? true) }) { continue }
                    let included = source.includedFrom.isEmpty ? "" : " (included from \(source.includedFrom.joined(separator: " ← ")))"
                    throw FileEditError(path: path, line: source.line,
                                        message: "holds \(source.setting) \(source.value ?? "") for target \(version.target) of \(file.entry.path)\(included), but no files entry writes it",
                                        hint: "add {\"path\": \"\(path)\", \"format\": \"\(format.rawValue)\"} to 'files', or leave the target out with \"targets\"")
                }
            }
        }
    }

    static func validateBuilds(_ file: FileVersions, target: VersionTarget) throws(FileEditError) {
        // A pbxproj setting no target reads is written too, but it is no build the stores have seen.
        for location in file.usedLocations where location.indirection == nil {
            guard let new = target.value(for: location.field), location.field != .marketing else { continue }
            let changed = CurrentVersions.normalizeBuild(new) != CurrentVersions.normalizeBuild(location.value)
            do {
                switch location.field {
                case .iosBuild: try StoreRules.validateIOSBuildNumber(new, current: changed ? location.value : nil)
                case .androidBuild: try StoreRules.validateAndroidVersionCode(new, current: changed ? location.value : nil)
                case .build where file.entry.format == .regex: try StoreRules.validateIOSBuildNumber(new, current: changed ? location.value : nil)
                case .build: try StoreRules.validatePubspecBuildNumber(new, current: changed ? location.value : nil)
                case .marketing: break
                }
            } catch {
                throw FileEditError(path: file.entry.path, line: location.line, message: error.message, hint: "\(error.rule); \(error.fix)")
            }
        }
    }

    /// Writes every changed file all-or-nothing (see `TransactionalWriter`).
    public func write() throws(FileEditError) {
        try TransactionalWriter.write(changes.filter(\.isChanged).map {
            FileWrite(path: $0.absolutePath, oldBytes: Array($0.oldText.utf8), newBytes: Array($0.newText.utf8), displayPath: $0.path)
        })
    }
}

public enum VersionFiles {
    static func absolute(root: String, path: String) -> String { ProjectFiles.absolute(root: root, path: path) }

    /// Reads a UTF-8 text file; errors name the path relative to the root.
    public static func readText(root: String, path: String) throws(FileEditError) -> String {
        try TextFile.read(absolutePath: absolute(root: root, path: path), shownAs: path)
    }

    /// `relctl init`: the version files of a mobile project under `root`, with literal versions.
    /// Looks for app.config.json/app.json (with an `expo` key), app.config.ts/js (literal versions only),
    /// package.json, pubspec.yaml (or a Flutter app's up to two folders down: `FlutterAppDetection`), ios/*.xcodeproj and *.xcodeproj, ios/*/Info.plist with literal values (not of
    /// test bundles: a folder ending in Tests, or CFBundlePackageType BNDL),
    /// the Android app modules with their gradle.properties keys, version catalog entries and version.properties
    /// (see `detectAndroidFiles`), and
    /// *.xcconfig files setting MARKETING_VERSION (up to three folders deep, skipping Pods, node_modules, build, .git).
    ///
    /// A file is added only when `relctl sync` can write it: it holds a literal, and every other version value
    /// in it is a reference another detected entry covers (`$(MARKETING_VERSION)` by the pbxproj or an
    /// .xcconfig, `$(FLUTTER_BUILD_NAME)` by pubspec.yaml, a Gradle property by gradle.properties). A file with
    /// a computed value (`version: pkg.version`, a script variable) is left out, so init never writes a config
    /// its own sync refuses; so is one whose editor refuses a sync (a conditional `MARKETING_VERSION[sdk=…]` setting).
    public static func detectFiles(root: String) -> [FileEntry] { detect(root: root).entries }

    /// `detectFiles`, with a line for each file or target left out as another product's.
    public static func detect(root: String) -> (entries: [FileEntry], notes: [String]) {
        let fm = FileManager.default
        var found: [FileEntry] = []
        var notes: [String] = []
        func exists(_ p: String) -> Bool { fm.fileExists(atPath: absolute(root: root, path: p)) }
        func text(_ p: String) -> String? { try? readText(root: root, path: p) }
        func literal(_ entry: FileEntry) -> [VersionLocation]? {
            guard let t = text(entry.path), let locations = try? entry.editor.read(t, path: entry.path) else { return nil }
            return locations.contains(where: { $0.indirection == nil }) ? locations : nil
        }
        func add(_ entry: FileEntry) { if literal(entry) != nil { found.append(entry) } }
        func children(_ p: String) -> [String] {
            ((try? fm.contentsOfDirectory(atPath: absolute(root: root, path: p))) ?? []).sorted()
        }

        if exists("app.config.json") { add(FileEntry(path: "app.config.json", format: .expo)) }
        else if exists("app.json"), let t = text("app.json"), let node = try? JSONDocument.parse(t, allowJSON5: true), node.member("expo") != nil {
            add(FileEntry(path: "app.json", format: .expo))
        }
        for js in ["app.config.ts", "app.config.js"] where exists(js) { add(FileEntry(path: js, format: .expoJS)); break }
        if exists("package.json") { add(FileEntry(path: "package.json", format: .json)) }
        // The Flutter app: pubspec.yaml at the root, else the app's in a monorepo folder (`app/pubspec.yaml`).
        var pubspec: String? = exists("pubspec.yaml") ? "pubspec.yaml" : nil
        if pubspec.flatMap({ literal(FileEntry(path: $0, format: .pubspec)) }) == nil {
            let app = FlutterAppDetection.find(root: root)
            pubspec = app.path ?? pubspec
            if let note = app.note { notes.append(note) }
        }
        if let pubspec {
            // A zero-padded build number (`+002702`) stays padded (`+002703`).
            let padded = text(pubspec).flatMap { try? PubspecEditor().read($0, path: pubspec) }?
                .first(where: { $0.field == .build }).map { $0.value.count > 1 && $0.value.hasPrefix("0") } ?? false
            add(FileEntry(path: pubspec, format: .pubspec, options: FileOptions(padBuildNumber: padded)))
        }
        let reference = found.first(where: { $0.format == .expo || $0.format == .pubspec })
            .flatMap { entry in literal(entry)?.first(where: { $0.field == .marketing && $0.indirection == nil })?.value }
        let apple = AppleVersionFileDetection(root: root).detect(reference: reference)
        found.append(contentsOf: apple.entries)
        notes.append(contentsOf: apple.notes)
        found += detectAndroidFiles(root: root)
        let gradleVersion = found.first(where: { $0.format == .gradle || $0.format == .properties })
            .flatMap { entry in literal(entry)?.first(where: { $0.field == .marketing && $0.indirection == nil })?.value }
        found = OtherProductFilter.filter(found, root: root, appVersion: reference ?? apple.appVersion ?? gradleVersion, notes: &notes)
        return (writable(found, root: root), notes)
    }

    /// An Info.plist of a loadable bundle (`<key>CFBundlePackageType</key><string>BNDL</string>`), such as a test bundle.
    static func isBundlePlist(_ text: String) -> Bool {
        guard let key = text.range(of: "<key>CFBundlePackageType</key>") else { return false }
        let rest = text[key.upperBound...].drop { $0.isWhitespace }
        return rest.hasPrefix("<string>BNDL</string>")
    }

    /// The entries whose every version value `relctl sync` can write, given the other entries (see `detectFiles`).
    static func writable(_ candidates: [FileEntry], root: String) -> [FileEntry] {
        var files: [FileEntry: FileVersions] = [:]
        for entry in candidates {
            if let file = try? FileVersions.load(root: root, entry: entry) { files[entry] = file }
        }
        var locations: [FileEntry: [VersionLocation]] = [:]
        for (entry, file) in files { locations[entry] = file.locations }
        // The editor's own refusals (a conditional xcconfig setting, a target whose version lives in a file
        // left out, …): a dry run of what sync asks of the file.
        func syncRefuses(_ entry: FileEntry, _ values: [VersionLocation], with entries: [FileEntry]) -> Bool {
            guard let file = files[entry] else { return true }
            do {
                let target = try SyncPlan.target(for: file, entries: entries, version: "1.0.0", iosBuild: "1", androidBuild: "1")
                try SyncPlan.checkTargets(file, target: target, entries: entries)
                _ = try entry.editor(root: root).edits(file.text, path: entry.path, target: target)
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
