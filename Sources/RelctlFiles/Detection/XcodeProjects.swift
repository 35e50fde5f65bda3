import RelctlCore

/// `relctl init`: an Xcode project whose application targets are built for different platforms (an iOS app and a
/// Mac app) or hold different marketing versions is several products: one project per application target, with
/// the pbxproj entry limited to that app and its extensions (`targets`), and the .xcconfig files and Info.plists
/// those targets' versions live in. An extension goes with the application target of its platform.
enum XcodeProjects {
    static func find(files: ProjectFiles) -> ProjectDetection.Result? {
        let detection = AppleVersionFileDetection(files: files)
        for path in detection.findProjects() {
            guard let text = files.readableText(path), let project = try? XcodeProject(text, path: path),
                  let selected = try? PbxprojEditor().selectedTargets(project, path: path) else { continue }
            let versions = XcodeTargetVersions.resolve(project, targets: selected) { files.readableText($0) }
            var names: [String] = []
            for v in versions where !names.contains(v.target) { names.append(v.target) }
            func main(_ name: String) -> XcodeTargetVersion? {
                let all = versions.filter { $0.target == name }
                return all.first(where: \.isDefaultConfiguration) ?? all.first
            }
            // An app embedded in another (a Mac Catalyst app's launcher helper) ships inside it: not a product.
            let host = Dictionary(project.targets.compactMap { t in t.embeddedIn.map { (t.name, $0) } }, uniquingKeysWith: { a, _ in a })
            let apps = names.compactMap(main).filter { $0.isApplication && $0.platform != "watchos" && host[$0.target] == nil }
            guard apps.count > 1 else { continue }
            let platforms = Set(apps.map { $0.platform ?? "iphoneos" })
            let marketing = Set(apps.map { VersionParts($0.marketing.value ?? "").core })
            guard platforms.count > 1 || marketing.count > 1 else { continue }
            var projects: [ProjectDetection.Project] = []
            var leftOut: [String] = []
            var taken: Set<String> = []
            for app in apps {
                var kept = [app.target]
                let platform = app.platform ?? "iphoneos"
                // The first app of a platform takes that platform's extensions (a watch app goes with iOS).
                if apps.first(where: { ($0.platform ?? "iphoneos") == platform })?.target == app.target {
                    for name in names where name != app.target && !taken.contains(name) {
                        if host[name] == app.target { kept.append(name); continue }
                        guard let other = main(name), !other.isApplication || other.platform == "watchos", host[name] == nil else { continue }
                        let otherPlatform = other.platform ?? "iphoneos"
                        if otherPlatform == platform || (otherPlatform == "watchos" && platform == "iphoneos") { kept.append(name) }
                    }
                }
                taken.formUnion(kept)
                var entries = [FileEntry(path: path, format: .pbxproj, options: FileOptions(targets: kept))]
                for version in versions where kept.contains(version.target) {
                    for source in [version.marketing, version.build] {
                        guard let file = source.path, source.kind == .plist || (source.kind == .xcconfig && file.hasSuffix(".xcconfig")) else { continue }
                        let entry = FileEntry(path: file, format: source.kind == .plist ? .plist : .xcconfig)
                        if !entries.contains(entry) { entries.append(entry) }
                    }
                }
                let writable = WritableEntries.filter(entries, files: files)
                guard !writable.isEmpty else {
                    leftOut.append("target \(app.target) of \(path): no version value relctl can write")
                    continue
                }
                let platformName = platform == "macosx" ? "macOS" : platform == "appletvos" ? "tvOS" : platform == "xros" ? "visionOS" : "iOS"
                projects.append(ProjectDetection.Project(name: ProjectDetection.sanitized(app.target), path: "", tagFormat: "",
                                                         entries: writable, kind: "\(platformName) app target \(app.target) (version \(app.marketing.value ?? "?"))"))
            }
            guard projects.count > 1 else { return nil }
            return ProjectDetection.Result(projects: projects, leftOut: leftOut, source: path)
        }
        return nil
    }
}
