import Foundation
import RelctlCore
import RelctlFiles

/// `"buildNumber": {"source": "stores"}`: the build numbers the stores already hold, read before the next one is
/// chosen, so a team whose CI uploads builds (TestFlight, Play's internal track, EAS) never gets a number a store
/// has seen. App Store Connect: every build of the app (those of the version being released under perVersion, as
/// App Store Connect compares CFBundleVersion within one version). Google Play: every versionCode on every track
/// (in every release, drafts and halted ones included) and every uploaded bundle, through an edit deleted after.
///
/// A store that cannot be read stops the sync or release (a guessed number is worse than none) unless `--offline`
/// (`RELCTL_OFFLINE=1`), with which the files and release tags alone decide, and relctl says so as a warning.
struct StoreBuildNumbers {
    /// Set by `--offline` on next, status, sync and release (or in the environment): the stores are not read.
    static let offlineVariable = "RELCTL_OFFLINE"

    var offline = false
    /// Whether App Store Connect was read, the highest build it holds (within `iosVersion` when set).
    var iosRead = false
    var ios: String?
    var iosVersion: String?
    /// Whether Google Play was read, the highest versionCode it holds and where (`the beta track`, `an uploaded bundle`).
    var androidRead = false
    var android: String?
    var androidWhere: String?

    static func isOffline(_ environment: [String: String]) -> Bool {
        environment[offlineVariable].map { !$0.isEmpty && $0 != "0" } ?? false
    }

    /// The warning `--offline` gives when the config asks for the stores: said loudly, the number may be one a store
    /// already has.
    static func offlineWarning(_ config: Config, environment: [String: String]) -> String? {
        guard isOffline(environment), config.buildNumber.source == .stores, config.buildNumber.counts else { return nil }
        return "--offline: App Store Connect and Google Play were not read; the files and release tags alone decided the build numbers, which a store may already hold (an upload with one is refused): run without --offline before uploading"
    }

    /// Reads the stores the files carry a build number for. `version`: the version being written (its core is the
    /// App Store Connect version under perVersion).
    static func read(_ workspace: Workspace, current: CurrentVersions, version: String, environment: [String: String]) throws -> StoreBuildNumbers {
        var result = StoreBuildNumbers()
        if isOffline(environment) {
            result.offline = true
            return result
        }
        let config = workspace.config
        let setting = "'buildNumber.source' is \"stores\" in \(workspace.configDisplayPath)"
        let offlineHint = "or pass --offline to let the files and release tags alone decide"
        let carriesIOS = current.highestIOSBuild != nil
        let carriesAndroid = current.highestAndroidBuild != nil
        if carriesIOS {
            guard let bundleID = config.stores?.appStoreBundleID else {
                throw Problem("\(setting), but no 'stores.appStoreConnect.bundleId' says which app's builds to read: add \"stores\": {\"appStoreConnect\": {\"bundleId\": \"com.acme.field\"}}, \(offlineHint)")
            }
            var perVersion = false
            if case .perVersion = config.buildNumber.strategy { perVersion = true }
            let within = perVersion ? VersionParts(version).core : nil
            // Credentials that are set but unreadable (a Problem naming the variable) are said with the setting.
            let found: AppStoreConnectCredentials?
            do {
                found = try AppStoreConnectCredentials.fromEnvironment(environment, warning: { _ in })
            } catch {
                throw Problem("App Store Connect: \(error.message) (\(setting); \(offlineHint))")
            }
            guard let credentials = found else {
                throw Problem("App Store Connect: cannot read the builds of \(bundleID): no credentials (\(AppStoreConnectCredentials.keyIDVariable), \(AppStoreConnectCredentials.issuerVariable) and \(AppStoreConnectCredentials.keyVariable) or \(AppStoreConnectCredentials.keyPathVariable)), and \(setting); set them (README, \"Stores and Remote Config\"), \(offlineHint)")
            }
            do {
                let api = try AppStoreConnectAPI(credentials: credentials, environment: environment)
                let builds = try api.buildNumbers(appID: try api.appID(bundleID: bundleID), version: within)
                result.ios = BuildNumberPolicy.highest(builds.filter { VersionParts($0).numbers != nil })
            } catch {
                throw Problem("App Store Connect: cannot read the builds of \(bundleID) (\(error.url)): \(error.reason); \(setting): fix that, \(offlineHint)")
            }
            result.iosRead = true
            result.iosVersion = within
        }
        if carriesAndroid {
            guard let package = config.stores?.googlePlayPackageName else {
                throw Problem("\(setting), but no 'stores.googlePlay.packageName' says which app's versionCodes to read: add \"stores\": {\"googlePlay\": {\"packageName\": \"com.acme.field\"}}, \(offlineHint)")
            }
            let found: GoogleCredentials?
            do {
                found = try GoogleCredentials.fromEnvironment(environment, scopes: [GoogleCredentials.playScope], warning: { _ in })
            } catch {
                throw Problem("Google Play: \(error.message) (\(setting); \(offlineHint))")
            }
            guard let credentials = found else {
                throw Problem("Google Play: cannot read the versionCodes of \(package): no Google credentials (\(GoogleCredentials.keyFileVariable) or \(GoogleCredentials.tokenVariable)), and \(setting); set one (README, \"Stores and Remote Config\"), \(offlineHint)")
            }
            do {
                let api = try GooglePlayAPI(credentials: credentials, packageName: package, environment: environment)
                let (tracks, bundles) = try api.withEdit { edit throws(HTTPFailure) in
                    (try api.tracks(edit: edit), try api.bundleVersionCodes(edit: edit))
                }
                var best: (code: String, place: String)?
                func consider(_ code: String, _ place: String) {
                    guard code.isASCIIDigits, !code.isEmpty else { return }
                    if best == nil || ReleasedBuildNumbers.isHigher(code, than: best?.code) { best = (code, place) }
                }
                for track in tracks {
                    for release in track.releases {
                        for code in release.versionCodes { consider(code, "the \(track.track) track") }
                    }
                }
                for code in bundles { consider(code, "an uploaded bundle") }
                result.android = best?.code
                result.androidWhere = best?.place
            } catch {
                throw Problem("Google Play: cannot read the versionCodes of \(package) (\(error.url)): \(error.reason); \(setting): fix that, \(offlineHint)")
            }
            result.androidRead = true
        }
        return result
    }

    /// `released` raised to what the stores hold: the count goes on from the highest.
    func merged(into released: ReleasedBuildNumbers, version: String, perVersion: Bool) -> ReleasedBuildNumbers {
        var merged = released
        if let ios {
            if perVersion {
                let core = VersionParts(version).core
                if ReleasedBuildNumbers.isHigher(ios, than: merged.iosByVersion[core]?.build) {
                    merged.iosByVersion[core] = (ios, "App Store Connect")
                }
            } else if ReleasedBuildNumbers.isHigher(ios, than: merged.ios) {
                merged.ios = ios
            }
        }
        if let android, ReleasedBuildNumbers.isHigher(android, than: merged.android) {
            merged.android = android
        }
        return merged
    }

    /// Where each new build number came from, one line per platform:
    /// `iOS build: 58 (one above App Store Connect's 57 for 2.4.0)`.
    func sourceLines(ios newIOS: String?, android newAndroid: String?, current: CurrentVersions, released: ReleasedBuildNumbers?,
                     version: String, settings: BuildNumberSettings) -> [String] {
        typealias Candidate = (value: String, label: String)
        var perVersion = false
        if case .perVersion = settings.strategy { perVersion = true }
        let core = VersionParts(version).core
        var iosCandidates: [Candidate] = []
        // Under perVersion the files' build counts only when they hold this very version.
        let filesAtVersion = VersionFloor(current).held.map { VersionParts($0.value).core == core } ?? false
        if let files = current.highestIOSBuild, !perVersion || filesAtVersion { iosCandidates.append((files, "the files'")) }
        if perVersion {
            if let tagged = released?.iosByVersion[core] { iosCandidates.append((tagged.build, "release \(tagged.tag)'s")) }
        } else if let tagged = released?.ios {
            iosCandidates.append((tagged, "a release tag's"))
        }
        if let ios { iosCandidates.append((ios, "App Store Connect's")) }
        var androidCandidates: [Candidate] = []
        if let files = current.highestAndroidBuild { androidCandidates.append((files, "the files'")) }
        if let tagged = released?.android { androidCandidates.append((tagged, "a release tag's")) }
        if let android { androidCandidates.append((android, "Google Play's")) }
        if case .increment = settings.strategy, settings.shared {
            iosCandidates += androidCandidates
            androidCandidates = iosCandidates
        }
        func top(_ candidates: [Candidate]) -> Candidate? {
            // The first of equal ones: a store's number the files already hold is the files'.
            candidates.reduce(nil) { best, next in ReleasedBuildNumbers.isHigher(next.value, than: best?.value) ? next : best }
        }
        var lines: [String] = []
        let offlineText = "the files and release tags alone: --offline, the stores were not read"
        if let newIOS {
            var line = "iOS build: \(newIOS) ("
            if offline {
                line += offlineText
            } else if perVersion, top(iosCandidates) == nil {
                line += "the first of \(core): App Store Connect has no build of it"
            } else if let best = top(iosCandidates) {
                line += "one above \(best.label) \(best.value)" + (best.label == "App Store Connect's" && perVersion ? " for \(core)" : "")
                if iosRead, best.label != "App Store Connect's" {
                    line += "; App Store Connect's highest" + (iosVersion.map { " for \($0)" } ?? "") + ": " + (ios ?? "none")
                }
            }
            lines.append(line + ")")
        }
        if let newAndroid {
            var line = "Android versionCode: \(newAndroid) ("
            if offline {
                line += offlineText
            } else if let best = top(androidCandidates) {
                line += "one above \(best.label) \(best.value)" + (best.label == "Google Play's" ? androidWhere.map { ", on \($0)" } ?? "" : "")
                if androidRead, best.label != "Google Play's" {
                    line += "; Google Play's highest: " + (android.map { "\($0)" + (androidWhere.map { ", on \($0)" } ?? "") } ?? "none")
                }
            }
            lines.append(line + ")")
        }
        return lines
    }
}

extension OptionSpec {
    /// `--offline` on next, status, sync and release: with `"buildNumber": {"source": "stores"}`, the stores are not
    /// read and the files and release tags alone decide the build numbers (said as a warning).
    static let offline = flag("--offline", "With buildNumber source \"stores\": do not read the stores; the files and release tags alone decide the build numbers.")
}

extension CommandContext {
    /// The context with `RELCTL_OFFLINE=1` in its environment when `--offline` was passed.
    func offline(_ arguments: ParsedArguments) -> CommandContext {
        guard arguments.has("--offline") else { return self }
        var environment = self.environment
        environment[StoreBuildNumbers.offlineVariable] = "1"
        return CommandContext(copying: self, environment: environment)
    }

    private init(copying other: CommandContext, environment: [String: String]) {
        self.environment = environment
        output = other.output
        currentDirectory = other.currentDirectory
        ci = other.ci
        run = other.run
    }
}

extension StoreBuildNumbers {
    /// For `next` and `status`: where the next build numbers of `version` would come from (the stores read, as a
    /// release would), or why that cannot be told (`problem`). Nothing when the stores are not a source.
    static func preview(_ workspace: Workspace, version: String?) -> (lines: [String], problem: String?) {
        let config = workspace.config
        guard config.buildNumber.source == .stores, config.buildNumber.counts, !config.files.isEmpty, let version else { return ([], nil) }
        do {
            let sync = try VersionFilePlan.make(workspace, version: version, build: nil, environment: workspace.environment)
            return (sync.buildSources, nil)
        } catch let failure as Problem {
            return ([], failure.rendered() + "; 'relctl release' will refuse it")
        } catch {
            return ([], "the next build numbers cannot be told: \(error); 'relctl release' will refuse it")
        }
    }
}
