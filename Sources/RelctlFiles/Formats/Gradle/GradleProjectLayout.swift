#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Where the files a Gradle build script reads live: `gradle.properties` and `gradle/libs.versions.toml` belong to
/// the Gradle project (the folder with `settings.gradle(.kts)`: `android/` in a React Native or Flutter app, the
/// repository root in a native Android app), not always to `android/`. Paths are relative to the repository root;
/// files are read through `files`, each once.
package enum GradleProjectLayout {
    static let settingsFiles = ["settings.gradle.kts", "settings.gradle"]

    /// The folder of `path` (`""` for the root).
    static func folder(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }

    static func join(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }

    /// The Gradle project folder of a build script: the nearest folder upward (its own first) holding
    /// settings.gradle(.kts); without one, the folder above the module (`android` for `android/app/build.gradle`),
    /// or the script's own folder when it is at the root.
    package static func projectFolder(ofBuildFile path: String, files: ProjectFiles) -> String {
        var candidate = folder(of: path)
        while true {
            if settingsFiles.contains(where: { files.exists(join(candidate, $0)) }) { return candidate }
            if candidate.isEmpty { break }
            candidate = folder(of: candidate)
        }
        let module = folder(of: path)
        return module.isEmpty ? "" : folder(of: module)
    }

    /// The gradle.properties a build script reads `property` from: the module's own when it holds the key (Gradle
    /// reads a subproject's gradle.properties too), else the project's.
    package static func propertiesPath(forBuildFile path: String, property: String? = nil, files: ProjectFiles) -> String {
        let project = join(projectFolder(ofBuildFile: path, files: files), "gradle.properties")
        let module = join(folder(of: path), "gradle.properties")
        if let property, module != project, let found = propertyLine(property, in: module, files: files), found > 0 { return module }
        return project
    }

    /// The line of `key` in a properties file, nil when the file or the key is missing.
    package static func propertyLine(_ key: String, in path: String, files: ProjectFiles) -> Int? {
        guard let text = files.readableText(path),
              let found = try? PropertiesEditor(versionNameKey: key, versionCodeKey: nil).read(text, path: path) else { return nil }
        return found.first?.line
    }

    /// The default version catalog of a build script's project (`libs`): `gradle/libs.versions.toml` of the project folder.
    package static func catalogPath(forBuildFile path: String, files: ProjectFiles) -> String {
        join(projectFolder(ofBuildFile: path, files: files), "gradle/libs.versions.toml")
    }

    /// The key of the catalog's `[versions]` table an accessor alias reads (`app.version` → `app-version`), with its line.
    package static func catalogKey(_ alias: String, in path: String, files: ProjectFiles) -> (key: String, line: Int)? {
        guard var text = files.readableText(path) else { return nil }
        if text.unicodeScalars.first == "\u{FEFF}" { text = String(text.unicodeScalars.dropFirst()) }
        guard let entries = try? VersionCatalogEditor.versionEntries(text, path: path) else { return nil }
        let wanted = VersionCatalogEditor.alias(alias)
        return entries.first { VersionCatalogEditor.alias($0.key) == wanted }.map { ($0.key, $0.line) }
    }
}
