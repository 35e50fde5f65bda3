import RelctlCore

/// Any JSON file, package.json by default (`JSONKeyPathEditor`): one key path holding one field. Its version is kept
/// whole (`1.3.0-beta.1`), as npm and Android do.
struct JSONFormat: VersionFileFormat {
    let name = FileFormat.json
    let optionKeys: Set<String> = ["keyPath", "field"]
    let marketingPlatform: StorePlatform? = nil

    func editor(_ options: FileOptions, readFile: (@Sendable (String) -> String?)?) -> any VersionEditor {
        JSONKeyPathEditor(keyPath: options.keyPath ?? ["version"], field: options.field ?? .marketing, json5: false)
    }

    func adjust(_ target: inout VersionTarget, for file: FileVersions, builds: SyncBuilds, entries: [FileEntry]) {
        select(file.entry.options.field, in: &target, builds: builds)
    }

    /// `package.json` at the root (a workspace root holding another version is left out later: `OtherProductFilter`).
    func detect(into detection: inout FileDetection) {
        if detection.files.exists("package.json") { detection.add(FileEntry(path: "package.json", format: .json)) }
    }
}
