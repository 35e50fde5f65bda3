import RelctlCore

/// `relctl init`: the version files of a mobile project under a root, with literal versions.
///
/// Each format's unit looks for its files (`VersionFileFormat.detect`, in `FormatRegistry` order): app.config.json /
/// app.json (with an `expo` key), app.config.ts/js (literal versions only), package.json, pubspec.yaml (or a Flutter
/// app's up to two folders down: `FlutterAppDetection`), the Xcode projects with the `.xcconfig` files and
/// Info.plists their targets' versions live in (`AppleVersionFileDetection`), and the Android app modules with their
/// gradle.properties keys, version catalog entries and version.properties (`AndroidFileDetection`). Then a
/// package.json of another product is left out (`OtherProductFilter`).
///
/// A file is added only when `relctl sync` can write it: it holds a literal, and every other version value
/// in it is a reference another detected entry covers (`$(MARKETING_VERSION)` by the pbxproj or an
/// .xcconfig, `$(FLUTTER_BUILD_NAME)` by pubspec.yaml, a Gradle property by gradle.properties). A file with
/// a computed value (`version: pkg.version`, a script variable) is left out, so init never writes a config
/// its own sync refuses; so is one whose editor refuses a sync (a conditional `MARKETING_VERSION[sdk=…]` setting).
package enum VersionFileDetection {
    /// What init found: the entries, a line for each file or target left out as another product's, and the files
    /// as read (so the found entries' values are read from the same texts, each file once).
    package struct Found {
        package var entries: [FileEntry]
        package var notes: [String]
        package var files: ProjectFiles
        /// What `eas.json` says about the build numbers, when there is one.
        package var eas: EASBuildSettings?
        /// Other tracked files holding the app's version in no format relctl edits, each with a regex entry to paste.
        package var otherPlaces: [OtherVersionPlaces.Place] = []
        /// The app's version those were looked for by.
        package var appVersion: String?

        /// The found entries' values, read through the texts detection already read.
        package func currentVersions() -> CurrentVersions? { try? CurrentVersions.read(entries, from: files) }
    }

    /// `tracked`: git's tracked files (path, size); with them, the other files holding the app's version are
    /// looked for (`OtherVersionPlaces`).
    package static func run(root: String, tracked: [(path: String, size: Int)]? = nil) -> Found {
        var detection = FileDetection(files: ProjectFiles(root: root))
        for unit in FormatRegistry.units { unit.detect(into: &detection) }
        var notes = detection.notes
        var found = OtherProductFilter.filter(merged(detection.entries), files: detection.files, appVersion: detection.appVersion, notes: &notes)
        found = OtherProductFilter.leaveOutTooling(found, files: detection.files, notes: &notes)
        var result = Found(entries: WritableEntries.filter(found, files: detection.files), notes: notes, files: detection.files,
                           eas: EASBuildSettings.read(detection.files))
        let stated = detection.appVersion ?? result.currentVersions()?.files.lazy.compactMap(\.marketing).first
        let considered = PlainVersionFile.consider(result.entries, appVersion: stated, files: detection.files, notes: &result.notes)
        result.entries = considered.entries
        if let tracked, let current = result.currentVersions(), let version = considered.appVersion {
            let build = current.highestAndroidBuild ?? current.highestIOSBuild
            // Files detection already judged (kept, or left out with a note) are not looked at again.
            let others = OtherVersionPlaces.find(version: version, build: build, tracked: tracked,
                                                 entries: result.entries + detection.entries, files: detection.files)
            result.entries += others.added
            result.otherPlaces = others.named
            result.appVersion = version
        }
        return result
    }

    /// One entry per file: a `.properties` file found twice (an .xcconfig includes it and Gradle reads it) holds the
    /// keys of both.
    static func merged(_ entries: [FileEntry]) -> [FileEntry] {
        var result: [FileEntry] = []
        for entry in entries {
            let mergeable = entry.format == .properties || entry.format == .versionCatalog
            guard let i = result.firstIndex(where: { $0.path == entry.path && $0.format == entry.format && (mergeable || $0 == entry) }) else {
                result.append(entry)
                continue
            }
            guard mergeable else { continue }
            result[i].options.versionNameKey = result[i].options.versionNameKey ?? entry.options.versionNameKey
            result[i].options.versionCodeKey = result[i].options.versionCodeKey ?? entry.options.versionCodeKey
        }
        return result
    }

    /// The entries `run` finds.
    package static func entries(root: String) -> [FileEntry] { run(root: root).entries }
}
