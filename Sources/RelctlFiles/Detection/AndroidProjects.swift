import RelctlCore

/// `relctl init`: several Android apps in one Gradle build (`include(":appa", ":appb")`, each module applying
/// `com.android.application` with its own applicationId) are one project each; a module's flavours that carry a
/// versionCode or versionName other than the module's are a project each too (see `GradleFlavors`).
enum AndroidProjects {
    static func find(files: ProjectFiles) -> ProjectDetection.Result? {
        var modules: [(name: String, folder: String, script: String, applicationId: String?, entries: [FileEntry])] = []
        let detection = AndroidFileDetection(files: files)
        for project in ["", "android"] where files.isFolder(project) {
            guard let settingsName = GradleProjectLayout.settingsFiles.first(where: { files.exists(ProjectDetection.join(project, $0)) }),
                  let settings = files.readableText(ProjectDetection.join(project, settingsName)) else { continue }
            for module in includedModules(settings) {
                let folder = ProjectDetection.join(project, module.replacingOccurrences(of: ":", with: "/"))
                guard let name = ["build.gradle.kts", "build.gradle"].first(where: { files.exists(ProjectDetection.join(folder, $0)) }) else { continue }
                let script = ProjectDetection.join(folder, name)
                guard let text = files.readableText(script), isApplication(text) else { continue }
                let entry = FileEntry(path: script, format: .gradle)
                guard let locations = try? entry.editor.read(text, path: script), !locations.isEmpty else { continue }
                let entries = WritableEntries.filter([entry] + detection.companions(ofScript: script, locations: locations), files: files)
                guard entries.contains(entry) else { continue }
                modules.append((module.split(separator: ":").last.map(String.init) ?? module, folder, script, applicationId(text), entries))
            }
            if !modules.isEmpty { break }
        }
        let ids = Set(modules.compactMap(\.applicationId))
        guard modules.count > 1, ids.count == modules.count else { return nil }
        let projects = modules.map { module in
            ProjectDetection.Project(name: ProjectDetection.sanitized(module.name), path: module.folder, tagFormat: "",
                                     entries: module.entries, kind: "Android app \(module.applicationId ?? "")")
        }
        return ProjectDetection.Result(projects: projects, leftOut: [], source: "settings.gradle application modules")
    }

    /// `include(":appa", ":appb")`, `include ':appa', ':lib'`: the module paths without the leading `:`.
    static func includedModules(_ settings: String) -> [String] {
        var modules: [String] = []
        for raw in settings.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = String(raw).trimmingSpaces
            guard line.hasPrefix("include"), !line.hasPrefix("includeBuild") else { continue }
            var rest = Substring(line.dropFirst("include".count))
            while let open = rest.firstIndex(where: { $0 == "\"" || $0 == "'" }) {
                let quote = rest[open]
                let after = rest[rest.index(after: open)...]
                guard let close = after.firstIndex(of: quote) else { break }
                var name = String(after[..<close])
                while name.hasPrefix(":") { name.removeFirst() }
                if !name.isEmpty && !modules.contains(name) { modules.append(name) }
                rest = after[after.index(after: close)...]
            }
        }
        return modules
    }

    /// A module applying the Android application plugin (by id, or a version catalog alias).
    static func isApplication(_ text: String) -> Bool {
        text.contains("com.android.application") || text.contains("plugins.android.application")
    }

    /// The first literal `applicationId` of a script (defaultConfig's comes before the flavours').
    static func applicationId(_ text: String) -> String? {
        guard let range = text.range(of: "applicationId") else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" || $0 == "(" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote && $0 != "\n" }
        return value.isEmpty ? nil : String(value)
    }
}
