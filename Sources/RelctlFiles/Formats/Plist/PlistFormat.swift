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

/// An Info.plist or `.xcconfig` may hold one of the two values (the other lives elsewhere): it writes what it holds.
func keepOneOfTwo(_ target: inout VersionTarget, _ file: FileVersions) {
    let fields = Set(file.locations.map(\.field))
    if !fields.contains(.marketing) && !fields.isEmpty { target.marketing = nil }
}
