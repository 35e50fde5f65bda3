import RelctlCore
import RelctlJSON

/// Expo `app.json` / `app.config.json` (`ExpoJSONEditor`). Its version is the app's on both stores, so iOS rules apply.
struct ExpoFormat: VersionFileFormat {
    let name = FileFormat.expo
    let optionKeys: Set<String> = []
    let marketingPlatform: StorePlatform? = .ios

    /// `version`, `ios.buildNumber`, `android.versionCode`: the key path below `expo`.
    func label(_ location: VersionLocation) -> String {
        let context = location.context ?? location.field.rawValue
        return context.hasPrefix("expo.") ? String(context.dropFirst(5)) : context
    }

    func editor(_ options: FileOptions, readFile: (@Sendable (String) -> String?)?) -> any VersionEditor { ExpoJSONEditor() }

    /// Without `expo.version` Expo uses package.json's version: with a `json` entry for the package.json beside it,
    /// that entry writes the version and this file only its build numbers.
    func adjust(_ target: inout VersionTarget, for file: FileVersions, builds: SyncBuilds, entries: [FileEntry]) {
        if !file.locations.contains(where: { $0.field == .marketing })
            && entries.contains(where: { $0.isPackageJSONVersion(beside: file.entry.path) }) {
            target.marketing = nil
        }
    }

    /// A config without `expo.version` takes package.json's version: kept only with that entry.
    func keptBeside(_ file: FileVersions, kept: [FileVersions]) -> Bool {
        file.locations.contains(where: { $0.field == .marketing })
            || kept.contains(where: { $0.entry.isPackageJSONVersion(beside: file.entry.path) })
    }

    /// `app.config.json`, else an `app.json` with an `expo` key, at the root; its version is the app's.
    func detect(into detection: inout FileDetection) {
        let files = detection.files
        if files.exists("app.config.json") {
            detection.add(FileEntry(path: "app.config.json", format: .expo), statesAppVersion: true)
        } else if files.exists("app.json"), let text = files.readableText("app.json"),
                  let node = try? JSONDocument.parse(text, allowJSON5: true), node.member("expo") != nil {
            detection.add(FileEntry(path: "app.json", format: .expo), statesAppVersion: true)
        }
    }
}
