import RelctlCore

/// Xcode `project.pbxproj`: `MARKETING_VERSION` (marketing) and `CURRENT_PROJECT_VERSION` (iOS build)
/// in every `XCBuildConfiguration` of the selected targets, found through
/// PBXNativeTarget → buildConfigurationList → XCConfigurationList → buildConfigurations.
///
/// `targets == nil` selects application and app-extension targets (including watch apps/extensions,
/// App Clips and message extensions); test and framework targets are never touched by default.
/// A `$(VAR)` value (Flutter's `"$(FLUTTER_BUILD_NUMBER)"`) is reported as an indirection and left alone.
///
/// A target configuration without the setting inherits it: with `readFile` (the project's other files, root-relative)
/// relctl resolves it as Xcode does (`XcodeTargetVersions`) and edits the project-level value when that is where
/// it lives; a value in an `.xcconfig` or an Info.plist is that file's entry's to write (the sync plan checks one
/// covers it). Without `readFile` only the project-level value of a target without a base configuration is followed,
/// and a setting missing from a configuration without a base configuration is an error.
package struct PbxprojEditor: VersionEditor {
    package var targets: [String]?
    /// The text of another file of the repository (root-relative path), nil when unreadable.
    package var readFile: (@Sendable (String) -> String?)?

    package static let defaultProductTypes: Set<String> = [
        "com.apple.product-type.application",
        "com.apple.product-type.app-extension",
        "com.apple.product-type.application.watchapp",
        "com.apple.product-type.application.watchapp2",
        "com.apple.product-type.application.watchapp2-container",
        "com.apple.product-type.watchkit-extension",
        "com.apple.product-type.watchkit2-extension",
        "com.apple.product-type.application.on-demand-install-capable",
        "com.apple.product-type.app-extension.messages",
        "com.apple.product-type.app-extension.messages-sticker-pack",
        "com.apple.product-type.extensionkit-extension",
        "com.apple.product-type.tv-app-extension",
    ]

    package init(targets: [String]? = nil) {
        self.targets = targets
    }

    package init(targets: [String]?, readFile: (@Sendable (String) -> String?)?) {
        self.targets = targets
        self.readFile = readFile
    }

    package struct Configuration: Sendable, Hashable {
        package var target: String
        package var configuration: String
        /// The target's own setting, or the project-level one it inherits (nil = not in this file).
        package var marketing: VersionLocation?
        package var build: VersionLocation?
    }

    /// The targets this editor works on.
    package func selectedTargets(_ project: XcodeProject, path: String) throws(FileEditError) -> [XcodeProject.Target] {
        if let targets {
            for name in targets where !project.targets.contains(where: { $0.name == name }) {
                throw FileEditError(path: path, line: nil, message: "no target named \(name)",
                                    hint: "targets in this project: \(project.targets.map(\.name).joined(separator: ", "))")
            }
            return try Self.usable(project.targets.filter { targets.contains($0.name) })
        }
        let selected = project.targets.filter { Self.defaultProductTypes.contains($0.productType) }
        if selected.isEmpty {
            throw FileEditError(path: path, line: nil, message: "no application or app-extension target found",
                                hint: "name the targets in the entry's \"targets\" option")
        }
        return try Self.usable(selected)
    }

    private static func usable(_ targets: [XcodeProject.Target]) throws(FileEditError) -> [XcodeProject.Target] {
        if let error = targets.lazy.compactMap(\.error).first { throw error }
        return targets
    }

    /// One build configuration of a selected target: the values found in this file, where the target's version
    /// really lives (when `readFile` is given), and whether a base configuration may hold what this file lacks.
    struct ResolvedConfiguration: Sendable {
        var configuration: Configuration
        var version: XcodeTargetVersion?
        var inherits: Bool
    }

    package func parse(_ text: String, path: String) throws(FileEditError) -> any ParsedVersionFile {
        try parseProject(text, path: path)
    }

    /// Every build configuration of the selected targets, with the values found in this file (nil = not here),
    /// and where each one's version lives when `readFile` is given.
    func parseProject(_ text: String, path: String) throws(FileEditError) -> Parsed {
        let project = try XcodeProject(text, path: path)
        let selected = try selectedTargets(project, path: path)
        let t = ByteText(text)
        let read = readFile
        let versions = readFile.map { _ in XcodeTargetVersions.resolve(project, targets: selected) { read?($0) } }
        var result: [ResolvedConfiguration] = []
        var index = 0
        for target in selected {
            for config in target.configurations {
                let version = versions?[index]
                index += 1
                let projectConfig = project.projectConfiguration(named: config.name)
                func location(_ key: String, _ field: VersionField) -> VersionLocation? {
                    if let s = config.settings[key] {
                        return VersionLocation(field: field, value: s.value, line: s.line, range: s.range,
                                               indirection: buildSettingReference(s.value).map { .buildSetting($0) },
                                               context: "target \(target.name), configuration \(config.name)")
                    }
                    // Inherited from the project's build settings: certain without a base configuration;
                    // with the other files read, whenever that is where the value really lives.
                    let source = version?.source(field)
                    if let source, source.kind == .pbxproj, let range = source.range, let value = source.value {
                        return VersionLocation(field: field, value: value, line: t.line(of: range.lowerBound), range: range,
                                               context: "project, configuration \(config.name) (\(source.setting))")
                    }
                    if version == nil, !config.hasBaseConfiguration, let s = projectConfig?.settings[key] {
                        return VersionLocation(field: field, value: s.value, line: s.line, range: s.range,
                                               indirection: buildSettingReference(s.value).map { .buildSetting($0) },
                                               context: "project, configuration \(config.name)")
                    }
                    return nil
                }
                // Without the other files, only a base configuration can hold what this file lacks.
                let inherits = config.hasBaseConfiguration || projectConfig?.hasBaseConfiguration == true
                result.append(ResolvedConfiguration(
                    configuration: Configuration(target: target.name, configuration: config.name,
                                                 marketing: location("MARKETING_VERSION", .marketing),
                                                 build: location("CURRENT_PROJECT_VERSION", .iosBuild)),
                    version: version, inherits: inherits))
            }
        }
        return Parsed(text: text, path: path, configurations: result, xcodeTargets: versions ?? [])
    }

    /// Every build configuration of the selected targets, with the values found (nil = setting absent).
    package func configurations(_ text: String, path: String) throws(FileEditError) -> [Configuration] {
        try parseProject(text, path: path).configurations.map(\.configuration)
    }

    struct Parsed: ParsedVersionFile {
        let text: String
        let path: String
        let configurations: [ResolvedConfiguration]
        let xcodeTargets: [XcodeTargetVersion]

        /// Each value once, though several configurations may inherit one project setting.
        var locations: [VersionLocation] {
            // A few configurations: an array (a `Set<Range<Int>>` costs a conformance scan of the runtime).
            var seen: [Range<Int>] = []
            return configurations.flatMap { [$0.configuration.marketing, $0.configuration.build].compactMap { $0 } }
                .filter { location in
                    if seen.contains(where: { $0 == location.range }) { return false }
                    seen.append(location.range)
                    return true
                }
        }

        func edits(for target: VersionTarget) throws(FileEditError) -> [TextEdit] {
            // Every requested value of every configuration must live somewhere relctl writes.
            for resolved in configurations {
                let config = resolved.configuration
                for (key, field, location) in [("MARKETING_VERSION", VersionField.marketing, config.marketing),
                                               ("CURRENT_PROJECT_VERSION", VersionField.iosBuild, config.build)]
                where location == nil && target.value(for: field) != nil {
                    // Elsewhere (an .xcconfig, the Info.plist, pubspec.yaml): the sync plan checks an entry covers it.
                    if let source = resolved.version?.source(field) {
                        if source.kind == .unset { throw PbxprojEditor.notSet(key, config, path: path) }
                        if source.kind == .unresolved {
                            throw FileEditError(path: source.path ?? path, line: source.line,
                                                message: "\(source.reason ?? source.setting), which relctl cannot follow to a value for target \(config.target)",
                                                hint: "write a literal there, or leave the target out with \"targets\"")
                        }
                        continue
                    }
                    if resolved.inherits { continue }
                    throw PbxprojEditor.notSet(key, config, path: path)
                }
            }
            return try literalEdits(locations, target: target) { location, value in
                PbxprojEditor.literal(value, quotedBefore: text.utf8Byte(at: location.range.lowerBound) == UInt8(ascii: "\""))
            }
        }
    }

    static func notSet(_ key: String, _ config: Configuration, path: String) -> FileEditError {
        FileEditError(path: path, line: nil,
                      message: "\(key) is not set in target \(config.target), configuration \(config.configuration)",
                      hint: "set it in Xcode (Build Settings → Versioning) or leave the target out with \"targets\"")
    }

    static func literal(_ value: String, quotedBefore: Bool) -> String {
        if !quotedBefore, !value.isEmpty, value.utf8.allSatisfy({ PBXParser.isUnquoted($0) && $0 != UInt8(ascii: "$") }) {
            return value
        }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
