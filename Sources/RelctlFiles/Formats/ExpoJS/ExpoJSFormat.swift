import RelctlCore

/// Expo `app.config.js` / `app.config.ts` with literal values (`ExpoJSEditor`).
struct ExpoJSFormat: VersionFileFormat {
    let name = FileFormat.expoJS
    let optionKeys: Set<String> = []
    let marketingPlatform: StorePlatform? = .ios

    func label(_ location: VersionLocation) -> String { ExpoFormat().label(location) }

    func editor(_ options: FileOptions, readFile: (@Sendable (String) -> String?)?) -> any VersionEditor { ExpoJSEditor() }

    /// Without a version of its own Expo takes package.json's: with a `json` entry for the package.json beside it,
    /// that entry writes the version and this file only its build numbers (as for app.json).
    func adjust(_ target: inout VersionTarget, for file: FileVersions, builds: SyncBuilds, entries: [FileEntry]) {
        ExpoFormat().adjust(&target, for: file, builds: builds, entries: entries)
    }

    /// `app.config.ts`, else `app.config.js`, at the root, when it holds a literal.
    func detect(into detection: inout FileDetection) {
        for js in ["app.config.ts", "app.config.js"] where detection.files.exists(js) {
            detection.add(FileEntry(path: js, format: .expoJS))
            break
        }
    }
}
