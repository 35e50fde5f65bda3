#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import RelctlCore
import RelctlJSON
import RelctlFiles

/// relctl's settings, from `.relctl.json` at the repository root (or `--config`). Every key is optional.
struct Config {
    var tagFormat = "v{version}"
    var initialVersion = SemanticVersion(major: 1, minor: 0, patch: 0)
    var bumpRules: [String: Bump] = ["feat": .minor, "fix": .patch, "perf": .patch]
    var majorOnZero = false
    /// Branches `relctl release` may release from, and what each releases (see BranchRule.swift).
    var branchRules = [BranchRule(name: "main"), BranchRule(name: "master")]
    /// The names (or `prefix*` patterns) of `branchRules`, for messages.
    var branches: [String] { branchRules.map(\.name) }
    /// Where the changelog goes (relative to the repository root); nil: no changelog.
    var changelogPath: String? = "CHANGELOG.md"
    var changelog = ChangelogSettings.default
    /// `changelog.prereleases`: whether a prerelease adds its section to the changelog (default false: its notes go
    /// only in the tag message and `--json`).
    var changelogPrereleases = false
    /// The release commit's message; `{version}` and `{tag}` are replaced.
    var commitMessage = "chore(release): {version}"
    /// What a major release does: halt (the default: write only `.major-release-pending` and stop, exit 3, until
    /// `--confirm-major`) or warn (release and warn, exit 0).
    var onMajor = OnMajor.halt

    enum OnMajor: String { case warn, halt }


    /// The file it came from, for messages; nil when relctl runs on defaults.
    var path: String?
    /// The same file as an absolute path (nil on defaults).
    var absolutePath: String?

    static let fileName = ".relctl.json"

    /// The version files (`files`) and the build-number strategy (`buildNumber`); see FilesConfig.swift.
    var files: [FileEntry] = []
    var buildNumber = BuildNumberSettings()
    /// How the app numbers releases (`versionScheme`); see VersionSchemeConfig.swift.
    var versionScheme = VersionScheme.semver
    /// The version gate's document (`gate`); see GateSettings.swift. nil: no gate configured.
    var gate: GateSettings?
    /// The app's entries in the stores (`stores`; Stores/StoresSettings.swift).
    var stores: StoresSettings?
    /// What `relctl lint` accepts (`lint`); see LintConfig.swift. `lintTypes`: the types `lint.types` adds.
    var lint = LintSettings()
    var lintTypes: [String] = []
    /// The store release notes a release writes (`storeNotes`); see StoreNotesConfig.swift. nil: none.
    var storeNotes: StoreNotesSettings?
    /// `changelog.template` and `storeNotes.template` (TemplateConfig.swift): named by parse, read by load.
    var templatePaths: [String: ConfiguredPath] = [:]
    var changelogTemplate: ConfiguredTemplate?
    /// Every path the config names, with its key and line (ConfiguredPath.swift).
    var paths: [ConfiguredPath] = []
    /// `projects`: the apps of a repository that holds several (ProjectsConfig.swift); empty: one app at the root.
    var projects: [Project] = []
    /// `forge`: where `release --push` makes the release object (Forge/ForgeSettings.swift); nil: from the remote's URL.
    var forgeSettings: ForgeSettings?
}

extension Config {
    static let knownKeys = ["tagFormat", "initialVersion", "bumpRules", "majorOnZero",
                            "branches", "changelog", "commitMessage", "onMajor", "versionScheme", "lint", "projects"]

    /// Loads the config: an explicit path must exist; the default `.relctl.json` may be absent (defaults apply).
    static func load(explicitPath: String?, repositoryRoot: String?, currentDirectory: String) throws -> Config {
        let path: String
        if let explicitPath {
            path = LexicalPath.join(currentDirectory, explicitPath)
            guard FileManager.default.fileExists(atPath: path) else {
                throw Problem("config file '\(explicitPath)' does not exist; check the --config path")
            }
        } else {
            guard let root = repositoryRoot else { return Config() }
            path = LexicalPath.join(root, fileName)
            guard FileManager.default.fileExists(atPath: path) else { return Config() }
        }
        let display = explicitPath ?? fileName
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem("\(display): cannot read the config file; check its permissions")
        }
        var config = try parse(String(decoding: data, as: UTF8.self), path: display)
        config.absolutePath = path
        if let repositoryRoot {
            try config.checkPathsInside(root: repositoryRoot)
            try config.loadTemplates(root: repositoryRoot)
            try config.checkProjectFolders(root: repositoryRoot)
        }
        return config
    }

    /// Parses and validates config text; `path` names the file in messages.
    static func parse(_ text: String, path: String) throws(Problem) -> Config {
        let root: JSONNode
        do {
            root = try JSONDocument.parse(text, allowJSON5: false)
        } catch {
            throw Problem("not valid JSON: \(error.message) (column \(error.column))", at: DiagnosticLocation(path: path, line: error.line))
        }
        let object = try StrictObject(root, path: path)
        try object.rejectUnknownKeys(knownKeys + versionFileKeys + gateKeys + storeNotesKeys + storesKeys + forgeKeys)
        var config = Config()
        config.path = path
        try config.parseVersionFileKeys(object)
        if let (format, node) = try object.string("tagFormat") {
            let parsed: TagFormat
            do {
                parsed = try TagFormat(format)
            } catch {
                throw object.error(node, "'tagFormat' \(error); write it like \"v{version}\" or \"app-v{version}\" (or \"v{version}.{build}\" for tags carrying the build number)")
            }
            if parsed.carriesBuild, config.files.isEmpty {
                throw object.error(node, "'tagFormat' \"\(format)\" puts the build number in the tag, but 'files' lists no version file to read it from; list the app's version files (relctl init detects them), or drop {build}")
            }
            config.tagFormat = format
        }
        if let (text, node) = try object.string("initialVersion") {
            do {
                if object.node.member("versionScheme")?.stringValue == VersionScheme.majorMinorName, let twoPart = TwoPartVersion(text) {
                    config.initialVersion = twoPart.semantic   // "1.0" under major.minor
                } else {
                    config.initialVersion = try SemanticVersion.parse(text)
                }
            } catch {
                throw object.error(node, "'initialVersion' is \(error); use a version like \"1.0.0\" or \"0.1.0\"")
            }
            guard config.initialVersion.isStable else {
                throw object.error(node, "'initialVersion' \"\(text)\" is a prerelease; prerelease tags are never a release base, so relctl would propose it again and again: use a stable version like \"0.1.0\"")
            }
        }
        if let rules = try object.object("bumpRules") {
            var given: [String: Bump] = [:]
            for member in rules.node.objectMembers ?? [] {
                guard let name = member.value.stringValue, let bump = Bump(name: name) else {
                    throw object.error(member.value, "'bumpRules.\(member.key)' must be one of \"major\", \"minor\", \"patch\", \"none\"")
                }
                // Types compare case-insensitively; "feat" and "FEAT" both given: the larger bump wins.
                given[member.key.lowercased()] = max(given[member.key.lowercased()] ?? .none, bump)
            }
            config.bumpRules.merge(given) { _, new in new }
        }
        if let flag = try object.bool("majorOnZero") { config.majorOnZero = flag }
        try parseReleaseKeys(object, into: &config)
        try config.parseVersionScheme(object)
        try config.parseGate(object)
        try config.parseStores(object)
        try config.parseLint(object)
        try config.parseStoreNotes(object)
        try config.parseForge(object)
        try config.parseProjects(object)
        return config
    }

    var releaseRules: ReleaseRules {
        ReleaseRules(bumpForType: bumpRules, majorOnZero: majorOnZero)
    }
}

