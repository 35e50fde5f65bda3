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

/// `relctl init` in a repository holding several apps: one project each (`projects` in `.relctl.json`).
///
/// Where the apps are found, first match wins:
/// - a JavaScript workspace: the globs of `pnpm-workspace.yaml` (`packages:`), of the root package.json's
///   `workspaces` (an array, or `{"packages": […]}`) and of `lerna.json` (`packages`); with only `nx.json` or
///   `turbo.json`, `apps/*` and `packages/*`;
/// - a Dart workspace: the globs of `melos.yaml` (`packages:`) and the root pubspec.yaml's `workspace:` list;
/// - several Android application modules (`com.android.application`) that `settings.gradle(.kts)` includes, with
///   distinct applicationIds;
/// - an Xcode project whose application targets are built for different platforms or hold different versions;
/// - one app's Android flavours with their own versions, or its native iOS and Android apps with other majors.
///
/// A workspace member is an app when it has an Expo config (app.json, app.config.*), a Capacitor config, an
/// Android app module (`android/app`) or an Xcode project (`ios/*.xcodeproj`), a Flutter app among them; its version files are found as for a single app, inside its
/// folder. Any other member is a library or tooling: left out with a line saying so, unless an app depends on
/// it (package.json `dependencies`, pubspec path or workspace dependencies) and it holds a version of its own,
/// then it is a project too and the app lists it in `dependsOn`. The workspace root is never a project.
package enum ProjectDetection {
    package struct Project: Sendable, Equatable {
        package var name: String
        /// Root-relative folder ("" for a target or flavour sharing the root).
        package var path: String
        package var tagFormat: String
        /// Root-relative entries.
        package var entries: [FileEntry]
        package var dependsOn: [String] = []
        /// What the project is, for init's list: "Expo app", "Android app com.example.a", "iOS app target Foo".
        package var kind: String
        /// Why the tagFormat is not `<name>-v{version}`, when it is not.
        package var tagNote: String?
        /// The app whose flavours are projects of their own: it keeps the repository's tag format.
        package var keepsRepositoryTags = false
    }

    package struct Result: Sendable {
        package var projects: [Project]
        /// What was left out and why, one line each.
        package var leftOut: [String]
        /// What the projects were found by, for init's first line ("pnpm-workspace.yaml", "settings.gradle").
        package var source: String
        /// Whether the root is a workspace whose root folder is no app itself (its package.json is never the app's).
        package var workspaceRootIsNoApp = false
        /// Other things worth a line (a flavour made a project of its own).
        package var notes: [String] = []
    }

    /// The projects of the repository at `root`, nil when it is one app (today's single-app detection applies).
    /// `tagNames`: the repository's tags, for each project's tagFormat.
    package static func run(root: String, tagNames: [String]) -> Result? {
        let files = ProjectFiles(root: root)
        if var result = workspaceProjects(files: files) ?? AndroidProjects.find(files: files) ?? XcodeProjects.find(files: files)
            ?? singleAppProjects(files: files) {
            // A file two projects list alike (one gradle.properties VERSION_NAME, an .xcconfig both apps include) is
            // written by the release of either: said, once per file.
            var named: Set<String> = []
            for (i, a) in result.projects.enumerated() {
                for entry in a.entries where !named.contains(entry.path) {
                    let sharing = result.projects[(i + 1)...].filter { $0.entries.contains(entry) }.map(\.name)
                    guard !sharing.isEmpty else { continue }
                    named.insert(entry.path)
                    result.notes.append("\(entry.path) is listed by \(([a.name] + sharing).joined(separator: ", ")): a release of one writes it for all; release them together (--all), or give each its own key")
                }
            }
            for i in result.projects.indices where !result.projects[i].keepsRepositoryTags {
                let (format, note) = tagFormat(for: result.projects[i].name, tagNames: tagNames)
                result.projects[i].tagFormat = format
                result.projects[i].tagNote = note
                // A flavour released so far under the app's tags as prereleases (`3.37.0-canary.8`): named.
                if note == nil, result.projects[i].entries.contains(where: { $0.options.flavor != nil }) {
                    let name = result.projects[i].name
                    let tagged = tagNames.filter { $0.lowercased().contains("-" + name.lowercased() + ".") || $0.lowercased().hasSuffix("-" + name.lowercased()) }
                    if let last = tagged.sorted().last {
                        result.projects[i].tagNote = "tags such as \(last) hold this flavour's versions in the app's tag format; its releases are tagged \(format) from now on"
                    }
                }
            }
            return result
        }
        return nil
    }

    // MARK: - Workspaces

    /// The workspace's member folders, with the file that listed them; nil when the root is no workspace.
    static func workspaceMembers(files: ProjectFiles) -> (source: String, patterns: [String])? {
        var patterns: [String] = []
        var sources: [String] = []
        if let text = files.readableText("pnpm-workspace.yaml") {
            patterns += yamlList("packages", in: text)
            sources.append("pnpm-workspace.yaml")
        }
        if let text = files.readableText("package.json"), let node = try? JSONDocument.parse(text, allowJSON5: true),
           let workspaces = node.member("workspaces") {
            patterns += (workspaces.arrayValue ?? workspaces.member("packages")?.arrayValue ?? []).compactMap(\.stringValue)
            sources.append("package.json workspaces")
        }
        if let text = files.readableText("lerna.json"), let node = try? JSONDocument.parse(text, allowJSON5: true),
           let list = node.member("packages")?.arrayValue {
            patterns += list.compactMap(\.stringValue)
            sources.append("lerna.json")
        }
        if let text = files.readableText("melos.yaml") {
            patterns += yamlList("packages", in: text)
            sources.append("melos.yaml")
        }
        if let text = files.readableText("pubspec.yaml"), text.hasLinePrefix("workspace:") {
            patterns += yamlList("workspace", in: text)
            sources.append("pubspec.yaml workspace")
        }
        for tool in ["nx.json", "turbo.json"] where files.exists(tool) {
            sources.append(tool)
            if patterns.isEmpty { patterns = ["apps/*", "packages/*"] }
        }
        guard !sources.isEmpty else { return nil }
        var unique: [String] = []
        for p in patterns where !unique.contains(p) { unique.append(p) }
        return (sources.joined(separator: ", "), unique)
    }

    static func workspaceProjects(files: ProjectFiles) -> Result? {
        guard let (source, patterns) = workspaceMembers(files: files) else { return nil }
        var leftOut: [String] = []
        var folders: [String] = []
        for pattern in patterns where !pattern.hasPrefix("!") {
            let matched = expand(pattern, files: files).filter { folder in
                !patterns.contains { $0.hasPrefix("!") && matches(String($0.dropFirst()), folder) }
            }
            if matched.isEmpty { leftOut.append("workspace pattern \"\(pattern)\" (\(source)) matches no package folder") }
            for folder in matched where !folders.contains(folder) && !folder.isEmpty { folders.append(folder) }
        }
        if let text = files.readableText("package.json"),
           let version = try? JSONKeyPathEditor(keyPath: ["version"], field: .marketing, json5: false).read(text, path: "package.json").first?.value {
            leftOut.append("package.json (version \(version)): the workspace root, not an app")
        } else if files.exists("package.json") {
            leftOut.append("package.json: the workspace root, not an app")
        }
        if files.readableText("pubspec.yaml").map({ $0.hasLinePrefix("workspace:") }) == true {
            leftOut.append("pubspec.yaml: the Dart workspace root, not an app")
        }

        struct Member { var folder: String; var packageName: String?; var app: String?; var dependencies: Set<String>; var pathDependencies: Set<String> }
        var members: [Member] = []
        for folder in folders {
            let package = files.readableText(folder + "/package.json").flatMap { try? JSONDocument.parse($0, allowJSON5: true) }
            let pubspec = files.readableText(folder + "/pubspec.yaml")
            var dependencies = Set<String>()
            var pathDependencies = Set<String>()
            if let package {
                for key in ["dependencies", "devDependencies", "peerDependencies"] {
                    for member in package.member(key)?.objectKeys ?? [] { dependencies.insert(member) }
                }
            }
            if let pubspec {
                let deps = pubspecDependencies(pubspec)
                dependencies.formUnion(deps.names)
                for path in deps.paths { if let joined = XcodePaths.join(folder, path) { pathDependencies.insert(joined) } }
            }
            let name = package?.member("name")?.stringValue ?? pubspec.flatMap { yamlScalar("name", in: $0) }
            members.append(Member(folder: folder, packageName: name, app: appKind(folder, files: files, pubspec: pubspec),
                                  dependencies: dependencies, pathDependencies: pathDependencies))
        }

        var projects: [Project] = []
        var names: [String: String] = [:]
        func projectName(_ folder: String) -> String {
            let last = folder.split(separator: "/").last.map(String.init) ?? folder
            var name = sanitized(last)
            if names[name] != nil && names[name] != folder { name = sanitized(folder.replacingOccurrences(of: "/", with: "-")) }
            names[name] = folder
            return name
        }
        // library folder → apps depending on it, directly or through other libraries (app → feature-home → ui).
        var shared: [String: [String]] = [:]
        func uses(_ member: Member, _ library: Member) -> Bool {
            (library.packageName.map { member.dependencies.contains($0) } ?? false) || member.pathDependencies.contains(library.folder)
        }
        let libraries = members.filter { $0.app == nil }
        for member in members where member.app != nil {
            var reached: [String] = []
            var queue = [member]
            while let next = queue.popLast() {
                for library in libraries where !reached.contains(library.folder) && uses(next, library) {
                    reached.append(library.folder)
                    queue.append(library)
                }
            }
            for folder in reached { shared[folder, default: []].append(member.folder) }
        }
        for member in members {
            guard let kind = member.app else { continue }
            let found = VersionFileDetection.run(root: files.absolute(member.folder))
            var entries = found.entries.map { prefixed($0, member.folder) }
            // An app's package.json at another version than the app (nx and Expo templates keep 0.0.1): not the app's.
            if let current = try? CurrentVersions.read(entries, from: files),
               let appVersion = current.files.first(where: { $0.entry.format != .json })?.marketing {
                for file in current.files where file.entry.format == .json && file.entry.path.hasSuffix("package.json") {
                    guard let version = file.marketing, VersionParts(version).core != VersionParts(appVersion).core,
                          !file.locations.contains(where: { $0.indirection != nil }) else { continue }
                    entries.removeAll { $0 == file.entry }
                    leftOut.append("\(file.entry.path) (version \(version)): the app is at \(appVersion); its package.json version is not the app's")
                }
            }
            for note in found.notes { leftOut.append("\(member.folder): \(note)") }
            if entries.isEmpty {
                leftOut.append("\(member.folder): a \(kind) with no version file relctl can write (add its files by hand as a project)")
                continue
            }
            projects.append(Project(name: projectName(member.folder), path: member.folder, tagFormat: "", entries: entries, kind: kind))
        }
        var libraryNames: [String: String] = [:]
        for member in members where member.app == nil {
            let users = shared[member.folder] ?? []
            let manifest = files.exists(member.folder + "/package.json") ? member.folder + "/package.json" : member.folder + "/pubspec.yaml"
            let entry = FileEntry(path: manifest, format: manifest.hasSuffix(".json") ? .json : .pubspec)
            let version = files.readableText(manifest).flatMap { try? entry.editor.read($0, path: manifest).first(where: { $0.field == .marketing && $0.indirection == nil })?.value }
            if users.isEmpty {
                leftOut.append("\(member.folder): a library or tooling package (no app.json/app.config, no android/app or ios/*.xcodeproj, not a Flutter app) that no app depends on")
            } else if let version, VersionParts(version).core != "0.0.0" {
                let name = projectName(member.folder)
                libraryNames[member.folder] = name
                projects.append(Project(name: name, path: member.folder, tagFormat: "", entries: [entry],
                                        kind: "shared package (version \(version)) used by \(users.joined(separator: ", "))"))
            } else {
                leftOut.append("\(member.folder): a shared package used by \(users.joined(separator: ", ")) with no version of its own\(version.map { " (\($0))" } ?? ""); not a project (give it a version and add it as a project with dependsOn to count its commits for the apps)")
            }
        }
        // With one app, a shared package is part of it: the single-app config (or the app alone) is proposed.
        let appCount = members.filter { $0.app != nil }.count
        if appCount < 2 { projects.removeAll { libraryNames[$0.path] != nil } }
        for i in projects.indices {
            let folder = projects[i].path
            projects[i].dependsOn = members.filter { shared[$0.folder]?.contains(folder) == true }.compactMap { libraryNames[$0.folder] }
                .filter { name in projects.contains { $0.name == name } }
        }
        var result = Result(projects: projects, leftOut: leftOut, source: source)
        result.workspaceRootIsNoApp = appKind("", files: files, pubspec: files.readableText("pubspec.yaml")) == nil
        // The root is the app (a React Native app with its packages beside it): the single-app detection applies.
        if !result.workspaceRootIsNoApp { result.projects = [] }
        return result
    }

    /// A single app whose Android product flavours set their own versionCode / versionName (a canary or internal
    /// build released as another app): the app, and one project per such flavour (a gradle entry with `flavor`).
    static func flavorProjects(files: ProjectFiles, entries: [FileEntry]) -> Result? {
        var flavors: [Project] = []
        var leftOut: [String] = []
        for entry in entries where entry.format == .gradle {
            guard let text = files.readableText(entry.path) else { continue }
            for flavor in GradleEditor.ownVersionFlavors(text, path: entry.path) {
                var values: [String] = []
                if let v = flavor.marketing { values.append("versionName \(v)") }
                if let v = flavor.build { values.append("versionCode \(v)") }
                let folder = XcodePaths.folder(of: entry.path)
                flavors.append(Project(name: sanitized(flavor.name), path: folder, tagFormat: "",
                                       entries: [FileEntry(path: entry.path, format: .gradle, options: FileOptions(flavor: flavor.name))],
                                       kind: "Android flavor \(flavor.name) of \(entry.path), \(values.joined(separator: ", "))"))
                leftOut.append("flavor \(flavor.name) of \(entry.path) sets its own \(values.joined(separator: ", ")), not defaultConfig's: it is a project of its own, so the app's sync never writes it (a flavour holding defaultConfig's values is kept in step with it)")
            }
        }
        guard !flavors.isEmpty else { return nil }
        let module = entries.first { $0.format == .gradle }.map { XcodePaths.folder(of: $0.path) }?.split(separator: "/").last.map(String.init)
        let appName = sanitized(module ?? "app")
        var app = Project(name: flavors.contains { $0.name == appName } ? appName + "-app" : appName, path: "", tagFormat: "",
                          entries: entries, kind: "the app")
        app.keepsRepositoryTags = true
        var result = Result(projects: [app] + flavors, leftOut: [], source: "Android product flavors with their own versions")
        result.notes = leftOut
        return result
    }

    /// The single app's files, found once: its flavours (`flavorProjects`), else its platforms (`platformProjects`).
    static func singleAppProjects(files: ProjectFiles) -> Result? {
        let entries = VersionFileDetection.run(root: files.root).entries
        return flavorProjects(files: files, entries: entries) ?? platformProjects(files: files, entries: entries)
    }

    /// A native iOS app and a native Android app in one repository (Kotlin Multiplatform, two native apps sharing
    /// code) whose versions are released apart: the Apple files and the Android files each agree, with another
    /// major version on each side (`6.1.7` and `1.0.3`). One project per platform, both at the root (shared code
    /// counts for both). A cross-platform config stating the version (Expo, Flutter, package.json) keeps one app;
    /// so do versions differing below the major, which is drift `sync` aligns.
    static func platformProjects(files: ProjectFiles, entries: [FileEntry]) -> Result? {
        let apple: Set<FileFormat> = [.pbxproj, .plist, .xcconfig]
        let android: Set<FileFormat> = [.gradle, .properties, .versionCatalog]
        guard entries.allSatisfy({ apple.contains($0.format) || android.contains($0.format) }),
              let current = try? CurrentVersions.read(entries, from: files) else { return nil }
        func versions(_ formats: Set<FileFormat>) -> Set<String> {
            Set(current.files.filter { formats.contains($0.entry.format) }.compactMap(\.marketing))
        }
        let iosVersions = versions(apple), androidVersions = versions(android)
        guard iosVersions.count == 1, androidVersions.count == 1, let ios = iosVersions.first, let droid = androidVersions.first,
              let iosMajor = ios.split(separator: ".").first, let androidMajor = droid.split(separator: ".").first,
              iosMajor != androidMajor else { return nil }
        let projects = [
            Project(name: "ios", path: "", tagFormat: "", entries: entries.filter { apple.contains($0.format) }, kind: "iOS app (version \(ios))"),
            Project(name: "android", path: "", tagFormat: "", entries: entries.filter { android.contains($0.format) }, kind: "Android app (version \(droid))"),
        ]
        var result = Result(projects: projects, leftOut: [], source: "an iOS and an Android app with their own versions")
        result.notes = ["the iOS files hold \(ios) and the Android files \(droid): two apps released apart, each with its own tags and changelog; to release them as one app, sync one version into both and replace projects with one files list"]
        return result
    }

    /// What kind of app a member folder is, nil when it is none.
    static func appKind(_ folder: String, files: ProjectFiles, pubspec: String?) -> String? {
        func at(_ name: String) -> String { join(folder, name) }
        // An app's platform projects: an Xcode project under ios/ (or macos/), an Android app module; a plugin or a
        // React Native library has ios/Classes and android/src only.
        let platformProject = files.children(at("ios")).contains { $0.hasSuffix(".xcodeproj") }
            || files.children(at("macos")).contains { $0.hasSuffix(".xcodeproj") } || files.isFolder(at("android/app"))
        if let pubspec, pubspec.contains("sdk: flutter") {
            return platformProject ? "Flutter app" : nil
        }
        if ["app.config.ts", "app.config.js", "app.config.mjs", "app.config.cjs", "app.config.json"].contains(where: { files.exists(at($0)) }) {
            return "Expo app"
        }
        if let text = files.readableText(at("app.json")), text.contains("\"expo\"") { return "Expo app" }
        if ["capacitor.config.ts", "capacitor.config.json"].contains(where: { files.exists(at($0)) }) { return "Capacitor app" }
        if platformProject {
            let package = files.readableText(at("package.json")) ?? ""
            return package.contains("\"react-native\"") ? "React Native app" : "app"
        }
        return nil
    }

    static func prefixed(_ entry: FileEntry, _ folder: String) -> FileEntry {
        var copy = entry
        copy.path = folder.isEmpty ? entry.path : folder + "/" + entry.path
        return copy
    }

    /// A project name git and JSON keys take: letters, digits, `-`, `_`, `.`.
    static func sanitized(_ s: String) -> String {
        let mapped = String(s.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "-" })
        return mapped.isEmpty ? "app" : mapped
    }

    // MARK: - Globs

    /// The folders `pattern` names (`apps/*`, `packages/**`, `apps/mobile`, `packages/app-*`), each holding a
    /// package.json or pubspec.yaml. `**` reaches three folders down.
    static func expand(_ pattern: String, files: ProjectFiles) -> [String] {
        var trimmed = pattern
        while trimmed.hasPrefix("./") { trimmed.removeFirst(2) }
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        let segments = trimmed.split(separator: "/").map(String.init)
        var current: [String] = [""]
        for segment in segments {
            var next: [String] = []
            for base in current {
                if segment == "**" {
                    var frontier = [base]
                    next.append(base)
                    for _ in 0..<3 {
                        frontier = frontier.flatMap { folder in subfolders(folder, files: files).map { join(folder, $0) } }
                        next += frontier
                    }
                } else if segment.contains("*") {
                    next += subfolders(base, files: files).filter { wildcard(segment, $0) }.map { join(base, $0) }
                } else if files.isFolder(join(base, segment)) {
                    next.append(join(base, segment))
                }
            }
            current = next
        }
        var result: [String] = []
        for folder in current where !result.contains(folder)
            && (files.exists(join(folder, "package.json")) || files.exists(join(folder, "pubspec.yaml"))) {
            result.append(folder)
        }
        return result
    }

    static func matches(_ pattern: String, _ folder: String) -> Bool {
        var p = pattern
        while p.hasPrefix("./") { p.removeFirst(2) }
        let ps = p.split(separator: "/").map(String.init), fs = folder.split(separator: "/").map(String.init)
        func go(_ i: Int, _ j: Int) -> Bool {
            if i == ps.count { return j == fs.count }
            if ps[i] == "**" { return (j...fs.count).contains { go(i + 1, $0) } }
            return j < fs.count && wildcard(ps[i], fs[j]) && go(i + 1, j + 1)
        }
        return go(0, 0)
    }

    static func subfolders(_ folder: String, files: ProjectFiles) -> [String] {
        files.children(folder).filter {
            !$0.hasPrefix(".") && !["node_modules", "build", "dist", "Pods", ".dart_tool"].contains($0) && files.isFolder(join(folder, $0))
        }
    }

    static func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : a + "/" + b }

    /// `*` matches any run of characters within one folder name.
    static func wildcard(_ pattern: String, _ name: String) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 else { return pattern == name }
        guard name.hasPrefix(parts[0]), name.count >= parts[0].count + parts.last!.count, name.hasSuffix(parts.last!) else { return false }
        var rest = Substring(name.dropFirst(parts[0].count).dropLast(parts.last!.count))
        for middle in parts.dropFirst().dropLast() where !middle.isEmpty {
            guard let range = rest.range(of: middle) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }

    // MARK: - Minimal YAML

    /// The items of a top-level block list `key:` (`  - 'apps/*'`), quotes removed; an inline `[a, b]` too.
    static func yamlList(_ key: String, in text: String) -> [String] {
        var items: [String] = []
        var inside = false
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = String(raw)
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            if content.trimmingSpaces.isEmpty { continue }
            if !line.hasPrefix(" ") && !line.hasPrefix("\t") && !line.hasPrefix("-") {
                inside = false
                if line.hasPrefix(key + ":") {
                    let rest = String(content.dropFirst(key.count + 1)).trimmingSpaces
                    if rest.hasPrefix("[") {
                        items += rest.dropFirst().split(separator: ",").map { unquoted(String($0).replacingOccurrences(of: "]", with: "")) }.filter { !$0.isEmpty }
                    } else {
                        inside = rest.isEmpty
                    }
                }
                continue
            }
            let trimmed = content.trimmingSpaces
            if inside, trimmed.hasPrefix("-") {
                let item = unquoted(String(trimmed.dropFirst()))
                if !item.isEmpty { items.append(item) }
            }
        }
        return items
    }

    static func yamlScalar(_ key: String, in text: String) -> String? {
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) where raw.hasPrefix(key + ":") {
            return unquoted(String(raw.dropFirst(key.count + 1)))
        }
        return nil
    }

    static func unquoted(_ s: String) -> String {
        var t = s.trimmingSpaces
        if t.count >= 2, let first = t.first, first == "'" || first == "\"", t.last == first { t = String(t.dropFirst().dropLast()) }
        return t
    }

    /// The dependency names of a pubspec's `dependencies:` / `dev_dependencies:`, and the `path:` of each path dependency.
    static func pubspecDependencies(_ text: String) -> (names: Set<String>, paths: [String]) {
        var names = Set<String>()
        var paths: [String] = []
        var inside = false
        var indent: Int?
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = String(raw)
            if line.trimmingSpaces.isEmpty || line.trimmingSpaces.hasPrefix("#") { continue }
            let spaces = line.prefix { $0 == " " }.count
            if spaces == 0 {
                inside = line.hasPrefix("dependencies:") || line.hasPrefix("dev_dependencies:")
                indent = nil
                continue
            }
            guard inside else { continue }
            let trimmed = line.trimmingSpaces
            if indent == nil { indent = spaces }
            if spaces == indent, let colon = trimmed.firstIndex(of: ":") {
                names.insert(String(trimmed[..<colon]))
            } else if trimmed.hasPrefix("path:") {
                paths.append(unquoted(String(trimmed.dropFirst(5))))
            }
        }
        return (names, paths)
    }

    // MARK: - Tag formats

    /// `<name>-v{version}`, unless the repository's tags show another format for this project: `consumer@1.2.0`
    /// (`consumer@{version}`), `APPA-22.0.0` (`APPA-{version}`). Tags naming the project with a version in
    /// another shape (`APPA_22_0`) cannot be written by a tagFormat: said in the note.
    static func tagFormat(for name: String, tagNames: [String]) -> (String, String?) {
        let standard = name + "-v" + TagFormat.placeholder
        func normalized(_ s: String) -> String { s.lowercased().filter { $0.isLetter || $0.isNumber } }
        let key = normalized(name)
        guard !key.isEmpty else { return (standard, nil) }
        var counts: [String: [String]] = [:]
        var unwritable: [String] = []
        for tag in tagNames {
            if let (prefix, text, suffix) = TagFormatGuess.split(tag), SemanticVersion(text) != nil || text.split(separator: ".").count == 2,
               normalized(prefix) == key || normalized(prefix) == key + "v" {
                let pattern = prefix + TagFormat.placeholder + suffix
                if (try? TagFormat(pattern)) != nil { counts[pattern, default: []].append(tag) }
            } else {
                // `APPA_22_0`: the name, then numbers joined by `_`.
                let letters = tag.prefix { !$0.isNumber }
                let rest = tag.dropFirst(letters.count)
                if normalized(String(letters)) == key, !rest.isEmpty, rest.allSatisfy({ $0.isNumber || $0 == "_" }), rest.contains("_") {
                    unwritable.append(tag)
                }
            }
        }
        if let best = counts.max(by: { a, b in a.value.count < b.value.count || (a.value.count == b.value.count && a.key > b.key) }) {
            return (best.key, "tagFormat \"\(best.key)\" follows the tags \(best.value.sorted().suffix(3).joined(separator: ", "))")
        }
        if let tag = unwritable.sorted().last {
            return (standard, "tags such as \(tag) hold the version with '_' between its numbers, which a tagFormat cannot write; kept \"\(standard)\" (the first release tags \(name)-v<version>; set the tagFormat by hand to another shape if you prefer)")
        }
        return (standard, nil)
    }
}

extension String {
    func hasLinePrefix(_ prefix: String) -> Bool {
        hasPrefix(prefix) || contains("\n" + prefix)
    }
}

extension ProjectDetection.Project {
    /// Whether root-relative `file` is inside the project's folder.
    package func contains(_ file: String) -> Bool {
        path.isEmpty || path == "." || file.hasPrefix(path + "/")
    }
}
