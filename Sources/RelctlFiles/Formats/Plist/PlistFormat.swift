import RelctlCore

/// An XML `Info.plist` (`PlistEditor`): literal `CFBundleShortVersionString` / `CFBundleVersion`. `relctl init` adds
/// one for the Xcode target that reads it (`PbxprojFormat`).
struct PlistFormat: VersionFileFormat {
    let name = FileFormat.plist
    let optionKeys: Set<String> = ["only"]
    let marketingPlatform: StorePlatform? = .ios

    func editor(_ options: FileOptions, readFile: (@Sendable (String) -> String?)?) -> any VersionEditor { PlistEditor() }

    func adjust(_ target: inout VersionTarget, for file: FileVersions, builds: SyncBuilds, entries: [FileEntry]) {
        keepOneOfTwo(&target, file)
    }
}
