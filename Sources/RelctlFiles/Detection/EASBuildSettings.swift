import RelctlCore
import RelctlJSON

/// `relctl init` in an Expo app built with EAS: what `eas.json` says about the build numbers.
///
/// With `"cli": {"appVersionSource": "remote"}` EAS keeps the iOS build number and the Android versionCode on its
/// servers and sets them at each build: the files' values are not what is uploaded, so relctl leaves them as they
/// are (buildNumber strategy `keep`). With a local source (the default when `appVersionSource` is absent) and
/// `"autoIncrement": true` (or `"buildNumber"` / `"versionCode"`) in a build profile, EAS raises the build number in
/// the files at each build, and a relctl release would raise it too.
package struct EASBuildSettings: Sendable, Equatable {
    /// `cli.appVersionSource` is `remote`.
    package var remote: Bool
    /// The build profiles with `autoIncrement` set (true, or the name of the value it raises).
    package var autoIncrementProfiles: [String]

    /// nil without a readable `eas.json` at the root.
    package static func read(_ files: ProjectFiles, path: String = "eas.json") -> EASBuildSettings? {
        guard let text = files.readableText(path), let root = try? JSONDocument.parse(text, allowJSON5: true) else { return nil }
        let remote = root.member("cli")?.member("appVersionSource")?.stringValue == "remote"
        var profiles: [String] = []
        for member in root.member("build")?.objectMembers ?? [] {
            guard let value = member.value.member("autoIncrement") else { continue }
            if value.stringValue != nil || value.boolValue == true { profiles.append(member.key) }
        }
        return EASBuildSettings(remote: remote, autoIncrementProfiles: profiles)
    }

    /// The buildNumber strategy init writes: `keep` when EAS owns the build numbers.
    package var strategy: String { remote ? "keep" : "increment" }

    /// What init says about it: a note for `remote`, a warning for a local source with autoIncrement.
    package var note: String? {
        guard remote else { return nil }
        return "buildNumber strategy is keep: eas.json sets cli.appVersionSource to \"remote\", so EAS stores the iOS build number and the Android versionCode and sets them at each build; relctl releases change only the version"
    }

    package var warning: String? {
        guard !remote, !autoIncrementProfiles.isEmpty else { return nil }
        let profiles = autoIncrementProfiles.map { "build.\($0)" }.joined(separator: ", ")
        return "eas.json sets autoIncrement (\(profiles)) with the local app version source: EAS raises the build number in the files at each build, and relctl release raises it too, so both would move the counter; set \"cli\": {\"appVersionSource\": \"remote\"} and \"buildNumber\": {\"strategy\": \"keep\"} in .relctl.json, or remove autoIncrement"
    }
}
