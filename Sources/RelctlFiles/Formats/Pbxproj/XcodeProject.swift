import RelctlCore

/// What a `project.pbxproj` says about where its targets' versions live: every native target with its build
/// configurations (their build settings with positions, and the base `.xcconfig` each one is based on), and the
/// project-level configurations the targets inherit from.
///
/// Paths are relative to the repository root, like the path of the pbxproj itself: a file reference is followed
/// through its groups (`sourceTree = "<group>"`), from the project folder (`SOURCE_ROOT`), or from an Xcode 16
/// synchronized folder (`baseConfigurationReferenceAnchor` + `baseConfigurationReferenceRelativePath`).
package struct XcodeProject: Sendable {
    /// One build setting as written in the pbxproj.
    package struct Setting: Sendable, Hashable {
        package var value: String
        package var range: Range<Int>
        package var line: Int
    }

    package struct BuildConfiguration: Sendable {
        package var name: String
        /// Line of the configuration's `isa = XCBuildConfiguration`, for messages.
        package var line: Int
        package var settings: [String: Setting]
        /// Root-relative path of the base `.xcconfig`; nil when there is none (or it lies outside the project).
        package var baseConfiguration: String?
        package var hasBaseConfiguration: Bool
    }

    package struct Target: Sendable {
        package var name: String
        package var productType: String
        package var configurations: [BuildConfiguration]
        /// `defaultConfigurationName` of its configuration list (the one `xcodebuild` uses without `-configuration`).
        package var defaultConfiguration: String?
        /// Why its configurations cannot be read (thrown when the target is selected).
        package var error: FileEditError?
        /// The target whose bundle a copy-files phase embeds this target's product into (a Mac Catalyst app's
        /// launcher helper app, a watch app, an extension): part of that app, not a product of its own.
        package var embeddedIn: String?
    }

    /// Root-relative path of the pbxproj.
    package var path: String
    /// Root-relative folder `$(SRCROOT)` stands for: the folder of the `.xcodeproj` ("" at the root).
    package var sourceRoot: String
    package var targets: [Target]
    package var projectConfigurations: [BuildConfiguration]

    package init(_ text: String, path: String) throws(FileEditError) {
        let t = ByteText(text)
        var parser = PBXParser(t, path: path)
        let root = try parser.parseDocument()
        guard case .dict(let objectPairs)? = root["objects"] else {
            throw FileEditError(path: path, line: nil, message: "no objects dictionary; is this a project.pbxproj?")
        }
        var objects: [String: PBXValue] = [:]
        var parents: [String: String] = [:]
        for (id, value) in objectPairs {
            objects[id] = value
            for child in value["children"]?.array ?? [] { if let c = child.string { parents[c] = id } }
        }
        self.path = path
        var parts = path.split(separator: "/").map(String.init)
        if parts.count >= 2, parts[parts.count - 2].hasSuffix(".xcodeproj") { parts.removeLast(2) } else if !parts.isEmpty { parts.removeLast() }
        let projectObject = root["rootObject"]?.string.flatMap { objects[$0] }
        let projectDir = projectObject?["projectDirPath"]?.string ?? ""
        let folder = parts.joinedByAppending("/")
        let sourceRoot = XcodePaths.join(folder, projectDir) ?? folder
        self.sourceRoot = sourceRoot
        let mainGroup = projectObject?["mainGroup"]?.string

        // The root-relative path of a file reference or group; nil for absolute, SDK or build-product paths.
        func filePath(_ id: String, depth: Int = 0) -> String? {
            guard depth < 64, let object = objects[id] else { return nil }
            let own = object["path"]?.string ?? ""
            switch object["sourceTree"]?.string ?? "<group>" {
            case "<group>":
                if id == mainGroup { return XcodePaths.join(sourceRoot, own) }
                guard let parent = parents[id] else { return XcodePaths.join(sourceRoot, own) }
                guard let base = filePath(parent, depth: depth + 1) else { return nil }
                return XcodePaths.join(base, own)
            case "SOURCE_ROOT":
                return XcodePaths.join(sourceRoot, own)
            default:
                return nil
            }
        }

        func configurations(_ listID: String?, owner: String) throws(FileEditError) -> (configs: [BuildConfiguration], defaultName: String?) {
            guard let listID, let list = objects[listID], list["isa"]?.string == "XCConfigurationList",
                  let ids = list["buildConfigurations"]?.array else {
                throw FileEditError(path: path, line: nil, message: "\(owner) has no usable buildConfigurationList")
            }
            var result: [BuildConfiguration] = []
            for idValue in ids {
                guard let id = idValue.string, let config = objects[id], config["isa"]?.string == "XCBuildConfiguration" else {
                    throw FileEditError(path: path, line: nil, message: "\(owner) refers to a missing XCBuildConfiguration")
                }
                var settings: [String: Setting] = [:]
                if case .dict(let pairs)? = config["buildSettings"] {
                    for (key, value) in pairs {
                        if case .string(let s, let range, _) = value {
                            settings[key] = Setting(value: s, range: range, line: t.line(of: range.lowerBound))
                        }
                    }
                }
                var base: String?
                var hasBase = false
                if let ref = config["baseConfigurationReference"]?.string {
                    hasBase = true
                    base = filePath(ref)
                } else if let anchor = config["baseConfigurationReferenceAnchor"]?.string,
                          let relative = config["baseConfigurationReferenceRelativePath"]?.string {
                    hasBase = true
                    base = filePath(anchor).flatMap { XcodePaths.join($0, relative) }
                }
                let line = config["isa"].flatMap { v -> Int? in
                    if case .string(_, let range, _) = v { return t.line(of: range.lowerBound) }
                    return nil
                } ?? 1
                result.append(BuildConfiguration(name: config["name"]?.string ?? "?", line: line, settings: settings,
                                                 baseConfiguration: base, hasBaseConfiguration: hasBase))
            }
            return (result, list["defaultConfigurationName"]?.string)
        }

        var targets: [Target] = []
        for (_, object) in objectPairs where object["isa"]?.string == "PBXNativeTarget" {
            let name = object["name"]?.string ?? "?"
            var target = Target(name: name, productType: object["productType"]?.string ?? "", configurations: [])
            do {
                (target.configurations, target.defaultConfiguration) = try configurations(object["buildConfigurationList"]?.string,
                                                                                          owner: "target \(name)")
            } catch {
                target.error = error
            }
            targets.append(target)
        }
        // Each product copied into another target's bundle by a copy-files phase names its host.
        var productOwner: [String: Int] = [:]
        let nativeTargets = objectPairs.filter { $0.1["isa"]?.string == "PBXNativeTarget" }
        for (index, (_, object)) in nativeTargets.enumerated() {
            if let product = object["productReference"]?.string { productOwner[product] = index }
        }
        for (hostIndex, (_, host)) in nativeTargets.enumerated() {
            for phaseID in host["buildPhases"]?.array ?? [] {
                guard let id = phaseID.string, let phase = objects[id], phase["isa"]?.string == "PBXCopyFilesBuildPhase" else { continue }
                for fileID in phase["files"]?.array ?? [] {
                    guard let ref = fileID.string.flatMap({ objects[$0]?["fileRef"]?.string }), let owner = productOwner[ref],
                          owner != hostIndex, targets[owner].embeddedIn == nil else { continue }
                    targets[owner].embeddedIn = targets[hostIndex].name
                }
            }
        }
        self.targets = targets
        if let listID = projectObject?["buildConfigurationList"]?.string,
           let list = try? configurations(listID, owner: "the project") {
            projectConfigurations = list.configs
        } else {
            projectConfigurations = []
        }
    }

    /// The project-level configuration a target configuration inherits from (same name).
    package func projectConfiguration(named name: String) -> BuildConfiguration? {
        projectConfigurations.first { $0.name == name }
    }
}
