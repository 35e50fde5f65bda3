import Foundation
import RelctlCore
import RelctlFiles

/// relctl's settings, from `.relctl.json` at the repository root (or `--config`). Every key is optional.
struct Config {
    var tagFormat = "v{version}"
    var initialVersion = SemanticVersion(major: 1, minor: 0, patch: 0)
    var bumpRules: [String: Bump] = ["feat": .minor, "fix": .patch, "perf": .patch]
    var majorOnZero = false
    /// Branches `relctl release` may release from.
    var branches = ["main", "master"]
    /// Where the changelog goes (relative to the repository root); nil: no changelog.
    var changelogPath: String? = "CHANGELOG.md"
    var changelog = ChangelogSettings.default
    /// The release commit's message; `{version}` and `{tag}` are replaced.
    var commitMessage = "chore(release): {version}"
    /// What a major release does: warn (release, exit 0) or halt (stop before any write, exit 3).
    var onMajor = OnMajor.warn

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
}

/// A config mistake: `file:line: error: …`, exit 1, and a hint on how to fix it.
struct ConfigError: Error {
    let path: String
    let line: Int?
    let message: String

    var failure: CLIFailure {
        CLIFailure(message: "\(path)\(line.map { ":\($0)" } ?? ""): \(message)")
    }
}

/// Reads the keys of one JSON object strictly: each known key once, with the right type; anything else an error.
struct StrictObject {
    let node: JSONNode
    let path: String
    /// Where this object sits ("" for the root, "buildNumber." for a nested one), for messages.
    let prefix: String

    init(_ node: JSONNode, path: String, prefix: String = "") throws(ConfigError) {
        guard node.objectMembers != nil else {
            throw ConfigError(path: path, line: node.line, message: "\(prefix.isEmpty ? "the config" : "'\(prefix.dropLast())'") must be a JSON object, not \(Self.article(node.typeName))")
        }
        self.node = node
        self.path = path
        self.prefix = prefix
    }

    static func article(_ typeName: String) -> String {
        (["a", "e", "i", "o", "u"].contains(typeName.prefix(1)) ? "an " : "a ") + typeName
    }

    /// Fails on the first key not in `known`, naming the key, its line and the keys that exist.
    func rejectUnknownKeys(_ known: [String]) throws(ConfigError) {
        for member in node.objectMembers ?? [] where !known.contains(member.key) {
            let suggestion = known.min { editDistance($0, member.key) < editDistance($1, member.key) }
            var message = "unknown key '\(prefix)\(member.key)'"
            if let suggestion, editDistance(suggestion, member.key) <= 2 {
                message += "; did you mean '\(prefix)\(suggestion)'?"
            } else {
                message += "; known keys: \(known.map { prefix + $0 }.joined(separator: ", "))"
            }
            throw ConfigError(path: path, line: member.keyLine, message: message)
        }
    }

    func wrongType(_ key: String, _ node: JSONNode, expected: String) -> ConfigError {
        ConfigError(path: path, line: node.line,
                    message: "'\(prefix)\(key)' must be \(expected), not \(Self.article(node.typeName))")
    }

    func string(_ key: String) throws(ConfigError) -> (String, JSONNode)? {
        guard let value = node.member(key) else { return nil }
        guard let text = value.stringValue else { throw wrongType(key, value, expected: "a string") }
        return (text, value)
    }

    func bool(_ key: String) throws(ConfigError) -> Bool? {
        guard let value = node.member(key) else { return nil }
        guard let flag = value.boolValue else { throw wrongType(key, value, expected: "true or false") }
        return flag
    }

    func object(_ key: String) throws(ConfigError) -> StrictObject? {
        guard let value = node.member(key) else { return nil }
        guard value.objectMembers != nil else { throw wrongType(key, value, expected: "an object") }
        return try StrictObject(value, path: path, prefix: prefix + key + ".")
    }

    func array(_ key: String) throws(ConfigError) -> [JSONNode]? {
        guard let value = node.member(key) else { return nil }
        guard let items = value.arrayValue else { throw wrongType(key, value, expected: "an array") }
        return items
    }

    func error(_ node: JSONNode, _ message: String) -> ConfigError {
        ConfigError(path: path, line: node.line, message: message)
    }
}

extension Config {
    static let knownKeys = ["tagFormat", "initialVersion", "bumpRules", "majorOnZero",
                            "branches", "changelog", "commitMessage", "onMajor", "versionScheme"]

    /// Loads the config: an explicit path must exist; the default `.relctl.json` may be absent (defaults apply).
    static func load(explicitPath: String?, repositoryRoot: String?, currentDirectory: String) throws(CLIFailure) -> Config {
        let path: String
        if let explicitPath {
            path = LexicalPath.join(currentDirectory, explicitPath)
            guard FileManager.default.fileExists(atPath: path) else {
                throw CLIFailure(message: "config file '\(explicitPath)' does not exist; check the --config path")
            }
        } else {
            guard let root = repositoryRoot else { return Config() }
            path = root + "/" + fileName
            guard FileManager.default.fileExists(atPath: path) else { return Config() }
        }
        let display = explicitPath ?? fileName
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIFailure(message: "\(display): cannot read the config file; check its permissions")
        }
        do {
            var config = try parse(String(decoding: data, as: UTF8.self), path: display)
            config.absolutePath = path
            return config
        } catch {
            throw error.failure
        }
    }

    /// Parses and validates config text; `path` names the file in messages.
    static func parse(_ text: String, path: String) throws(ConfigError) -> Config {
        let root: JSONNode
        do {
            root = try JSONDocument.parse(text, allowJSON5: false)
        } catch {
            throw ConfigError(path: path, line: error.line, message: "not valid JSON: \(error.message) (column \(error.column))")
        }
        let object = try StrictObject(root, path: path)
        try object.rejectUnknownKeys(knownKeys + versionFileKeys)
        var config = Config()
        config.path = path
        try config.parseVersionFileKeys(object)
        if let (format, node) = try object.string("tagFormat") {
            do {
                _ = try TagFormat(format)
            } catch {
                throw object.error(node, "'tagFormat' \(error); write it like \"v{version}\" or \"app-v{version}\"")
            }
            config.tagFormat = format
        }
        if let (text, node) = try object.string("initialVersion") {
            do {
                config.initialVersion = try SemanticVersion.parse(text)
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
        return config
    }

    var releaseRules: ReleaseRules {
        ReleaseRules(bumpForType: bumpRules, majorOnZero: majorOnZero)
    }
}

/// Levenshtein distance, for "did you mean" suggestions on short keys.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.lowercased()), b = Array(b.lowercased())
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}

extension Config {
    /// The keys of `relctl release`: branches, changelog, commitMessage, onMajor.
    static func parseReleaseKeys(_ object: StrictObject, into config: inout Config) throws(ConfigError) {
        if let items = try object.array("branches") {
            var names: [String] = []
            for item in items {
                guard let name = item.stringValue, !name.isEmpty else {
                    throw object.error(item, "'branches' must list branch names as strings, like [\"main\", \"release/*\"]")
                }
                names.append(name)
            }
            guard !names.isEmpty else { throw object.error(object.node.member("branches")!, "'branches' is empty; list at least one release branch") }
            config.branches = names
        }
        if let (message, node) = try object.string("commitMessage") {
            guard message.contains("{version}") || message.contains("{tag}"), !message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw object.error(node, "'commitMessage' must contain {version} or {tag}, like \"chore(release): {version}\"")
            }
            config.commitMessage = message
        }
        if let (text, node) = try object.string("onMajor") {
            guard let mode = OnMajor(rawValue: text) else {
                throw object.error(node, "'onMajor' must be \"warn\" (release and warn) or \"halt\" (stop until --confirm-major)")
            }
            config.onMajor = mode
        }
        if let node = object.node.member("changelog") {
            if node.boolValue == false {
                config.changelogPath = nil
            } else {
                guard node.objectMembers != nil else {
                    throw object.wrongType("changelog", node, expected: "an object or false")
                }
                let settings = try StrictObject(node, path: object.path, prefix: "changelog.")
                try settings.rejectUnknownKeys(["path", "groups", "breakingTitle", "revertsTitle"])
                if let (path, pathNode) = try settings.string("path") {
                    guard !path.isEmpty, !path.hasPrefix("/"), !path.split(separator: "/").contains("..") else {
                        throw settings.error(pathNode, "'changelog.path' must be a path inside the repository, like \"CHANGELOG.md\"")
                    }
                    config.changelogPath = path
                }
                if let (title, _) = try settings.string("breakingTitle") { config.changelog.breakingChangesTitle = title }
                if let value = settings.node.member("revertsTitle") {
                    if value.isNull { config.changelog.revertsTitle = nil }
                    else if let title = value.stringValue { config.changelog.revertsTitle = title }
                    else { throw settings.wrongType("revertsTitle", value, expected: "a string or null") }
                }
                if let groups = try settings.array("groups") {
                    var result: [ChangelogGroup] = []
                    for group in groups {
                        let g = try StrictObject(group, path: object.path, prefix: "changelog.groups[].")
                        try g.rejectUnknownKeys(["title", "types"])
                        guard let (title, _) = try g.string("title") else {
                            throw g.error(group, "each 'changelog.groups' entry needs a \"title\"")
                        }
                        let types = try g.array("types") ?? []
                        let names = types.compactMap(\.stringValue)
                        guard !names.isEmpty, names.count == types.count else {
                            throw g.error(group, "'changelog.groups' entry \"\(title)\" needs \"types\": a non-empty list of commit types")
                        }
                        result.append(ChangelogGroup(title: title, types: names.map { $0.lowercased() }))
                    }
                    config.changelog.groups = result
                }
            }
        }
    }
}
