import RelctlCore

/// Expo `app.config.js` / `app.config.ts` with literal values (`ExpoJSEditor`).
struct ExpoJSFormat: VersionFileFormat {
    let name = FileFormat.expoJS
    let optionKeys: Set<String> = []
    let marketingPlatform: StorePlatform? = .ios

    func label(_ location: VersionLocation) -> String { ExpoFormat().label(location) }

    func editor(_ options: FileOptions, readFile: (@Sendable (String) -> String?)?) -> any VersionEditor { ExpoJSEditor() }

    /// `app.config.ts`, else `app.config.js`, at the root, when it holds a literal.
    func detect(into detection: inout FileDetection) {
        for js in ["app.config.ts", "app.config.js"] where detection.files.exists(js) {
            detection.add(FileEntry(path: js, format: .expoJS))
            break
        }
    }
}
