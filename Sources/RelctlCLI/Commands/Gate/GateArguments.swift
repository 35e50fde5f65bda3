import VersionGate

/// The options and arguments the `relctl gate` subcommands share, read one way.
enum GateArguments {
    static let platform = OptionSpec.value(
        "--platform", "NAME", "ios or android (a platform of 'gate.platforms'): that platform's own value (its condition).",
        completion: .words(["ios", "android"]))

    /// `--platform`, checked against the gate's platforms; nil when not given.
    static func platform(_ arguments: ParsedArguments, settings: GateSettings, usage: String) throws -> GatePlatform? {
        guard let name = arguments.value("--platform") else { return nil }
        let platform = GatePlatform(name)
        guard settings.platforms.contains(where: { $0.platform == platform }) else {
            let names = settings.platformNames
            let near = GateCheck.nearest(platform.rawValue, among: names).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError(message: "'\(name)' is not a platform of the gate (\(names.joined(separator: ", ")))\(near)", usage: usage)
        }
        return platform
    }

    /// A version given on the command line: dot-separated numbers (`2.3.0`, `2.3`; a `+build` is allowed and
    /// ignored, as the app ignores it).
    static func version(_ text: String, _ what: String, usage: String) throws -> GateVersion {
        let version = GateVersion(text)
        guard version.isWellFormed, version.hasNumber else {
            throw UsageError(message: "\(what) '\(text)' is not a version; give dot-separated numbers like 2.3.0", usage: usage)
        }
        return version
    }

    /// A version as an app or a store reports it (`gate evaluate`'s installed version, `--dismissed`,
    /// `--store-version`): anything the app's library can compare, which is any text with a number in one of
    /// its dot-separated parts (`2.1.0-beta.1`, `2.4 (283)`, ` 3.6`); read as the library reads it.
    static func reportedVersion(_ text: String, _ what: String, usage: String) throws -> GateVersion {
        let version = GateVersion(text)
        guard version.hasNumber else {
            throw UsageError(message: "\(what) '\(text)' has no number in it; give the version the app reports, like 2.3.0", usage: usage)
        }
        return version
    }

    /// An optional reported version option (`--dismissed`, `--store-version`).
    static func reportedVersion(option name: String, _ arguments: ParsedArguments, usage: String) throws -> GateVersion? {
        try arguments.value(name).map { try reportedVersion($0, name, usage: usage) }
    }

    /// An optional version option (`--min`, `--latest`).
    static func version(option name: String, _ arguments: ParsedArguments, usage: String) throws -> GateVersion? {
        try arguments.value(name).map { try version($0, name, usage: usage) }
    }
}
