import Foundation

// Xcode project files for the app fixtures, shaped like what Xcode writes: sections, object ids with their
// comments, tabs, file references inside groups, configuration lists with a default configuration.

/// One target of a fixture project.
struct XcodeFixtureTarget {
    var name: String
    var productType: String
    /// Build settings of every configuration.
    var settings: [String: String]
    /// Per configuration name: settings that differ from `settings`.
    var overrides: [String: [String: String]] = [:]
    /// Per configuration name: the base .xcconfig, relative to the project folder.
    var base: [String: String] = [:]
    /// Targets whose products this one copies into its bundle (an "Embed" copy-files phase): a Mac app's launcher.
    var embeds: [String] = []

    static let application = "com.apple.product-type.application"
    static let appExtension = "com.apple.product-type.app-extension"
    static let watchExtension = "com.apple.product-type.watchkit2-extension"
    static let unitTests = "com.apple.product-type.bundle.unit-test"

    init(_ name: String, _ productType: String, _ settings: [String: String], overrides: [String: [String: String]] = [:],
         base: [String: String] = [:], embeds: [String] = []) {
        self.name = name
        self.productType = productType
        self.settings = settings
        self.overrides = overrides
        self.base = base
        self.embeds = embeds
    }
}

/// A project.pbxproj with the given targets, configurations and project-level settings.
struct XcodeFixtureProject {
    var name: String
    var targets: [XcodeFixtureTarget]
    var configurations = ["Debug", "Release"]
    var projectSettings: [String: String] = ["SDKROOT": "iphoneos"]
    /// Per configuration name: the project's base .xcconfig, relative to the project folder.
    var projectBase: [String: String] = [:]

    private static func id(_ n: Int) -> String {
        let hex = String(n, radix: 16, uppercase: true)
        return "1D6058" + String(repeating: "0", count: 18 - hex.count) + hex
    }

    private static func quoted(_ value: String) -> String {
        let plain = !value.isEmpty && value.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "._/".unicodeScalars.contains($0)
        }
        return plain ? value : "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    var text: String {
        var next = 1
        func newID() -> String { defer { next += 1 }; return Self.id(next) }
        // File references: one group per folder, in the main group.
        var files: [String: String] = [:]   // relative path → id
        let xcconfigs = Set(targets.flatMap { $0.base.values } + projectBase.values).sorted()
        for path in xcconfigs { files[path] = newID() }
        var groups: [String: (id: String, children: [String])] = [:]
        for path in xcconfigs {
            let folder = (path as NSString).deletingLastPathComponent
            groups[folder, default: (newID(), [])].children.append(path)
        }
        let mainGroup = newID()
        let projectID = newID()
        let projectList = newID()
        // Embedded products: a file reference each, a build file and a copy-files phase in each host.
        var productRefs: [String: String] = [:]
        for name in Set(targets.flatMap(\.embeds)).sorted() { productRefs[name] = newID() }
        var phases: [String: (id: String, files: [(id: String, name: String)])] = [:]
        for target in targets where !target.embeds.isEmpty {
            phases[target.name] = (newID(), target.embeds.map { (newID(), $0) })
        }
        var out = "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 56;\n\tobjects = {\n\n"
        if !phases.isEmpty {
            out += "/* Begin PBXBuildFile section */\n"
            for host in phases.keys.sorted() {
                for file in phases[host]!.files {
                    out += "\t\t\(file.id) /* \(file.name).app in Embed Apps */ = {isa = PBXBuildFile; fileRef = \(productRefs[file.name]!) /* \(file.name).app */; };\n"
                }
            }
            out += "/* End PBXBuildFile section */\n\n/* Begin PBXCopyFilesBuildPhase section */\n"
            for host in phases.keys.sorted() {
                out += "\t\t\(phases[host]!.id) /* Embed Apps */ = {\n\t\t\tisa = PBXCopyFilesBuildPhase;\n\t\t\tbuildActionMask = 2147483647;\n"
                out += "\t\t\tdstPath = Contents/Library/LoginItems;\n\t\t\tdstSubfolderSpec = 1;\n\t\t\tfiles = (\n"
                for file in phases[host]!.files { out += "\t\t\t\t\(file.id) /* \(file.name).app in Embed Apps */,\n" }
                out += "\t\t\t);\n\t\t\tname = \"Embed Apps\";\n\t\t\trunOnlyForDeploymentPostprocessing = 0;\n\t\t};\n"
            }
            out += "/* End PBXCopyFilesBuildPhase section */\n\n"
        }
        out += "/* Begin PBXFileReference section */\n"
        for name in productRefs.keys.sorted() {
            out += "\t\t\(productRefs[name]!) /* \(name).app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = \(Self.quoted(name + ".app")); sourceTree = BUILT_PRODUCTS_DIR; };\n"
        }
        for path in xcconfigs {
            let file = (path as NSString).lastPathComponent
            out += "\t\t\(files[path]!) /* \(file) */ = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = \(Self.quoted(file)); sourceTree = \"<group>\"; };\n"
        }
        out += "/* End PBXFileReference section */\n\n/* Begin PBXGroup section */\n"
        out += "\t\t\(mainGroup) = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n"
        for folder in groups.keys.sorted() where !folder.isEmpty { out += "\t\t\t\t\(groups[folder]!.id) /* \(folder) */,\n" }
        for path in groups[""]?.children ?? [] { out += "\t\t\t\t\(files[path]!) /* \(path) */,\n" }
        out += "\t\t\t);\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n"
        for folder in groups.keys.sorted() where !folder.isEmpty {
            out += "\t\t\(groups[folder]!.id) /* \(folder) */ = {\n\t\t\tisa = PBXGroup;\n\t\t\tchildren = (\n"
            for path in groups[folder]!.children { out += "\t\t\t\t\(files[path]!) /* \((path as NSString).lastPathComponent) */,\n" }
            out += "\t\t\t);\n\t\t\tpath = \(Self.quoted(folder));\n\t\t\tsourceTree = \"<group>\";\n\t\t};\n"
        }
        out += "/* End PBXGroup section */\n\n/* Begin PBXNativeTarget section */\n"
        var targetIDs: [(id: String, list: String)] = []
        for target in targets {
            let ids = (newID(), newID())
            targetIDs.append(ids)
            out += "\t\t\(ids.0) /* \(target.name) */ = {\n\t\t\tisa = PBXNativeTarget;\n"
            out += "\t\t\tbuildConfigurationList = \(ids.1) /* Build configuration list for PBXNativeTarget \"\(target.name)\" */;\n"
            out += "\t\t\tbuildPhases = (\n"
            if let phase = phases[target.name] { out += "\t\t\t\t\(phase.id) /* Embed Apps */,\n" }
            out += "\t\t\t);\n\t\t\tdependencies = (\n\t\t\t);\n"
            out += "\t\t\tname = \(Self.quoted(target.name));\n\t\t\tproductName = \(Self.quoted(target.name));\n"
            if let ref = productRefs[target.name] { out += "\t\t\tproductReference = \(ref) /* \(target.name).app */;\n" }
            out += "\t\t\tproductType = \"\(target.productType)\";\n\t\t};\n"
        }
        out += "/* End PBXNativeTarget section */\n\n/* Begin PBXProject section */\n"
        out += "\t\t\(projectID) /* Project object */ = {\n\t\t\tisa = PBXProject;\n"
        out += "\t\t\tbuildConfigurationList = \(projectList) /* Build configuration list for PBXProject \"\(name)\" */;\n"
        out += "\t\t\tmainGroup = \(mainGroup);\n\t\t\tprojectDirPath = \"\";\n\t\t\tprojectRoot = \"\";\n\t\t\ttargets = (\n"
        for (i, target) in targets.enumerated() { out += "\t\t\t\t\(targetIDs[i].id) /* \(target.name) */,\n" }
        out += "\t\t\t);\n\t\t};\n/* End PBXProject section */\n\n/* Begin XCBuildConfiguration section */\n"
        var lists: [(id: String, owner: String, configs: [String])] = []
        func writeConfigurations(settings: [String: String], overrides: [String: [String: String]], base: [String: String]) -> [String] {
            var ids: [String] = []
            for name in configurations {
                let id = newID()
                ids.append(id)
                out += "\t\t\(id) /* \(name) */ = {\n\t\t\tisa = XCBuildConfiguration;\n"
                if let path = base[name] {
                    out += "\t\t\tbaseConfigurationReference = \(files[path]!) /* \((path as NSString).lastPathComponent) */;\n"
                }
                out += "\t\t\tbuildSettings = {\n"
                let merged = settings.merging(overrides[name] ?? [:]) { $1 }
                for key in merged.keys.sorted() { out += "\t\t\t\t\(key) = \(Self.quoted(merged[key]!));\n" }
                out += "\t\t\t};\n\t\t\tname = \(name);\n\t\t};\n"
            }
            return ids
        }
        lists.append((projectList, "PBXProject \"\(name)\"", writeConfigurations(settings: projectSettings, overrides: [:], base: projectBase)))
        for (i, target) in targets.enumerated() {
            lists.append((targetIDs[i].list, "PBXNativeTarget \"\(target.name)\"",
                          writeConfigurations(settings: target.settings, overrides: target.overrides, base: target.base)))
        }
        out += "/* End XCBuildConfiguration section */\n\n/* Begin XCConfigurationList section */\n"
        for list in lists {
            out += "\t\t\(list.id) /* Build configuration list for \(list.owner) */ = {\n\t\t\tisa = XCConfigurationList;\n"
            out += "\t\t\tbuildConfigurations = (\n"
            for (k, id) in list.configs.enumerated() { out += "\t\t\t\t\(id) /* \(configurations[k]) */,\n" }
            out += "\t\t\t);\n\t\t\tdefaultConfigurationIsVisible = 0;\n\t\t\tdefaultConfigurationName = Release;\n\t\t};\n"
        }
        out += "/* End XCConfigurationList section */\n\t};\n\trootObject = \(projectID) /* Project object */;\n}\n"
        return out
    }
}

/// An Info.plist with the two version keys (literal values or `$(…)` references).
func infoPlist(marketing: String, build: String, extensionPoint: String? = nil) -> String {
    var body = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>CFBundleDevelopmentRegion</key>
    \t<string>$(DEVELOPMENT_LANGUAGE)</string>
    \t<key>CFBundleDisplayName</key>
    \t<string>$(PRODUCT_NAME)</string>
    \t<key>CFBundleShortVersionString</key>
    \t<string>\(marketing)</string>
    \t<key>CFBundleVersion</key>
    \t<string>\(build)</string>

    """
    if let extensionPoint {
        body += "\t<key>NSExtension</key>\n\t<dict>\n\t\t<key>NSExtensionPointIdentifier</key>\n\t\t<string>\(extensionPoint)</string>\n\t</dict>\n"
    }
    return body + "</dict>\n</plist>\n"
}
