import RelctlCore

/// Xcode `project.pbxproj` (`PbxprojEditor`): `MARKETING_VERSION` and `CURRENT_PROJECT_VERSION` of the app, extension
/// and watch targets, each target's version resolved as Xcode does (`XcodeTargetVersions`) through the `.xcconfig`
/// files and Info.plists the project refers to.
struct PbxprojFormat: VersionFileFormat {
    let name = FileFormat.pbxproj
    let optionKeys: Set<String> = ["targets", "only"]
    let marketingPlatform: StorePlatform? = .ios
    let buildSettings = BuildSettingRole.sets

    func label(_ location: VersionLocation) -> String {
        location.field == .marketing ? "MARKETING_VERSION" : "CURRENT_PROJECT_VERSION"
    }

    func editor(_ options: FileOptions, readFile: (@Sendable (String) -> String?)?) -> any VersionEditor {
        PbxprojEditor(targets: options.targets, readFile: readFile)
    }

    /// A project whose file holds no build number may still own one: a target inherits it from a setting this
    /// file does not hold, or from a file an entry covers (`SyncPlan.checkTargets` checks which).
    func adjust(_ target: inout VersionTarget, for file: FileVersions, builds: SyncBuilds, entries: [FileEntry]) {
        if !file.targets.isEmpty, !file.locations.contains(where: { $0.field == .iosBuild }),
           file.targets.contains(where: { $0.build.kind != .unset }) {
            target.iosBuild = builds.ios
        }
    }

    /// A project whose targets' versions all live in .xcconfig files or Info.plists is kept with them: it tells
    /// which target reads which.
    func keptWithoutLiteral(_ file: FileVersions) -> Bool {
        file.targets.contains { [$0.marketing, $0.build].contains { [.xcconfig, .plist].contains($0.kind) } }
    }

    /// The Xcode projects of the app with the `.xcconfig` files and Info.plists their targets' versions live in
    /// (`AppleVersionFileDetection`), compared with the version the app's cross-platform config states.
    func detect(into detection: inout FileDetection) {
        let apple = AppleVersionFileDetection(files: detection.files).detect(reference: detection.statedVersion)
        detection.entries.append(contentsOf: apple.entries)
        if !apple.entries.contains(where: { $0.format == .pbxproj }) {
            // No Xcode project committed: an XcodeGen spec generates it.
            detection.entries.append(contentsOf: XcodeGenDetection.detect(detection.files, notes: &detection.notes))
        }
        detection.notes.append(contentsOf: apple.notes)
        detection.xcodeAppVersion = apple.appVersion
    }
}
