import RelctlCore
import RelctlJSON
import RelctlFiles

// The version-file keys of `.relctl.json`: `files` and `buildNumber`. Kept apart from Config.swift so the
// keys of other commands can grow there without touching this file.

/// `buildNumber` of `.relctl.json`: how `relctl sync` (and `relctl release`) choose the next build numbers.
struct BuildNumberSettings: Sendable, Hashable {
    var strategy: BuildNumberStrategy = .increment
    /// One counter for iOS and Android (only meaningful with `increment`).
    var shared = true
    /// Line of the `buildNumber` key, for messages about the strategy; nil when the defaults apply.
    var line: Int?
    /// The largest move of a build number one sync may make (`maxJump`; 0: no limit). See `BuildNumberJump`.
    var maxJump = BuildNumberJump.defaultLimit
    /// Where the count goes on from: the files and release tags (`files`, the default), or those and the stores'
    /// own build numbers (`stores`: App Store Connect's builds, every Google Play track and bundle).
    var source: BuildNumberSource = .files

    static let strategyNames = ["increment", "perVersion", "fromVersion", "env", "keep"]

    var strategyName: String {
        switch strategy {
        case .increment: return "increment"
        case .fromVersion: return "fromVersion"
        case .env: return "env"
        case .keep: return "keep"
        case .perVersion: return "perVersion"
        }
    }

    /// Whether the strategy counts up from the build numbers the files and the release tags hold.
    var counts: Bool {
        switch strategy {
        case .increment, .perVersion: true
        default: false
        }
    }

    /// "increment (shared)", "env GITHUB_RUN_NUMBER + 1000", for messages.
    var summary: String {
        switch strategy {
        case .increment: return shared ? "increment (one counter for iOS and Android)" : "increment (iOS and Android counted separately)"
        case .fromVersion(let digits, let pre):
            return "fromVersion (digits \(digits.map(String.init).joined(separator: ","))\(pre > 0 ? ", prereleaseDigits \(pre)" : ""))"
        case .env(let name, let offset): return "env \(name)\(offset == 0 ? "" : offset > 0 ? " + \(offset)" : " - \(offset.magnitude)")"
        case .keep: return "keep (build numbers are not changed)"
        case .perVersion(let start): return "perVersion (iOS builds start at \(start) for each version, Android's versionCode counts up)"
        }
    }
}

/// `buildNumber.source`.
enum BuildNumberSource: String, Sendable, Hashable {
    case files, stores
}

extension Config {
    static let versionFileKeys = ["files", "buildNumber"]

    /// Reads `files` and `buildNumber` from the config's root object.
    mutating func parseVersionFileKeys(_ object: StrictObject) throws(Problem) {
        if let items = try object.array("files") {
            var seen: [String: Int] = [:]
            var entries: [FileEntry] = []
            for (index, item) in items.enumerated() {
                let entry: FileEntry
                do {
                    entry = try FileEntry(from: item, configPath: object.path)
                } catch {
                    throw Problem("'files': " + error.message + (error.hint.map { " (\($0))" } ?? ""), at: DiagnosticLocation(path: object.path, line: error.line))
                }
                if let first = seen[entry.path] {
                    throw object.error(item, "'files': \(entry.path) is listed twice (also at line \(first)); keep one entry per file")
                }
                seen[entry.path] = item.line
                let pathLine = item.member("path")?.line ?? item.line
                _ = try Config.repositoryPath(entry.path, key: "files[\(index)].path", line: pathLine, configPath: object.path, example: "app.json")
                record(entry.path, key: "files[\(index)].path", line: pathLine)
                entries.append(entry)
            }
            files = entries
        }
        if let settings = try object.object("buildNumber") {
            buildNumber = try BuildNumberSettings(settings)
        }
    }
}

extension BuildNumberSettings {
    static let keys = ["strategy", "shared", "variable", "offset", "digits", "prereleaseDigits", "maxJump", "start", "source"]
    /// The strategy each option belongs to.
    static let keyStrategy = ["shared": "increment", "variable": "env", "offset": "env",
                              "digits": "fromVersion", "prereleaseDigits": "fromVersion", "start": "perVersion"]

    /// Strict decoding of `{"strategy": "env", "variable": "GITHUB_RUN_NUMBER", "offset": 1000}`.
    init(_ object: StrictObject) throws(Problem) {
        try object.rejectUnknownKeys(Self.keys)
        line = object.node.line
        var name = "increment"
        if let (given, node) = try object.string("strategy") {
            let text = given == "per-version" ? "perVersion" : given
            guard Self.strategyNames.contains(text) else {
                let close = Self.strategyNames.first { editDistance($0, text) <= 2 }
                throw object.error(node, "'buildNumber.strategy' is \"\(text)\""
                    + (close.map { "; did you mean \"\($0)\"?" } ?? "; use one of \"increment\", \"perVersion\", \"fromVersion\", \"env\", \"keep\""))
            }
            name = text
        }
        for member in object.node.objectMembers ?? [] {
            if let owner = Self.keyStrategy[member.key], owner != name {
                throw Problem("'buildNumber.\(member.key)' applies only to strategy \"\(owner)\", not \"\(name)\"; remove it or set \"strategy\": \"\(owner)\"", at: DiagnosticLocation(path: object.path, line: member.keyLine))
            }
        }
        if let flag = try object.bool("shared") { shared = flag }
        if let (given, node) = try object.string("source") {
            guard let value = BuildNumberSource(rawValue: given) else {
                throw object.error(node, "'buildNumber.source' is \"\(given)\"; use \"files\" (the files and release tags, the default) or \"stores\" (those and App Store Connect's and Google Play's own build numbers)")
            }
            guard value == .files || name == "increment" || name == "perVersion" else {
                throw object.error(node, "'buildNumber.source' \"stores\" applies only to strategy \"increment\" or \"perVersion\" (the ones that count up), not \"\(name)\"; remove it or set \"strategy\": \"increment\"")
            }
            source = value
        }
        if let (n, node) = try object.int("maxJump") {
            guard n >= 0 else {
                throw object.error(node, "'buildNumber.maxJump' must be 0 (no limit) or a positive whole number, not \(n)")
            }
            maxJump = n
        }
        switch name {
        case "fromVersion":
            var digits = [2, 2]
            if let items = try object.array("digits") {
                guard (1...3).contains(items.count) else {
                    throw object.error(object.node.member("digits") ?? object.node, "'buildNumber.digits' needs 1 to 3 numbers (digits of minor, patch[, a fourth part]), e.g. [2, 2]")
                }
                digits = []
                for item in items {
                    guard let n = item.intValue, (1...6).contains(n) else {
                        throw object.error(item, "'buildNumber.digits' entries must be whole numbers from 1 to 6 (digits per version part), not \(item.numberText ?? StrictObject.article(item.typeName))")
                    }
                    digits.append(n)
                }
            }
            var prerelease = 0
            if let (n, node) = try object.int("prereleaseDigits") {
                guard (0...6).contains(n) else {
                    throw object.error(node, "'buildNumber.prereleaseDigits' must be from 0 to 6, not \(n)")
                }
                prerelease = n
            }
            // With 10 digits after the major, version 1.0.0 already exceeds Google Play's 2100000000.
            let width = digits.reduce(0, +) + prerelease
            if width >= 10 {
                throw object.error(object.node.member("digits") ?? object.node,
                                   "'buildNumber.digits' and 'prereleaseDigits' add up to \(width) digits after the major version, so every build number would exceed Google Play's 2100000000; use 9 or fewer")
            }
            strategy = .fromVersion(digits: digits, prereleaseDigits: prerelease)
        case "env":
            guard let (variable, node) = try object.string("variable") else {
                throw object.error(object.node, "'buildNumber.variable' is required with strategy \"env\": the environment variable holding the build number, e.g. \"GITHUB_RUN_NUMBER\"")
            }
            guard !variable.isEmpty, variable.allSatisfy({ $0 == "_" || $0.isASCIILetterOrDigit }),
                  !(variable.first?.isASCIIDigit ?? true) else {
                throw object.error(node, "'buildNumber.variable' \"\(variable)\" is not an environment variable name (letters, digits and _), e.g. \"GITHUB_RUN_NUMBER\"")
            }
            let offset = try object.int("offset")?.0 ?? 0
            strategy = .env(name: variable, offset: offset)
        case "keep":
            strategy = .keep
        case "perVersion":
            var start = 1
            if let (n, node) = try object.int("start") {
                guard n >= 0 else {
                    throw object.error(node, "'buildNumber.start' must be 0 or a positive whole number (the first iOS build of each version, usually 1 or 0), not \(n)")
                }
                start = n
            }
            strategy = .perVersion(start: start)
        default:
            strategy = .increment
        }
    }
}

extension StrictObject {
    /// A whole number that fits an `Int`.
    func int(_ key: String) throws(Problem) -> (Int, JSONNode)? {
        guard let value = node.member(key) else { return nil }
        guard let n = value.intValue else {
            if let text = value.numberText {
                throw error(value, "'\(prefix)\(key)' must be a whole number, not \(text)")
            }
            throw wrongType(key, value, expected: "a whole number")
        }
        return (n, value)
    }
}
