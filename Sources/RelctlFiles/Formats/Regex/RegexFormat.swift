import RelctlCore
import RelctlJSON

/// Any text file (`RegexEditor`): a pattern with a `(?<version>…)` group and an optional `(?<build>…)` group. Its
/// version is kept whole unless the pattern admits only `X.Y.Z` (the parsed file says which).
struct RegexFormat: VersionFileFormat {
    let name = FileFormat.regex
    let optionKeys: Set<String> = ["pattern", "field"]
    let marketingPlatform: StorePlatform? = nil

    func validate(_ options: FileOptions, entryPath: String, node: JSONNode, configPath: String) throws(FileEditError) {
        guard let pattern = options.pattern else {
            throw FileEditError(path: configPath, line: node.line, message: "regex entry \(entryPath) needs a \"pattern\" with a (?<version>…) group")
        }
        try RegexEditor.validate(pattern: pattern, path: configPath, line: node.member("pattern")?.line)
    }

    func label(_ location: VersionLocation) -> String { location.field.rawValue }

    func editor(_ options: FileOptions, readFile: (@Sendable (String) -> String?)?) -> any VersionEditor {
        RegexEditor(pattern: options.pattern ?? "", field: options.field ?? .marketing, source: options.patternSource)
    }

    /// A `(?<build>…)` group takes the shared build number (Android's when the platforms count separately).
    func adjust(_ target: inout VersionTarget, for file: FileVersions, builds: SyncBuilds, entries: [FileEntry]) {
        if file.locations.contains(where: { $0.field == .build }) {
            target.iosBuild = builds.ios
            target.androidBuild = builds.android
        }
        select(file.entry.options.field, in: &target, builds: builds)
    }

    /// The build group holds a build number as the App Store reads one (up to three parts).
    func checkBuildNumber(_ field: VersionField, new: String, current: String?) throws(StoreRuleViolation) {
        if field == .build {
            try StoreRules.validateIOSBuildNumber(new, current: current)
        } else {
            try checkStoreBuildNumber(field, new: new, current: current)
        }
    }
}
