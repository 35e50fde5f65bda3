#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore

/// Resolves each target's version the way Xcode does: the Info.plist's literal wins; otherwise the build setting
/// (the plist's `$(NAME)`, or `MARKETING_VERSION` / `CURRENT_PROJECT_VERSION`) is looked up in the target's
/// build settings, then its base `.xcconfig` (with includes), then the project's build settings, then the
/// project's base `.xcconfig`; a `$(OTHER)` value is followed the same way; `$(inherited)` goes one level down.
package enum XcodeTargetVersions {
    /// The build setting and the Info.plist key of a field (a switch: a dictionary keyed by `VersionField` costs a
    /// conformance scan of the runtime).
    static func keys(_ field: VersionField) -> (setting: String, plist: String)? {
        switch field {
        case .marketing: ("MARKETING_VERSION", "CFBundleShortVersionString")
        case .iosBuild: ("CURRENT_PROJECT_VERSION", "CFBundleVersion")
        default: nil
        }
    }

    /// `read` returns a root-relative file's text, nil when it cannot be read.
    package static func resolve(_ project: XcodeProject, targets: [XcodeProject.Target],
                                read: (String) -> String?) -> [XcodeTargetVersion] {
        var xcconfigs: [String: XcconfigSettings] = [:]
        func settings(_ path: String?) -> XcconfigSettings? {
            guard let path else { return nil }
            if let cached = xcconfigs[path] { return cached }
            let loaded = XcconfigSettings(path: path, read: read)
            xcconfigs[path] = loaded
            return loaded
        }
        var result: [XcodeTargetVersion] = []
        for target in targets {
            for config in target.configurations {
                let projectConfig = project.projectConfiguration(named: config.name)
                let chain = Chain(project: project, levels: [
                    .settings(config), settings(config.baseConfiguration).map { .xcconfig($0) },
                    projectConfig.map { .settings($0) }, settings(projectConfig?.baseConfiguration).map { .xcconfig($0) },
                ].compactMap { $0 }, target: target.name)
                let plistPath = chain.raw("INFOPLIST_FILE").flatMap { chain.expandPath($0) }
                let plistLocations = plistPath.flatMap { p in read(p).flatMap { try? PlistEditor().read($0, path: p) } } ?? []
                func resolve(_ field: VersionField) -> XcodeVersionSource {
                    let key = keys(field)!
                    if let plistPath, let location = plistLocations.first(where: { $0.field == field }) {
                        switch location.indirection {
                        case nil:
                            return XcodeVersionSource(kind: .plist, setting: key.plist, path: plistPath, line: location.line,
                                                      value: location.value)
                        case .buildSetting(let name)? where name != location.value:
                            return chain.resolve(name)
                        default:
                            return XcodeVersionSource(kind: .unresolved, setting: key.plist, path: plistPath, line: location.line,
                                                      value: location.value,
                                                      reason: "\(key.plist) is \(location.value) in \(plistPath):\(location.line)")
                        }
                    }
                    return chain.resolve(key.setting)
                }
                result.append(XcodeTargetVersion(
                    target: target.name, productType: target.productType, configuration: config.name,
                    isDefaultConfiguration: config.name == (target.defaultConfiguration ?? target.configurations.last?.name),
                    line: config.line, platform: chain.raw("SDKROOT"),
                    marketing: resolve(.marketing), build: resolve(.iosBuild)))
            }
        }
        return result
    }

    /// The levels of one target configuration, highest first.
    struct Chain {
        enum Level {
            case settings(XcodeProject.BuildConfiguration)
            case xcconfig(XcconfigSettings)
        }

        let project: XcodeProject
        let levels: [Level]
        let target: String

        /// The value set at `level`, with where it is.
        func lookup(_ name: String, at level: Level) -> XcodeVersionSource? {
            switch level {
            case .settings(let config):
                guard let s = config.settings[name] else { return nil }
                return XcodeVersionSource(kind: .pbxproj, setting: name, path: project.path, line: s.line, value: s.value, range: s.range)
            case .xcconfig(let settings):
                guard let a = settings.value(name) else { return nil }
                return XcodeVersionSource(kind: .xcconfig, setting: name, path: a.path, line: a.line, value: a.value,
                                          includedFrom: a.includedFrom)
            }
        }

        /// The literal value of `name` and where it is, following `$(OTHER)` and `$(inherited)`.
        func resolve(_ name: String, from start: Int = 0, depth: Int = 0) -> XcodeVersionSource {
            if name == "FLUTTER_BUILD_NAME" || name == "FLUTTER_BUILD_NUMBER" {
                return XcodeVersionSource(kind: .flutter, setting: name)
            }
            guard depth < 8 else {
                return XcodeVersionSource(kind: .unresolved, setting: name, reason: "\(name) refers to itself through other settings")
            }
            var index = start
            while index < levels.count {
                defer { index += 1 }
                guard let found = lookup(name, at: levels[index]), let value = found.value else { continue }
                if value == "$(inherited)" || value == "${inherited}" { continue }
                guard let reference = buildSettingReference(value) else { return found }
                if reference != value {
                    return resolve(reference, depth: depth + 1)
                }
                var unresolved = found
                unresolved.kind = .unresolved
                unresolved.reason = "\(name) is \(value) in \(found.site)"
                return unresolved
            }
            return XcodeVersionSource(kind: .unset, setting: name)
        }

        /// The value of a setting as written (no reference followed), e.g. INFOPLIST_FILE or SDKROOT.
        func raw(_ name: String) -> String? {
            for level in levels {
                if let value = lookup(name, at: level)?.value, value != "$(inherited)" { return value }
            }
            return nil
        }

        /// A path setting (INFOPLIST_FILE) as a root-relative path: relative to the project folder, with
        /// `$(SRCROOT)`, `$(PROJECT_DIR)` and `$(TARGET_NAME)` expanded; nil when other settings are needed.
        func expandPath(_ value: String) -> String? {
            var v = value
            for (open, close) in [("$(", ")"), ("${", "}")] where v.utf8.contains(UInt8(ascii: "$")) {
                for name in ["SRCROOT", "PROJECT_DIR", "SOURCE_ROOT"] {
                    v = v.replacingLiteral(open + name + close + "/", with: "")
                    v = v.replacingLiteral(open + name + close, with: "")
                }
                v = v.replacingLiteral(open + "TARGET_NAME" + close, with: target)
            }
            guard !v.contains("$(") && !v.contains("${"), !v.isEmpty else { return nil }
            return XcodePaths.join(project.sourceRoot, v)
        }
    }
}
