import Foundation
import RelctlCore
import RelctlFiles

// What `current`, `sync`, `init` (and `release`) share: reading the configured version files, planning a
// sync with the configured build-number strategy, and turning file errors into one `path:line: …` line.

extension FileEditError {
    /// `error: path:line: message (hint)` with the path relative to the repository root.
    func failure(root: String) -> CLIFailure {
        var shown = self
        if path.hasPrefix(root + "/") { shown.path = String(path.dropFirst(root.count + 1)) }
        return CLIFailure(message: shown.description)
    }
}

/// A planned sync, with what was decided on the way.
struct VersionSync {
    /// The files as they were before the sync.
    var current: CurrentVersions
    var plan: SyncPlan
    /// Why build numbers were left alone, when they were.
    var note: String?

    /// The build numbers the files hold after the sync (new, or the current highest when untouched).
    /// Nil for a store no file carries a build number for (an iOS-only app has no Android build, even with
    /// `--build N`), so messages never name the other platform.
    var iosBuild: String? { carries(.iosBuild) ? plan.iosBuild ?? current.highestIOSBuild : nil }
    var androidBuild: String? { carries(.androidBuild) ? plan.androidBuild ?? current.highestAndroidBuild : nil }

    private func carries(_ field: VersionField) -> Bool {
        current.files.contains { $0.locations.contains { $0.field == field || $0.field == .build } }
    }
    var changed: [FileChange] { plan.changes.filter(\.isChanged) }
}

extension Workspace {
    var configDisplayPath: String { config.path ?? Config.fileName }

    /// The configured version files; none is an error pointing at `relctl init`.
    func versionFileEntries() throws -> [FileEntry] {
        guard !config.files.isEmpty else {
            if config.path == nil {
                throw CLIFailure(message: "no \(Config.fileName) in \(root), so relctl does not know the app's version files; run 'relctl init' to detect them")
            }
            throw CLIFailure(message: "\(configDisplayPath) lists no version files ('files' is missing or empty); run 'relctl init' in a fresh checkout or add entries by hand (see 'relctl help sync')")
        }
        return config.files
    }

    /// Reads every configured file.
    func readVersions() throws -> CurrentVersions {
        let entries = try versionFileEntries()
        do {
            return try CurrentVersions.read(root: root, entries: entries)
        } catch {
            throw error.failure(root: root)
        }
    }

    /// Plans writing `version` to every configured file, with build numbers from `build` (both stores) or the
    /// configured strategy. Nothing is written; every problem is a `CLIFailure` naming `path:line`.
    ///
    /// With `increment`, a sync that changes no marketing version (and finds no build drift) keeps the build
    /// numbers, so running the same sync twice changes nothing the second time.
    func planVersionSync(version: String, build: String?, environment: [String: String]) throws -> VersionSync {
        let entries = try versionFileEntries()
        let current = try readVersions()
        var ios: String?
        var android: String?
        var note: String?
        if let build {
            ios = build
            android = build
        } else {
            let settings = config.buildNumber
            switch settings.strategy {
            case .keep:
                note = "build numbers kept (buildNumber strategy keep)"
            case .increment:
                let marketingOnly: SyncPlan
                do {
                    marketingOnly = try SyncPlan.make(root: root, entries: entries, version: version)
                } catch {
                    throw error.failure(root: root)
                }
                let buildDrift = current.drift.contains { $0.field != .marketing }
                if current.highestIOSBuild == nil && current.highestAndroidBuild == nil {
                    // A computed build number cannot be incremented: refuse rather than ship a stale build.
                    for file in current.files {
                        for location in file.locations where location.field != .marketing {
                            if case .computed(let expression, let hint)? = location.indirection {
                                throw CLIFailure(message: "\(file.entry.path):\(location.line): \(location.context ?? location.field.rawValue) is a computed value (\(expression)), so relctl cannot increment it (\(hint); or pass --build N, or set buildNumber strategy \"keep\")")
                            }
                        }
                    }
                    note = "no file holds a build number; only the version is written"
                } else if !marketingOnly.changes.contains(where: \.isChanged) && !buildDrift
                            && filesWereLastSynced(to: version, current: current) {
                    note = "every file already holds \(version); build numbers kept (pass --build N to set them)"
                } else {
                    (ios, android) = try nextBuilds(settings, current: current, version: version, environment: environment,
                                                    currentIOS: current.highestIOSBuild, currentAndroid: current.highestAndroidBuild)
                }
            case .fromVersion, .env:
                // These do not depend on the current values; each file checks "greater than current" itself.
                (ios, android) = try nextBuilds(settings, current: current, version: version, environment: environment,
                                                currentIOS: nil, currentAndroid: nil)
                try refuseReusedBuild(settings, version: version, current: current, ios: ios, android: android)
            }
        }
        let plan: SyncPlan
        do {
            plan = try SyncPlan.make(root: root, entries: entries, version: version, iosBuild: ios, androidBuild: android)
        } catch {
            throw error.failure(root: root)
        }
        try checkBuildNumberJumps(plan, current: current, explicitBuild: build != nil)
        return VersionSync(current: current, plan: plan, note: note)
    }

    /// A new version must get a new build number: the stores refuse a second upload with the same one. Without
    /// `prereleaseDigits`, fromVersion gives `1.3.0-beta.1`, `1.3.0-beta.2` and `1.3.0` the same number, so a
    /// sync to another of them that would keep the files' build number is refused (each file would otherwise say
    /// "nothing to write", or move versionName alone) with the fix.
    private func refuseReusedBuild(_ settings: BuildNumberSettings, version: String, current: CurrentVersions,
                                   ios: String?, android: String?) throws {
        guard case .fromVersion(_, let prereleaseDigits) = settings.strategy, prereleaseDigits == 0,
              !filesWereLastSynced(to: version, current: current) else { return }
        // Files keeping only the core cannot tell betas apart; the record of the last sync in this clone can.
        if let record = SyncRecord.read(gitDir: repository.gitDir), record.fingerprint == SyncRecord.fingerprint(current),
           record.version == version { return }
        // The first build number in the files that the new one would merely repeat.
        func same(_ a: String, _ b: String?) -> Bool { b.map { CurrentVersions.normalizeBuild(a) == CurrentVersions.normalizeBuild($0) } ?? false }
        var reused: (path: String, line: Int, value: String)?
        search: for file in current.files {
            for location in file.locations where location.indirection == nil {
                let new: String? = switch location.field {
                case .marketing: nil
                case .iosBuild: ios
                case .androidBuild: android
                case .build: android ?? ios
                }
                if let new, same(location.value, new) { reused = (file.entry.path, location.line, new); break search }
            }
        }
        guard let reused else { return }
        let place = "\(reused.path):\(reused.line)"
        let value = reused.value
        let held = current.files.first(where: \.keepsPrerelease)?.marketing ?? current.files.compactMap(\.marketing).first
            ?? "the version the files hold"
        throw CLIFailure(message: "\(place): buildNumber strategy fromVersion gives \(version) the build number \(value), which the files already hold for \(held); the stores refuse a second upload with the same build number (set \"prereleaseDigits\": 2 under \"buildNumber\" so each beta gets its own number and the final a higher one, e.g. 1030001, 1030002, then 1030099 for 1.3.0; or pass --build N)")
    }

    /// Whether the files already stand for `version` itself, not only for its store-safe core.
    ///
    /// iOS formats keep only the core (`1.4.0` for `1.4.0-beta.2`), so unchanged bytes prove nothing about a
    /// prerelease: a file keeping the whole version (package.json, Gradle, gradle.properties, a json/regex
    /// marketing entry) decides when there is one. Otherwise a prerelease is always a new build (the stores tell
    /// betas apart by build number only), and a final version whose core the files hold is the same unless the
    /// record of the last `relctl sync` in this clone, or a prerelease tag of that core without a tag for the
    /// final version, shows the files were last synced to a prerelease.
    func filesWereLastSynced(to version: String, current: CurrentVersions) -> Bool {
        let whole = current.files.filter(\.keepsPrerelease).compactMap(\.marketing)
        if !whole.isEmpty { return whole.allSatisfy { $0 == version } }
        if VersionParts(version).prerelease != nil { return false }
        if let record = SyncRecord.read(gitDir: repository.gitDir), record.fingerprint == SyncRecord.fingerprint(current) {
            return record.version == version
        }
        // No file holds the version ("only": "build" entries): only the record can tell it is the same.
        if !current.files.contains(where: { $0.marketing != nil }) { return false }
        return !prereleaseTaggedWithoutFinal(version)
    }

    /// A tag of a prerelease of `version`'s core exists, and none of `version` itself.
    func prereleaseTaggedWithoutFinal(_ version: String) -> Bool {
        guard let format = try? TagFormat(config.tagFormat) else { return false }
        let prefix = String(config.tagFormat.prefix { $0 != "{" })
        guard let names = try? repository.tagNames(prefix: prefix) else { return false }
        var prerelease = false
        for name in names {
            guard let tagged = format.version(fromTag: name, scheme: config.versionScheme)?.description else { continue }
            if tagged == version { return false }
            let parts = VersionParts(tagged)
            if parts.core == VersionParts(version).core && parts.prerelease != nil { prerelease = true }
        }
        return prerelease
    }

    private func nextBuilds(_ settings: BuildNumberSettings, current: CurrentVersions, version: String, environment: [String: String],
                            currentIOS: String?, currentAndroid: String?) throws -> (String?, String?) {
        do {
            let result = try BuildNumberPolicy.next(strategy: settings.strategy, shared: settings.shared, currentIOS: currentIOS,
                                                    currentAndroid: currentAndroid, version: version, environment: environment)
            return (result.ios, result.android)
        } catch {
            // Point at the file holding the number the rule is about, else at the buildNumber setting.
            let site = Self.site(of: error, in: current)
            let place = site.map { "\($0.path):\($0.line)" }
                ?? "\(configDisplayPath)\(settings.line.map { ":\($0)" } ?? "")"
            throw CLIFailure(message: "\(place): \(error.message) (buildNumber strategy \(settings.strategyName): \(error.rule); \(error.fix))")
        }
    }

    /// The build-number location a store-rule violation of the strategy is about, if one can be named.
    static func site(of violation: StoreRuleViolation, in current: CurrentVersions) -> (path: String, line: Int)? {
        func first(_ fields: [VersionField], value: String?) -> (String, Int)? {
            for file in current.files {
                for location in file.locations where location.indirection == nil && fields.contains(location.field)
                    && (value == nil || location.value == value) {
                    return (file.entry.path, location.line)
                }
            }
            return nil
        }
        if let value = violation.value {
            for file in current.files {
                for location in file.locations where location.indirection == nil && location.field != .marketing
                    && location.value == value {
                    return (file.entry.path, location.line)
                }
            }
        }
        switch violation.platform {
        case .android?: return first([.androidBuild, .build], value: current.highestAndroidBuild)
        case .ios?: return first([.iosBuild, .build], value: current.highestIOSBuild)
        case nil: return nil
        }
    }
}

/// What the last `relctl sync` in this clone wrote: the whole version and the version values it left in the files
/// (so a record older than the files' current values is ignored). Kept in the git folder, never committed.
struct SyncRecord: Equatable {
    var version: String
    var fingerprint: String

    static func path(gitDir: String) -> String { gitDir + "/relctl-last-sync" }

    /// `path field value` for every literal value, one a line, sorted.
    static func fingerprint(_ current: CurrentVersions) -> String {
        current.files.flatMap { file in
            file.locations.filter { $0.indirection == nil }.map { "\(file.entry.path) \($0.field.rawValue) \($0.value)" }
        }.sorted().joined(separator: "\n")
    }

    static func read(gitDir: String) -> SyncRecord? {
        guard let data = FileManager.default.contents(atPath: path(gitDir: gitDir)) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let newline = text.firstIndex(of: "\n") else { return nil }
        return SyncRecord(version: String(text[..<newline]), fingerprint: String(text[text.index(after: newline)...]))
    }

    /// Best effort: without a record relctl falls back to the tags.
    func write(gitDir: String) {
        try? Data((version + "\n" + fingerprint).utf8).write(to: URL(fileURLWithPath: Self.path(gitDir: gitDir)), options: .atomic)
    }
}

enum VersionFileText {
    /// "marketing", "iOS build", "Android build", "shared build" (pubspec's `+N`, both stores) for a field.
    static func fieldName(_ field: VersionField) -> String {
        switch field {
        case .marketing: return "marketing"
        case .iosBuild: return "iOS build"
        case .androidBuild: return "Android build"
        case .build: return "shared build"
        }
    }

    /// The name of a value inside its file, as a developer would search for it: `ios.buildNumber`, `versionCode`,
    /// `MARKETING_VERSION`, `CFBundleVersion`.
    static func label(_ location: VersionLocation, format: FileFormat) -> String {
        switch format {
        case .expo, .expoJS:
            let context = location.context ?? location.field.rawValue
            return context.hasPrefix("expo.") ? String(context.dropFirst(5)) : context
        case .pbxproj:
            return location.field == .marketing ? "MARKETING_VERSION" : "CURRENT_PROJECT_VERSION"
        case .pubspec:
            return location.field == .marketing ? "version" : "build number"
        case .regex:
            return location.field.rawValue
        default:
            return location.context ?? location.field.rawValue
        }
    }

    /// `version 1.2.0 → 1.3.0, ios.buildNumber 12 → 13` for one planned change.
    static func changes(_ change: FileChange) -> String {
        var parts: [String] = []
        for location in change.locations where location.indirection == nil {
            guard let new = change.target.value(for: location.field),
                  change.edits.contains(where: { $0.range.overlaps(location.range) || $0.range == location.range }) else { continue }
            let part = "\(label(location, format: change.format)) \(location.value) → \(new)"
            if !parts.contains(part) { parts.append(part) }
        }
        if parts.isEmpty && !change.edits.isEmpty {
            // pubspec: `+N` added where there was none.
            if let build = change.target.value(for: .build), change.format == .pubspec { parts.append("build number added: +\(build)") }
        }
        return parts.joined(separator: ", ")
    }

    /// Where the real value of an indirection lives, resolved against the other configured files when possible.
    static func whereItLives(_ location: VersionLocation, in file: FileVersions, among files: [FileVersions], root: String) -> String? {
        func site(_ f: FileVersions, _ fields: [VersionField]) -> String? {
            guard let l = f.locations.first(where: { fields.contains($0.field) && $0.indirection == nil }) else { return nil }
            return "\(f.entry.path):\(l.line) (\(l.value))"
        }
        switch location.indirection {
        case .buildSetting(let name)?:
            if name.hasPrefix("FLUTTER_BUILD_") {
                let fields: [VersionField] = name == "FLUTTER_BUILD_NAME" ? [.marketing] : [.build]
                if let pubspec = files.first(where: { $0.entry.format == .pubspec }), let where_ = site(pubspec, fields) {
                    return "set by flutter build from \(where_)"
                }
                return "set by flutter build from pubspec.yaml, which is not in 'files'"
            }
            let field: VersionField = name == "MARKETING_VERSION" ? .marketing
                : name == "CURRENT_PROJECT_VERSION" ? .iosBuild : location.field
            for other in files where other.entry.path != file.entry.path && [.pbxproj, .xcconfig].contains(other.entry.format) {
                if let where_ = site(other, [field]) { return "build setting \(name), set in \(where_)" }
            }
            return "build setting \(name), set in project.pbxproj or an .xcconfig that is not in 'files'"
        case .gradleProperty(let name)?, .versionCatalog(let name)?:
            let indirection = location.indirection!
            let isCatalog = indirection != .gradleProperty(name)
            let what = isCatalog ? "version catalog libs.versions.\(name)" : "Gradle property \(name)"
            let option = location.field == .marketing ? "versionNameKey" : "versionCodeKey"
            for other in files where other.entry.covers(indirection, inFileAt: file.entry.path) {
                if let where_ = site(other, [location.field]) { return "\(what), set in \(where_)" }
                return "\(what), but \(other.entry.path) has no such line"
            }
            let format: FileFormat = isCatalog ? .versionCatalog : .properties
            let path = isCatalog ? GradleProjectLayout.catalogPath(forBuildFile: file.entry.path, root: root)
                                 : GradleProjectLayout.propertiesPath(forBuildFile: file.entry.path, property: name, root: root)
            if let entry = files.first(where: { $0.entry.format == format && $0.entry.path == path }) {
                let key = isCatalog ? GradleProjectLayout.catalogKey(name, in: path, root: root)?.key ?? name : name
                return "\(what), which the '\(format.rawValue)' entry \(entry.entry.path) does not read (set \"\(option)\": \"\(key)\" there)"
            }
            return "\(what), not covered: 'files' has no '\(format.rawValue)' entry (add one for \(path))"
        case .computed(let expression, let hint)?:
            return "computed (\(expression)); \(hint)"
        case nil:
            return location.overriddenBy.map { fallbackNote($0, file: file, root: root) }
        }
    }

    /// `current`'s note on a literal fallback (`X ?: 12`): what wins over it when set.
    static func fallbackNote(_ primary: Indirection, file: FileVersions, root: String) -> String {
        switch primary {
        case .gradleProperty(let name):
            let path = GradleProjectLayout.propertiesPath(forBuildFile: file.entry.path, property: name, root: root)
            if let line = GradleProjectLayout.propertyLine(name, in: path, root: root) {
                return "fallback; the Gradle property \(name) wins, set in \(path):\(line)"
            }
            return "fallback, used when the Gradle property \(name) is not set (-P\(name)=…)"
        case .computed(let expression, let hint):
            return "fallback, used when \(hint.isEmpty ? expression : hint) is not set"
        case .versionCatalog(let alias):
            return "fallback, used when libs.versions.\(alias) is not set"
        case .buildSetting(let name):
            return "fallback, used when \(name) is not set"
        }
    }
}

extension JSONOutput {
    /// Pretty JSON: 2-space indentation, `"key": value`, a newline at the end.
    func prettyRendered() -> String {
        var out = ""
        renderPretty(into: &out, indent: "")
        return out + "\n"
    }

    private func renderPretty(into out: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += inner
                item.renderPretty(into: &out, indent: inner)
                out += i < items.count - 1 ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            for (i, (key, value)) in members.enumerated() {
                out += inner
                JSONOutput.escape(key, into: &out)
                out += ": "
                value.renderPretty(into: &out, indent: inner)
                out += i < members.count - 1 ? ",\n" : "\n"
            }
            out += indent + "}"
        default:
            out += rendered()
        }
    }
}
