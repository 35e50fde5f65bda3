import RelctlCore
import RelctlJSON

/// A Gradle version catalog, `gradle/libs.versions.toml` (`VersionCatalogEditor`): the `[versions]` keys a build
/// script reads as `libs.versions.<alias>.get()`. `relctl init` adds it for the scripts that read it (`GradleFormat`).
struct VersionCatalogFormat: VersionFileFormat {
    let name = FileFormat.versionCatalog
    let optionKeys: Set<String> = ["versionNameKey", "versionCodeKey"]
    let marketingPlatform: StorePlatform? = .android

    /// The keys are the catalog's own: there is no default to fall back to.
    func validate(_ options: FileOptions, entryPath: String, node: JSONNode, configPath: String) throws(FileEditError) {
        if options.versionNameKey == nil && options.versionCodeKey == nil {
            throw FileEditError(path: configPath, line: node.line,
                                message: "version-catalog entry \(entryPath) needs \"versionNameKey\" or \"versionCodeKey\"",
                                hint: "the keys of its [versions] table the build script reads, e.g. \"versionNameKey\": \"appVersionName\" for libs.versions.appVersionName")
        }
    }

    /// `libs.versions.app.version` is read from the key `app-version`, `app_version` or `app.version`.
    func provides(_ indirection: Indirection, options: FileOptions) -> Bool {
        guard case .versionCatalog(let alias) = indirection else { return false }
        let wanted = VersionCatalogEditor.alias(alias)
        return [options.versionNameKey, options.versionCodeKey].contains { $0.map(VersionCatalogEditor.alias) == wanted }
    }

    func editor(_ options: FileOptions, readFile: (@Sendable (String) -> String?)?) -> any VersionEditor {
        VersionCatalogEditor(versionNameKey: options.versionNameKey, versionCodeKey: options.versionCodeKey)
    }

    /// Added for the build scripts that read it, and goes with them.
    func keptBeside(_ file: FileVersions, kept: [FileVersions]) -> Bool {
        kept.contains { GradleFormat.reads($0, from: file.entry) }
    }
}
