#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore

/// `relctl init` on the Android side: the app modules of every Gradle project in the repository and the files their
/// versions really live in.
struct AndroidFileDetection {
    let files: ProjectFiles

    /// Folders never searched for Gradle projects or modules.
    static let skippedFolders: Set<String> = ["node_modules", "Pods", "build", ".git", ".gradle", ".build", "DerivedData",
                                              "gradle", "buildSrc", "build-logic", "iosApp", "ios", ".idea"]
    /// Module folder names that hold the app itself, most likely first: the primary module others are paired with.
    static let appModuleNames = ["app", "androidApp", "composeApp", "android", "mobile", "application"]

    /// The Android version files under `root`:
    /// - every module build script (`build.gradle` or `build.gradle.kts`) of the Gradle projects found at the root,
    ///   in `android/`, and in any folder up to two levels down holding `settings.gradle(.kts)`, in the project folder
    ///   or up to two levels below it — so a native app with `app/` at the root, a Kotlin Multiplatform app
    ///   (`composeApp/`, `androidApp/`, `app/android/`) and a React Native `android/app/` are all found — that sets `versionCode` or `versionName` in `android { defaultConfig { … } }`
    ///   (however `android` is reached) or for the variant outputs in `androidComponents`;
    /// - the `gradle.properties` keys those scripts read (the module's own file when it holds the key, else the
    ///   project's), a literal fallback's property included;
    /// - the `[versions]` keys of `gradle/libs.versions.toml` they read through `libs.versions.<alias>.get()`;
    /// - a `version.properties` a script names (or, when no module's values can be written, one at the root of a
    ///   Gradle project or in a module folder), with the keys it really holds (`VERSION_NAME`/`VERSION_CODE`,
    ///   `versionName`/`versionCode`, …).
    /// Modules beside the primary app module (a Wear OS app, a second flavour module) are kept only when their
    /// values agree with it, so `init` never writes a config whose `current` reports drift.
    func detect() -> [FileEntry] {
        var notes: [String] = []
        return detect(notes: &notes)
    }

    /// `detect()`, with a note for each app module whose version is computed where relctl cannot write it, when
    /// no module's version can be written (so init's "no version files found" says where the version comes from).
    func detect(notes: inout [String]) -> [FileEntry] {
        let files = self.files
        func isFolder(_ p: String) -> Bool { files.isFolder(p) }
        func exists(_ p: String) -> Bool { files.exists(p) }
        func children(_ p: String) -> [String] {
            files.children(p).filter { !$0.hasPrefix(".") && !Self.skippedFolders.contains($0) }
        }
        let join = GradleProjectLayout.join

        // Gradle project folders: the root, android/, and any folder two levels down with a settings script.
        var projects = ["", "android"].filter(isFolder)
        for child in children("") where isFolder(child) {
            for folder in [child] + children(child).map({ join(child, $0) }) where isFolder(folder) && !projects.contains(folder) {
                if GradleProjectLayout.settingsFiles.contains(where: { exists(join(folder, $0)) }) { projects.append(folder) }
            }
        }
        // Module scripts: the project's own, and its subfolders' up to two levels down (`app/`, `app/android/`).
        var scripts: [String] = []
        for project in projects {
            let level1 = children(project).map { join(project, $0) }.filter(isFolder)
            let level2 = level1.flatMap { folder in children(folder).map { join(folder, $0) }.filter(isFolder) }
            for module in [project] + level1 + level2 {
                for name in ["build.gradle.kts", "build.gradle"] where exists(join(module, name)) && !scripts.contains(join(module, name)) {
                    scripts.append(join(module, name))
                    break
                }
            }
        }

        struct Module {
            var entry: FileEntry
            var text: String
            var locations: [VersionLocation]
            /// The files this module's values live in, besides the script.
            var companions: [FileEntry]
        }
        var modules: [Module] = []
        var versionPropertiesFiles: [String] = []
        for script in scripts {
            let entry = FileEntry(path: script, format: .gradle)
            guard let text = files.readableText(script) else { continue }
            // A script naming version.properties: its values probably come from there. A path the script, or a
            // script it applies (`apply from: '../versioning.gradle'`), names is taken first.
            for candidate in namedVersionProperties(script: script, text: text)
            where exists(candidate) && !versionPropertiesFiles.contains(candidate) && versionPropertiesEntry(candidate) != nil {
                versionPropertiesFiles.append(candidate)
                break
            }
            for candidate in [join(GradleProjectLayout.folder(of: script), "version.properties"),
                              join(GradleProjectLayout.projectFolder(ofBuildFile: script, files: files), "version.properties"),
                              "version.properties"]
            where text.contains("version.properties") && exists(candidate) && !versionPropertiesFiles.contains(candidate) {
                versionPropertiesFiles.append(candidate)
                break
            }
            guard let locations = try? entry.editor.read(text, path: script), !locations.isEmpty else { continue }
            let companions = companions(ofScript: script, locations: locations)
            modules.append(Module(entry: entry, text: text, locations: locations, companions: companions))
        }

        // Each module with its companions, as sync would see it; the primary app module first.
        func rank(_ m: Module) -> Int {
            let name = GradleProjectLayout.folder(of: m.entry.path).split(separator: "/").last.map(String.init) ?? ""
            return Self.appModuleNames.firstIndex(of: name) ?? Self.appModuleNames.count
        }
        let usable = modules.map { ($0, WritableEntries.filter([$0.entry] + $0.companions, files: files)) }
            .filter { $0.1.contains($0.0.entry) }
            .sorted { rank($0.0) < rank($1.0) }
        var found: [FileEntry] = []
        var primaryValues: [VersionField: String]? = nil
        for (_, entries) in usable {
            guard let current = try? CurrentVersions.read(entries, from: files), current.drift.isEmpty else { continue }
            var values: [VersionField: String] = [:]
            for field in [VersionField.marketing, .androidBuild] {
                if let value = current.files.lazy.compactMap({ $0.value(field) }).first { values[field] = value }
            }
            if let primary = primaryValues {
                // A second app module is kept only when it agrees with the first.
                guard values.allSatisfy({ primary[$0.key] == nil || primary[$0.key] == $0.value }) else { continue }
            } else {
                primaryValues = values
            }
            for entry in entries where !found.contains(entry) {
                if let i = found.firstIndex(where: { $0.path == entry.path }) {
                    // Two modules reading one gradle.properties or catalog: one entry with the keys of both.
                    found[i].options.versionNameKey = found[i].options.versionNameKey ?? entry.options.versionNameKey
                    found[i].options.versionCodeKey = found[i].options.versionCodeKey ?? entry.options.versionCodeKey
                } else {
                    found.append(entry)
                }
            }
        }
        if found.isEmpty {
            // No module whose values sync can write (they are computed, e.g. by a convention plugin): a
            // version.properties at the root of a Gradle project or in a module folder is where they live.
            let folders = projects + scripts.map(GradleProjectLayout.folder(of:))
            for folder in folders where exists(join(folder, "version.properties")) && !versionPropertiesFiles.contains(join(folder, "version.properties")) {
                versionPropertiesFiles.append(join(folder, "version.properties"))
            }
        }
        if found.isEmpty && versionPropertiesFiles.isEmpty {
            for module in modules {
                for location in module.locations where location.field == .marketing {
                    guard case .computed(let expression, _)? = location.indirection else { continue }
                    notes.append("\(module.entry.path):\(location.line): versionName is \(expression), computed where relctl cannot write it; name the file that holds the version with a regex entry in 'files' (a pattern with a (?<version>…) group matching its line; see the regex format in the README)")
                }
            }
        }
        for path in versionPropertiesFiles {
            guard let entry = versionPropertiesEntry(path) else { continue }
            // A version.properties that disagrees with the scripts that do not read it is something else.
            if let current = try? CurrentVersions.read(found + [entry], from: files), !current.drift.isEmpty { continue }
            found.append(entry)
        }
        return found
    }

    /// The root-relative paths of the `version.properties` files `script` (text `text`) or a script it applies with
    /// `apply from:` names in a string literal: `file("$rootDir/app/version/version.properties")` (the Gradle
    /// project's folder), `rootProject.file("version.properties")`, `file("version.properties")` (the script's folder).
    func namedVersionProperties(script: String, text: String) -> [String] {
        let projectFolder = GradleProjectLayout.projectFolder(ofBuildFile: script, files: files)
        var texts = [(GradleProjectLayout.folder(of: script), text)]
        for applied in Self.stringLiterals(after: ["apply from:", "apply(from ="], in: text) {
            let path = Self.resolved(applied, folder: GradleProjectLayout.folder(of: script), projectFolder: projectFolder)
            guard let path, path.hasSuffix(".gradle") || path.hasSuffix(".gradle.kts"), let appliedText = files.readableText(path) else { continue }
            texts.append((GradleProjectLayout.folder(of: path), appliedText))
        }
        var found: [String] = []
        for (folder, body) in texts {
            for literal in Self.stringLiterals(after: [""], in: body) where literal.hasSuffix("version.properties") {
                let rooted = body.contains("rootProject.file(\"\(literal)\")") || body.contains("rootProject.file('\(literal)')")
                guard let path = Self.resolved(literal, folder: rooted ? projectFolder : folder, projectFolder: projectFolder),
                      !found.contains(path) else { continue }
                found.append(path)
            }
        }
        return found
    }

    /// The string literals (single or double quoted, on one line) that follow one of `markers` (an empty marker: every
    /// literal).
    static func stringLiterals(after markers: [String], in text: String) -> [String] {
        var literals: [String] = []
        for line in text.split(separator: "\n") {
            for marker in markers {
                guard let start = marker.isEmpty ? line.startIndex : line.range(of: marker)?.upperBound else { continue }
                var rest = line[start...]
                while let open = rest.firstIndex(where: { $0 == "\"" || $0 == "'" }) {
                    let quote = rest[open]
                    let body = rest[rest.index(after: open)...]
                    guard let close = body.firstIndex(of: quote) else { break }
                    literals.append(String(body[..<close]))
                    rest = body[body.index(after: close)...]
                    if !marker.isEmpty { break }
                }
            }
        }
        return literals
    }

    /// `literal` as a root-relative path: `$rootDir/…`, `${rootDir}/…`, `${project.rootDir}/…` from the Gradle
    /// project's folder, any other relative path from `folder`; nil for another variable or an absolute path.
    static func resolved(_ literal: String, folder: String, projectFolder: String) -> String? {
        var path = literal
        var base = folder
        for prefix in ["$rootDir/", "${rootDir}/", "${project.rootDir}/", "${rootProject.rootDir}/", "$projectDir/", "${projectDir}/"]
        where path.hasPrefix(prefix) {
            path.removeFirst(prefix.count)
            base = prefix.contains("projectDir") ? folder : projectFolder
        }
        guard !path.contains("$"), !path.hasPrefix("/") else { return nil }
        return LexicalPath.normalize(LexicalPath.join(base, path))
    }

    /// The files a module script's values live in, besides the script: the gradle.properties keys and version
    /// catalog entries it reads.
    func companions(ofScript script: String, locations: [VersionLocation]) -> [FileEntry] {
        var companions: [FileEntry] = []
        func add(_ path: String, _ format: FileFormat, _ field: VersionField, _ key: String) {
            let index = companions.firstIndex { $0.path == path } ?? {
                companions.append(FileEntry(path: path, format: format))
                return companions.count - 1
            }()
            if field == .marketing { companions[index].options.versionNameKey = companions[index].options.versionNameKey ?? key }
            else { companions[index].options.versionCodeKey = companions[index].options.versionCodeKey ?? key }
        }
        for location in locations {
            for indirection in [location.indirection, location.overriddenBy].compactMap({ $0 }) {
                switch indirection {
                case .gradleProperty(let name):
                    let path = GradleProjectLayout.propertiesPath(forBuildFile: script, property: name, files: files)
                    if GradleProjectLayout.propertyLine(name, in: path, files: files) != nil { add(path, .properties, location.field, name) }
                case .versionCatalog(let alias):
                    let path = GradleProjectLayout.catalogPath(forBuildFile: script, files: files)
                    if let key = GradleProjectLayout.catalogKey(alias, in: path, files: files) { add(path, .versionCatalog, location.field, key.key) }
                case .buildSetting, .computed, .packageJSON:
                    break
                }
            }
        }
        return companions
    }

    /// A `properties` entry for a version.properties file, with the keys it really holds: a version name key
    /// (`VERSION_NAME`, `versionName`, `APP_VERSION_NAME`, `version`, …) whose value looks like a version, and a version
    /// code key (`VERSION_CODE`, `versionCode`, `BUILD_NUMBER`, …) whose value is a whole number.
    func versionPropertiesEntry(_ path: String) -> FileEntry? {
        guard let text = files.readableText(path) else { return nil }
        let nameKeys = ["versionname", "appversionname", "version", "appversion"]
        let codeKeys = ["versioncode", "appversioncode", "buildnumber", "versionbuild", "build"]
        var name: (key: String, rank: Int)?
        var code: (key: String, rank: Int)?
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let trimmed = String(line).trimmingSpaces
            guard !trimmed.hasPrefix("#"), !trimmed.hasPrefix("!"),
                  let separator = trimmed.firstIndex(where: { $0 == "=" || $0 == ":" }) else { continue }
            let key = String(trimmed[..<separator]).trimmingSpaces
            let value = String(trimmed[trimmed.index(after: separator)...]).trimmingSpaces
            let normalized = key.lowercased().filter { $0 != "_" && $0 != "-" && $0 != "." }
            if let rank = nameKeys.firstIndex(of: normalized), value.first?.isNumber == true, rank < (name?.rank ?? .max) {
                name = (key, rank)
            }
            if let rank = codeKeys.firstIndex(of: normalized), value.isASCIIDigits, rank < (code?.rank ?? .max) {
                code = (key, rank)
            }
        }
        guard name != nil || code != nil else { return nil }
        return FileEntry(path: path, format: .properties, options: FileOptions(versionNameKey: name?.key, versionCodeKey: code?.key))
    }
}
