import RelctlCore
import RelctlFiles

/// How `relctl current` shows the targets of a project.pbxproj: one line per target, each value with the file
/// and line it really lives in.
enum XcodeTargetText {
    /// `target Shelf: marketing 2.3.0 → ios/Config/Version.xcconfig:1 (included from ios/Config/Base.xcconfig), iOS build 118 → line 38`
    static func lines(_ file: FileVersions, among files: [FileVersions]) -> [String] {
        var names: [String] = []
        for target in file.targets where !names.contains(target.target) { names.append(target.target) }
        return names.map { name in
            let configs = file.targets.filter { $0.target == name }
            let parts = fields(file).map { field in
                // One entry per distinct value and place; the configurations are named when they differ.
                var groups: [(text: String, configurations: [String])] = []
                for config in configs {
                    let text = describe(config.source(field), in: file, among: files)
                    if let i = groups.firstIndex(where: { $0.text == text }) { groups[i].configurations.append(config.configuration) }
                    else { groups.append((text, [config.configuration])) }
                }
                let label = VersionFileText.fieldName(field)
                if groups.count == 1 { return "\(label) \(groups[0].text)" }
                return label + " " + groups.map { "\($0.text) [\($0.configurations.joined(separator: ", "))]" }.joined(separator: "; ")
            }
            return "target \(name): " + parts.joined(separator: ", ")
        }
    }

    /// The fields the entry reads (all, or the one of "only").
    static func fields(_ file: FileVersions) -> [VersionField] {
        [VersionField.marketing, .iosBuild].filter { file.entry.options.only?.admits($0) ?? true }
    }

    /// `2.3.0 → ios/Config/Version.xcconfig:1`, `$(FLUTTER_BUILD_NAME) → set by flutter build from pubspec.yaml:5 (1.2.0)`.
    static func describe(_ source: XcodeVersionSource, in file: FileVersions, among files: [FileVersions]) -> String {
        switch source.kind {
        case .pbxproj:
            return "\(source.value ?? "") → line \(source.line ?? 0)" + (source.setting.hasSuffix("VERSION") ? "" : " (\(source.setting))")
        case .xcconfig, .plist:
            let included = source.includedFrom.isEmpty ? "" : " (included from \(source.includedFrom.joined(separator: " ← ")))"
            let listed = files.contains { $0.entry.path == source.path } ? "" : ", not in 'files'"
            return "\(source.value ?? "") → \(source.site)\(included)\(listed)"
        case .flutter:
            return "$(\(source.setting)) → \(flutterSite(source, among: files))"
        case .unset:
            return "not set (\(source.setting))"
        case .unresolved:
            return "unknown (\(source.reason ?? source.setting))"
        }
    }

    static func flutterSite(_ source: XcodeVersionSource, among files: [FileVersions]) -> String {
        let field: VersionField = source.setting == "FLUTTER_BUILD_NAME" ? .marketing : .build
        if let pubspec = files.first(where: { $0.entry.format.unit.buildSettings == .flutter }),
           let location = pubspec.locations.first(where: { $0.field == field && $0.indirection == nil }) {
            return "set by flutter build from \(pubspec.entry.path):\(location.line) (\(location.value))"
        }
        return "set by flutter build from pubspec.yaml, which is not in 'files'"
    }

    /// One object per target, for its default configuration.
    static func json(_ file: FileVersions, among files: [FileVersions]) -> JSONOutput {
        var seen = Set<String>()
        var targets: [XcodeTargetVersion] = []
        for target in file.targets where target.isDefaultConfiguration && seen.insert(target.target).inserted { targets.append(target) }
        for target in file.targets where seen.insert(target.target).inserted { targets.append(target) }
        return .array(targets.map { target in
            func value(_ field: VersionField) -> JSONOutput {
                guard file.entry.options.only?.admits(field) ?? true else { return .null }
                let source = target.source(field)
                var value = source.value
                var indirection: String?
                var path = source.path
                var line = source.line
                switch source.kind {
                case .pbxproj, .xcconfig, .plist: break
                case .flutter:
                    value = "$(\(source.setting))"
                    indirection = flutterSite(source, among: files)
                    if let pubspec = files.first(where: { $0.entry.format.unit.buildSettings == .flutter }) {
                        path = pubspec.entry.path
                        line = pubspec.locations.first?.line
                    }
                case .unset, .unresolved:
                    value = nil
                    indirection = source.site
                }
                return .object([("value", .optional(value)), ("path", .optional(path)), ("line", line.map { .int($0) } ?? .null),
                                ("setting", .string(source.setting)), ("indirection", .optional(indirection))])
            }
            return .object([("name", .string(target.target)), ("productType", .string(target.productType)),
                            ("configuration", .string(target.configuration)),
                            ("marketing", value(.marketing)), ("iosBuild", value(.iosBuild))])
        })
    }
}
