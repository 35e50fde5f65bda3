import RelctlCore
import RelctlJSON

/// Everything relctl knows about one format of version file, beside its editor: its name and options, the store
/// its marketing version feeds, how `current` names its values, which references into it other files make, the
/// values a sync asks of it, the store rule of its shared build number, and how `relctl init` finds it.
///
/// One unit per format (`Formats/<Format>/<Format>Format.swift`), listed once in `FormatRegistry`. The defaults
/// below are what most formats do; a unit states only where it differs.
package protocol VersionFileFormat: Sendable {
    /// The name in `.relctl.json` (`"format": "expo-js"`).
    var name: FileFormat { get }
    /// The option keys an entry of this format takes, besides `path` and `format`.
    var optionKeys: Set<String> { get }
    /// Checks the options together, once `FileEntry(from:configPath:)` has decoded each one (a required option,
    /// a pattern that must compile). `node` is the entry in the config, for line numbers.
    func validate(_ options: FileOptions, entryPath: String, node: JSONNode, configPath: String) throws(FileEditError)
    /// The store whose rules apply to the marketing version written into this format: `.ios` formats get the
    /// store-safe version (`1.3.0` for `1.3.0-beta.2`), nil (and `.android`) keep it whole.
    var marketingPlatform: StorePlatform? { get }
    /// Whether a `$(NAME)` build setting another file refers to may live in a file of this format.
    var buildSettings: BuildSettingRole { get }
    /// Whether an entry with `options` writes the value `indirection` refers to (see `FileEntry.covers`).
    func provides(_ indirection: Indirection, options: FileOptions) -> Bool
    /// The name of a value inside its file, as a developer would search for it (`ios.buildNumber`, `versionCode`).
    func label(_ location: VersionLocation) -> String
    /// The editor for an entry's options; `readFile` reads the project's other files (root-relative), for a
    /// format whose values may live in files it refers to.
    func editor(_ options: FileOptions, readFile: (@Sendable (String) -> String?)?) -> any VersionEditor
    /// The values a sync asks of `file`, from the generic ones in `target` (the version, store-safe for
    /// `marketingPlatform`, and each build number the file has a field for); `builds` are the sync's build numbers.
    func adjust(_ target: inout VersionTarget, for file: FileVersions, builds: SyncBuilds, entries: [FileEntry])
    /// The store rule a new build number of `field` must pass (`current`: the value it replaces, when it changes).
    func checkBuildNumber(_ field: VersionField, new: String, current: String?) throws(StoreRuleViolation)
    /// `relctl init`: adds the files of this format found in the project (and may add files they refer to).
    func detect(into detection: inout FileDetection)
    /// `relctl init`: whether a detected file is kept though it holds no literal value of its own (its values live
    /// in other files it tells relctl about).
    func keptWithoutLiteral(_ file: FileVersions) -> Bool
    /// `relctl init`: whether a detected file is kept beside the other kept files (a file added for the files that
    /// read it goes with them).
    func keptBeside(_ file: FileVersions, kept: [FileVersions]) -> Bool
}

/// Where a file stands towards the `$(NAME)` build settings other files refer to.
package enum BuildSettingRole: Sendable {
    /// It holds none.
    case none
    /// It sets build settings: a project.pbxproj, an `.xcconfig`.
    case sets
    /// `flutter build` sets `FLUTTER_BUILD_NAME` / `FLUTTER_BUILD_NUMBER` from it (pubspec.yaml).
    case flutter
}

/// The build numbers of one sync (nil: left alone).
package struct SyncBuilds: Sendable, Hashable {
    package var ios: String?
    package var android: String?

    package init(ios: String?, android: String?) {
        self.ios = ios
        self.android = android
    }
}

extension VersionFileFormat {
    package func validate(_ options: FileOptions, entryPath: String, node: JSONNode, configPath: String) throws(FileEditError) {}
    package var buildSettings: BuildSettingRole { .none }

    package func provides(_ indirection: Indirection, options: FileOptions) -> Bool {
        if case .buildSetting = indirection { return buildSettings != .none }
        return false
    }

    package func label(_ location: VersionLocation) -> String { location.context ?? location.field.rawValue }
    package func adjust(_ target: inout VersionTarget, for file: FileVersions, builds: SyncBuilds, entries: [FileEntry]) {}

    package func checkBuildNumber(_ field: VersionField, new: String, current: String?) throws(StoreRuleViolation) {
        try checkStoreBuildNumber(field, new: new, current: current)
    }

    package func detect(into detection: inout FileDetection) {}
    package func keptWithoutLiteral(_ file: FileVersions) -> Bool { false }
    package func keptBeside(_ file: FileVersions, kept: [FileVersions]) -> Bool { true }

    /// Whether entries of this format take `"only"` (see `OnlyField`).
    package var takesOnly: Bool { optionKeys.contains("only") }
}

/// The store rule of a new build number: App Store Connect's for `iosBuild`, Google Play's for `androidBuild`, and
/// Flutter's `+N` (Google Play's, named as pubspec's) for a `build` shared by both stores.
func checkStoreBuildNumber(_ field: VersionField, new: String, current: String?) throws(StoreRuleViolation) {
    switch field {
    case .iosBuild: try StoreRules.validateIOSBuildNumber(new, current: current)
    case .androidBuild: try StoreRules.validateAndroidVersionCode(new, current: current)
    case .build: try StoreRules.validatePubspecBuildNumber(new, current: current)
    case .marketing: break
    }
}
