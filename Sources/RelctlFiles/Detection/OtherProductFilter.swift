#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore
import RelctlJSON

/// `relctl init`: a package.json belongs to the app only when it holds the app's version. A JavaScript workspace
/// root (`"workspaces": […]`) or a React Native template's `0.0.1` beside native files holding `2.3.0` is another
/// product's (or nobody's) version: left out, so init never writes a config its own `current` reports as drift.
/// A workspace member package holding the app's version (the app package) is proposed instead.
enum OtherProductFilter {
    static func filter(_ entries: [FileEntry], files: ProjectFiles, appVersion: String?, notes: inout [String]) -> [FileEntry] {
        guard let appVersion else { return entries }
        var result: [FileEntry] = []
        for entry in entries {
            guard entry.format == .json, entry.path.hasSuffix("package.json"),
                  // Expo without expo.version takes package.json's version: that one is the app's.
                  !entries.contains(where: { $0.format == .expo && entry.isPackageJSONVersion(beside: $0.path) && !expoHasVersion($0, files: files) }),
                  let text = files.readableText(entry.path),
                  let version = try? entry.editor.read(text, path: entry.path).first(where: { $0.indirection == nil })?.value,
                  VersionParts(version).core != VersionParts(appVersion).core else {
                result.append(entry)
                continue
            }
            let members = workspaceMembers(text, folder: XcodePaths.folder(of: entry.path), files: files)
            let app = members.first { member in
                guard let t = files.readableText(member),
                      let v = try? JSONKeyPathEditor(keyPath: ["version"], field: .marketing, json5: false).read(t, path: member).first?.value else { return false }
                return VersionParts(v).core == VersionParts(appVersion).core
            }
            notes.append("left out \(entry.path): it holds version \(version), the app \(appVersion)"
                         + (members.isEmpty ? "" : " (a JavaScript workspace root)") + (app.map { "; added the app package \($0)" } ?? ""))
            if let app, !entries.contains(where: { $0.path == app }) { result.append(FileEntry(path: app, format: .json)) }
        }
        return result
    }

    /// Dependencies that make a package.json a cross-platform app's (its version is the app's).
    static func isAppFramework(_ name: String) -> Bool {
        name == "expo" || name.hasPrefix("react-native") || name.hasPrefix("@capacitor/") || name.hasPrefix("cordova-")
            || name.hasPrefix("@nativescript/") || name == "nativescript" || name.hasPrefix("@ionic/")
    }

    /// A package.json at the root of a native app (an Xcode project or a Gradle app module found, no Expo config)
    /// that lists dependencies but no app framework (react-native, expo, Capacitor, Cordova, NativeScript) belongs to
    /// the JavaScript tooling beside the app (commitlint, husky, danger, a docs site): it is not the app's version.
    static func leaveOutTooling(_ entries: [FileEntry], files: ProjectFiles, notes: inout [String]) -> [FileEntry] {
        let nativeFormats: [FileFormat] = [.pbxproj, .xcconfig, .plist, .gradle, .properties, .versionCatalog]
        guard entries.contains(where: { nativeFormats.contains($0.format) }),
              !entries.contains(where: { $0.format == .expo || $0.format == .expoJS }) else { return entries }
        return entries.filter { entry in
            guard entry.format == .json, entry.path == "package.json", let text = files.readableText(entry.path),
                  let node = try? JSONDocument.parse(text, allowJSON5: true) else { return true }
            let dependencies = ["dependencies", "devDependencies", "peerDependencies"]
                .flatMap { node.member($0)?.objectKeys ?? [] }
            // Without any dependency it says nothing of what it is: kept (the native files tell its version apart).
            guard !dependencies.isEmpty, !dependencies.contains(where: isAppFramework) else { return true }
            let version = (try? entry.editor.read(text, path: entry.path))?.first?.value
            notes.append("left out package.json\(version.map { " (version \($0))" } ?? ""): it depends on no react-native, expo or Capacitor package, so it is the JavaScript tooling beside the native app, not the app (if you keep its version in step with the app, add {\"path\": \"package.json\", \"format\": \"json\"} to 'files')")
            return false
        }
    }

    static func expoHasVersion(_ entry: FileEntry, files: ProjectFiles) -> Bool {
        guard let text = files.readableText(entry.path),
              let locations = try? entry.editor.read(text, path: entry.path) else { return false }
        return locations.contains { $0.field == .marketing }
    }

    /// The package.json files of `"workspaces": ["apps/*", "web"]` (or `{"packages": […]}`): `dir/*` patterns one level deep.
    static func workspaceMembers(_ text: String, folder: String, files: ProjectFiles) -> [String] {
        guard let node = try? JSONDocument.parse(text, allowJSON5: true), let workspaces = node.member("workspaces") else { return [] }
        let patterns = (workspaces.arrayValue ?? workspaces.member("packages")?.arrayValue ?? []).compactMap(\.stringValue)
        var members: [String] = []
        for pattern in patterns {
            var dirs: [String] = []
            if pattern.hasSuffix("/*") {
                guard let base = XcodePaths.join(folder, String(pattern.dropLast(2))) else { continue }
                dirs = files.children(base).map { base.isEmpty ? $0 : base + "/" + $0 }
            } else if !pattern.contains("*"), let dir = XcodePaths.join(folder, pattern) {
                dirs = [dir]
            }
            for dir in dirs where files.exists(dir + "/package.json") {
                members.append(dir + "/package.json")
            }
        }
        return members
    }
}
