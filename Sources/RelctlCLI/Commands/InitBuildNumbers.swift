import RelctlCore
import RelctlFiles

extension InitCommand {
    /// `fromVersion` when every build number the files hold is derived from the version beside it (Droidcon's
    /// 60107 for 6.1.7): its digits and the note saying so; nil otherwise. `versions`: each app's version with the
    /// files holding its builds (one app; or one per project).
    static func derivedBuildNumbers(_ apps: [(version: String, files: [FileVersions])]) -> (digits: [Int], note: String)? {
        var pairs: [(version: String, build: String)] = []
        for app in apps {
            var builds: [String] = []
            for file in app.files {
                for build in [file.iosBuild, file.androidBuild].compactMap({ $0 }) where !builds.contains(build) { builds.append(build) }
            }
            pairs += builds.map { (app.version, $0) }
        }
        guard let digits = BuildNumberGuess.fromVersionDigits(pairs) else { return nil }
        let shown = pairs.prefix(3).map { "\($0.build) for \($0.version)" }.joined(separator: ", ")
        let formula = BuildNumberGuess.formula(digits)
        return (digits, "buildNumber strategy fromVersion: the build numbers (\(shown)) are \(formula) of the version; each release derives them again")
    }

    /// One app's version and files from what init read: nil when its files hold several versions.
    static func singleApp(_ current: CurrentVersions?) -> [(version: String, files: [FileVersions])] {
        guard let current else { return [] }
        let versions = Set(current.files.compactMap(\.marketing))
        guard versions.count == 1, let version = versions.first else { return [] }
        return [(version, current.files)]
    }

    /// The `buildNumber` object init writes for `strategy` (`shared` only for increment, `digits` for fromVersion
    /// when they are not the default).
    static func buildNumberJSON(strategy: String, shared: Bool, digits: [Int]?) -> JSONOutput {
        var members: [(String, JSONOutput)] = [("strategy", .string(strategy))]
        if strategy == "increment" { members.append(("shared", .bool(shared))) }
        if strategy == "fromVersion", let digits, digits != [2, 2] { members.append(("digits", .array(digits.map { .int($0) }))) }
        return .object(members)
    }
}
