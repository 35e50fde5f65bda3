import RelctlCore

/// An Android `build.gradle` / `build.gradle.kts` (`GradleEditor`): `versionName` / `versionCode` of
/// `android { defaultConfig { … } }`, following `gradle.properties` and version catalog references.
struct GradleFormat: VersionFileFormat {
    let name = FileFormat.gradle
    let optionKeys: Set<String> = ["flavor"]
    let marketingPlatform: StorePlatform? = .android

    func editor(_ options: FileOptions, readFile: (@Sendable (String) -> String?)?) -> any VersionEditor { GradleEditor(flavor: options.flavor) }

    /// A script reading gradle.properties only is kept with it: it tells where the values live.
    func keptWithoutLiteral(_ file: FileVersions) -> Bool { !file.locations.isEmpty }

    /// Whether the build script `gradle` reads a value `entry` writes (a reference, or the override of a fallback).
    static func reads(_ gradle: FileVersions, from entry: FileEntry) -> Bool {
        gradle.entry.format == .gradle && gradle.locations.contains { location in
            [location.indirection, location.overriddenBy].contains { $0.map { entry.covers($0, inFileAt: gradle.entry.path) } ?? false }
        }
    }

    /// Every Android app module with the `gradle.properties` keys, version catalog entries and `version.properties`
    /// it reads (`AndroidFileDetection`).
    func detect(into detection: inout FileDetection) {
        var notes: [String] = []
        let found = AndroidFileDetection(files: detection.files).detect(notes: &notes)
        // A computed versionName matters when nothing before (Expo, Flutter, package.json) states the version.
        if detection.entries.isEmpty { detection.notes += notes }
        detection.entries += found
        detection.androidAppVersion = detection.entries.first(where: { $0.format == .gradle || $0.format == .properties })
            .flatMap { entry in detection.literalLocations(entry)?.first(where: { $0.field == .marketing && $0.indirection == nil })?.value }
    }
}
