import RelctlCore

/// A Java `.properties` file (`PropertiesEditor`): `gradle.properties`, `version.properties`. It writes the Gradle
/// properties a build script reads. `relctl init` adds one for the scripts that read it (`GradleFormat`).
struct PropertiesFormat: VersionFileFormat {
    let name = FileFormat.properties
    let optionKeys: Set<String> = ["versionNameKey", "versionCodeKey"]
    let marketingPlatform: StorePlatform? = .android

    func provides(_ indirection: Indirection, options: FileOptions) -> Bool {
        guard case .gradleProperty(let name) = indirection else { return false }
        return options.propertyKeys.name == name || options.propertyKeys.code == name
    }

    func editor(_ options: FileOptions, readFile: (@Sendable (String) -> String?)?) -> any VersionEditor {
        PropertiesEditor(versionNameKey: options.propertyKeys.name, versionCodeKey: options.propertyKeys.code)
    }

    /// A gradle.properties is added for the build scripts that read it, and goes with them (a version.properties
    /// stands on its own).
    func keptBeside(_ file: FileVersions, kept: [FileVersions]) -> Bool {
        file.entry.path.split(separator: "/").last != "gradle.properties"
            || kept.contains { GradleFormat.reads($0, from: file.entry) }
    }
}
