import RelctlCore
import RelctlFiles

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
    static func label(_ location: VersionLocation, format: FileFormat) -> String { format.unit.label(location) }

    /// `version 1.2.0 → 1.3.0, ios.buildNumber 12 → 13` for one planned change.
    static func changes(_ change: FileChange) -> String {
        var parts: [String] = []
        for location in change.locations where location.indirection == nil {
            guard let asked = change.target.value(for: location.field),
                  let edit = change.edits.first(where: { $0.range.overlaps(location.range) || $0.range == location.range }) else { continue }
            // The value as written, never the one asked for: a pattern admitting only X.Y.Z gets the core of a
            // prerelease, an entry of four parts `1.19.0.0`.
            let new = edit.range == location.range ? writtenValue(edit.replacement, asked: asked) : asked
            let part = "\(label(location, format: change.format)) \(location.value) → \(new)"
            if !parts.contains(part) { parts.append(part) }
        }
        if parts.isEmpty && !change.edits.isEmpty {
            // pubspec: `+N` added where there was none.
            if let build = change.target.value(for: .build), change.format == .pubspec { parts.append("build number added: +\(build)") }
        }
        return parts.joined(separator: ", ")
    }

    /// The marketing values `change` writes, as written.
    static func writtenMarketingValues(_ change: FileChange) -> [String] {
        var values: [String] = []
        for location in change.locations where location.indirection == nil && location.field == .marketing {
            guard let asked = change.target.value(for: .marketing),
                  let edit = change.edits.first(where: { $0.range == location.range }) else { continue }
            let value = writtenValue(edit.replacement, asked: asked)
            if !values.contains(value) { values.append(value) }
        }
        return values
    }

    /// The value an edit writes, its quotes taken off; `asked` when the replacement is not a plain value.
    static func writtenValue(_ replacement: String, asked: String) -> String {
        var v = Substring(replacement)
        if v.count >= 2, let first = v.first, first == v.last, first == "\"" || first == "'" { v = v.dropFirst().dropLast() }
        guard !v.isEmpty, !v.contains(where: { $0 == "\"" || $0 == "'" || $0 == "\\" || $0 == "<" || $0 == "&" || $0.isNewline }) else { return asked }
        return String(v)
    }

    /// Where the real value of an indirection lives, resolved against the other configured files when possible.
    static func whereItLives(_ location: VersionLocation, in file: FileVersions, among files: [FileVersions], project: ProjectFiles) -> String? {
        func site(_ f: FileVersions, _ fields: [VersionField]) -> String? {
            guard let l = f.locations.first(where: { fields.contains($0.field) && $0.indirection == nil }) else { return nil }
            return "\(f.entry.path):\(l.line) (\(l.value))"
        }
        switch location.indirection {
        case .buildSetting(let name)?:
            if name.hasPrefix("FLUTTER_BUILD_") {
                let fields: [VersionField] = name == "FLUTTER_BUILD_NAME" ? [.marketing] : [.build]
                if let pubspec = files.first(where: { $0.entry.format.unit.buildSettings == .flutter }), let where_ = site(pubspec, fields) {
                    return "set by flutter build from \(where_)"
                }
                return "set by flutter build from pubspec.yaml, which is not in 'files'"
            }
            let field: VersionField = name == "MARKETING_VERSION" ? .marketing
                : name == "CURRENT_PROJECT_VERSION" ? .iosBuild : location.field
            for other in files where other.entry.path != file.entry.path && other.entry.format.unit.buildSettings == .sets {
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
            let path = isCatalog ? GradleProjectLayout.catalogPath(forBuildFile: file.entry.path, files: project)
                                 : GradleProjectLayout.propertiesPath(forBuildFile: file.entry.path, property: name, files: project)
            if let entry = files.first(where: { $0.entry.format == format && $0.entry.path == path }) {
                let key = isCatalog ? GradleProjectLayout.catalogKey(name, in: path, files: project)?.key ?? name : name
                return "\(what), which the '\(format.rawValue)' entry \(entry.entry.path) does not read (set \"\(option)\": \"\(key)\" there)"
            }
            return "\(what), not covered: 'files' has no '\(format.rawValue)' entry (add one for \(path))"
        case .packageJSON(let path)?:
            if let package = files.first(where: { $0.entry.covers(location.indirection!, inFileAt: file.entry.path) }),
               let where_ = site(package, [.marketing]) {
                return "version of \(path), set in \(where_)"
            }
            return "version of \(path), which is not in 'files' (add {\"path\": \"\(path)\", \"format\": \"json\"})"
        case .computed(let expression, let hint)?:
            return "computed (\(expression)); \(hint)"
        case nil:
            return location.overriddenBy.map { fallbackNote($0, file: file, project: project) }
        }
    }

    /// `current`'s note on a literal fallback (`X ?: 12`): what wins over it when set.
    static func fallbackNote(_ primary: Indirection, file: FileVersions, project: ProjectFiles) -> String {
        switch primary {
        case .gradleProperty(let name):
            let path = GradleProjectLayout.propertiesPath(forBuildFile: file.entry.path, property: name, files: project)
            if let line = GradleProjectLayout.propertyLine(name, in: path, files: project) {
                return "fallback; the Gradle property \(name) wins, set in \(path):\(line)"
            }
            return "fallback, used when the Gradle property \(name) is not set (-P\(name)=…)"
        case .computed(let expression, let hint):
            return "fallback, used when \(hint.isEmpty ? expression : hint) is not set"
        case .versionCatalog(let alias):
            return "fallback, used when libs.versions.\(alias) is not set"
        case .buildSetting(let name):
            return "fallback, used when \(name) is not set"
        case .packageJSON(let path):
            return "fallback, used when \(path) holds no version"
        }
    }
}
