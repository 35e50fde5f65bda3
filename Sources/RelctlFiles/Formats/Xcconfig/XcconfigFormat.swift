import RelctlCore

/// An `.xcconfig` (`XcconfigEditor`): `MARKETING_VERSION = …` / `CURRENT_PROJECT_VERSION = …`. `relctl init` adds one
/// for the Xcode targets based on it (`PbxprojFormat`).
struct XcconfigFormat: VersionFileFormat {
    let name = FileFormat.xcconfig
    let optionKeys: Set<String> = ["only"]
    let marketingPlatform: StorePlatform? = .ios
    let buildSettings = BuildSettingRole.sets

    func editor(_ options: FileOptions, readFile: (@Sendable (String) -> String?)?) -> any VersionEditor { XcconfigEditor() }

    func adjust(_ target: inout VersionTarget, for file: FileVersions, builds: SyncBuilds, entries: [FileEntry]) {
        keepOneOfTwo(&target, file)
    }
}
