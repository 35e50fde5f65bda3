import Foundation
import VersionGate
import RelctlCore

/// Before the minimum rises: each store the app ships to (`stores` in .relctl.json, and the older `gate.appStore`)
/// must serve a version not older than the new minimum to every user. Raising the floor above what a store offers
/// blocks users with nothing to install, so relctl refuses while a store lags, and when it cannot ask one (no
/// credentials, a network error, a 5xx after the retries): the check fails closed, the opposite of the app's
/// fail-open, on purpose. `--unverified STORE` is a person's override, recorded in the commit message.
enum StoreLiveCheck {
    enum Store: String, CaseIterable {
        case appStore = "app-store"
        case googlePlay = "google-play"

        var title: String { self == .appStore ? "the App Store" : "Google Play" }
    }

    struct Options {
        var allowStagedRollout = false
        var unverified: Set<Store> = []

        /// `--unverified app-store,google-play` and `--allow-staged-rollout`.
        static func parse(_ arguments: ParsedArguments, usage: String) throws -> Options {
            var options = Options(allowStagedRollout: arguments.has("--allow-staged-rollout"))
            for name in (arguments.value("--unverified") ?? "").split(separator: ",", omittingEmptySubsequences: false) where arguments.value("--unverified") != nil {
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                guard let store = Store(rawValue: trimmed) else {
                    throw UsageError(message: "--unverified '\(trimmed)' is not a store; give app-store, google-play or both (app-store,google-play)", usage: usage)
                }
                options.unverified.insert(store)
            }
            return options
        }
    }

    /// The stores to check for `platform` (nil: every platform).
    static func stores(_ workspace: Workspace, gate: GateSettings, platform: GatePlatform?) -> [Store] {
        var list: [Store] = []
        if platform != .android, workspace.config.stores?.appStoreBundleID != nil || gate.appStore != nil { list.append(.appStore) }
        if platform != .ios, workspace.config.stores?.googlePlayPackageName != nil { list.append(.googlePlay) }
        return list
    }

    /// Checks every store the raise concerns; the lines say what was verified and how, for the commit message.
    static func verify(_ workspace: Workspace, gate: GateSettings, platform: GatePlatform?, minimum: GateVersion,
                       options: Options, environment: [String: String], warning: (String) -> Void) throws -> [String] {
        let stores = stores(workspace, gate: gate, platform: platform)
        for store in options.unverified where !stores.contains(store) {
            throw Problem("--unverified \(store.rawValue): \(store.title) is not checked for this raise (\(store == .appStore ? "no 'stores.appStoreConnect' or 'gate.appStore' in .relctl.json, or --platform android" : "no 'stores.googlePlay' in .relctl.json, or --platform ios")); leave it out")
        }
        var lines: [String] = []
        for store in stores {
            if options.unverified.contains(store) {
                lines.append("\(store.title): NOT verified by relctl; a person confirmed \(minimum) is live (--unverified \(store.rawValue))")
                continue
            }
            switch store {
            case .appStore: lines.append(try appStore(workspace, gate: gate, minimum: minimum, environment: environment, warning: warning))
            case .googlePlay: lines.append(try googlePlay(workspace, minimum: minimum, options: options, environment: environment, warning: warning))
            }
        }
        return lines
    }

    private static func cannotCheck(_ store: Store, _ minimum: GateVersion, _ why: String) -> Problem {
        Problem("cannot check \(store.title): \(why); relctl does not raise the minimum without knowing that \(minimum) is live there: rerun once it answers, or, having checked yourself, rerun with --unverified \(store.rawValue)")
    }

    // MARK: App Store

    static func appStore(_ workspace: Workspace, gate: GateSettings, minimum: GateVersion, environment: [String: String],
                         warning: (String) -> Void) throws -> String {
        let bundleID = workspace.config.stores?.appStoreBundleID ?? gate.appStore!.bundleID
        let credentials: AppStoreConnectCredentials?
        do {
            credentials = try AppStoreConnectCredentials.fromEnvironment(environment, warning: warning)
        } catch {
            throw cannotCheck(.appStore, minimum, error.message)
        }
        guard let credentials else {
            let lookup = GateSettings.AppStoreSettings(bundleID: bundleID, country: gate.appStore?.country)
            return "Apple's public lookup (no App Store Connect credentials): " + (try confirm(lookup, minimum: minimum, environment: environment))
        }
        let versions: [AppStoreConnectAPI.AppStoreVersion]
        do {
            let api = try AppStoreConnectAPI(credentials: credentials, environment: environment)
            versions = try api.versions(appID: try api.appID(bundleID: bundleID))
        } catch {
            throw cannotCheck(.appStore, minimum, "App Store Connect (\(error.url)): \(error.reason)")
        }
        let live = versions.filter(\.isLive).sorted { GateVersion($0.versionString) > GateVersion($1.versionString) }
        if let newest = live.first, GateVersion(newest.versionString) >= minimum {
            return "App Store Connect: \(bundleID) \(newest.versionString) is \(newest.state)"
                + (newest.phasedReleaseState.map { " (phased release \($0))" } ?? " (no phased release)")
        }
        let pending = versions.filter { !$0.isLive && GateVersion($0.versionString) >= minimum }
            .map { "\($0.versionString) is \($0.state)" }
        let liveText = live.first.map { "the live version is \($0.versionString)" } ?? "no version is live"
        throw Problem("App Store Connect: no version ≥ \(minimum) of \(bundleID) is READY_FOR_SALE (\((pending + [liveText]).joined(separator: "; "))): raising the minimum now would block users below \(minimum) with nothing to install; wait until \(minimum) is live and rerun")
    }

    /// Apple's public lookup, used when no App Store Connect credentials are set: "the App Store (us) lists 3.0.0".
    static func confirm(_ store: GateSettings.AppStoreSettings, minimum: GateVersion, environment: [String: String]) throws -> String {
        let answer: AppStoreClient.Answer
        let storeName = "the App Store" + (store.country.map { " (\($0))" } ?? "")
        do {
            answer = try AppStoreClient.lookup(bundleID: store.bundleID, country: store.country, environment: environment)
        } catch {
            throw Problem("cannot ask \(storeName) which version of \(store.bundleID) is live (\(error.url): \(error.reason)); relctl does not raise the minimum without knowing that \(minimum) is listed: rerun once the lookup answers")
        }
        switch answer.listing {
        case .listed(let version, _) where version < minimum:
            throw Problem("\(storeName) lists \(version) of \(store.bundleID), older than \(minimum): raising the minimum now would block users below \(minimum) with nothing to install; wait until \(minimum) is live (App Store Connect: Ready for Distribution) and rerun")
        case .listed(let version, _):
            return "\(storeName) lists \(version)"
        case .unavailable where answer.unreadableVersion != nil:
            throw Problem("\(storeName) answered a version of \(store.bundleID) that is not a version (\"\(answer.unreadableVersion!)\", with control characters) (\(answer.url)); relctl does not raise the minimum on it: rerun once the lookup answers a plain version")
        case .unavailable where !answer.otherApps.isEmpty:
            throw Problem("\(storeName) answered for another app (\(answer.otherApps.joined(separator: ", "))), not \(store.bundleID) (\(answer.url)); relctl does not raise the minimum on another app's listing: check 'gate.appStore.bundleId' in .relctl.json and the lookup URL (\(AppStoreClient.baseURLVariable))")
        case .unavailable, .notConfigured:
            throw Problem("\(storeName) lists no version of \(store.bundleID) (\(answer.url)); raising the minimum now could block users with nothing to install: check 'gate.appStore.bundleId' and 'country' in .relctl.json, or wait until the app is listed")
        }
    }

    // MARK: Google Play

    /// The versionCodes relctl's release tags of versions ≥ `minimum` shipped, read from the version files at each
    /// tag: code → tag.
    static func shippedCodes(_ workspace: Workspace, minimum: GateVersion) throws -> [(code: String, tag: String)] {
        let tags = Set(try workspace.releaseTags().released.filter { $0.gateVersion >= minimum }.map(\.tag))
        let byTag = try workspace.releasedBuildNumbers().androidByTag
        return byTag.filter { tags.contains($0.key) }.map { (code: $0.value, tag: $0.key) }
            .sorted { (Int($0.code) ?? 0) > (Int($1.code) ?? 0) }
    }

    static func googlePlay(_ workspace: Workspace, minimum: GateVersion, options: Options, environment: [String: String],
                           warning: (String) -> Void) throws -> String {
        let packageName = workspace.config.stores!.googlePlayPackageName!
        let shipped = try shippedCodes(workspace, minimum: minimum)
        guard !shipped.isEmpty else {
            throw Problem("no release tag of a version ≥ \(minimum) holds an Android versionCode in the version files, so relctl cannot tell which Google Play release is \(minimum); list the file holding versionCode in 'files', or, having checked yourself, rerun with --unverified google-play")
        }
        let credentials: GoogleCredentials?
        do {
            credentials = try GoogleCredentials.fromEnvironment(environment, scopes: [GoogleCredentials.playScope], warning: warning)
        } catch {
            throw cannotCheck(.googlePlay, minimum, error.message)
        }
        guard let credentials else {
            throw cannotCheck(.googlePlay, minimum, "no Google credentials are set (\(GoogleCredentials.keyFileVariable), a service account's key, or \(GoogleCredentials.tokenVariable); README, \"Stores and Remote Config\")")
        }
        let track: GooglePlayAPI.Track
        do {
            let api = try GooglePlayAPI(credentials: credentials, packageName: packageName, environment: environment)
            track = try api.withEdit { edit throws(HTTPFailure) in try api.track("production", edit: edit) }
        } catch {
            throw cannotCheck(.googlePlay, minimum, "Google Play (\(error.url)): \(error.reason)")
        }
        let wanted = Dictionary(shipped.map { ($0.code, $0.tag) }) { first, _ in first }
        func matches(_ release: GooglePlayAPI.Release) -> [(code: String, tag: String)] {
            release.versionCodes.compactMap { code in wanted[code].map { (code, $0) } }.sorted { (Int($0.code) ?? 0) > (Int($1.code) ?? 0) }
        }
        let described = { (hit: (code: String, tag: String)) in "versionCode \(hit.code) (\(hit.tag))" }
        for release in track.releases where release.status == "completed" {
            if let hit = matches(release).first {
                return "Google Play \(packageName): the production track's release\(release.name.map { " \"\($0)\"" } ?? "") serves \(described(hit)) to every user (completed)"
            }
        }
        for release in track.releases where release.status == "inProgress" {
            guard let hit = matches(release).first else { continue }
            let fraction = release.userFraction ?? 1
            let percent = fraction * 100
            let percentText = percent == percent.rounded() ? String(Int(percent)) : String(format: "%.2f", percent)
            if fraction >= 1 || options.allowStagedRollout {
                return "Google Play \(packageName): the production track's staged rollout serves \(described(hit)) to \(percentText)% of users" + (fraction < 1 ? " (allowed with --allow-staged-rollout)" : "")
            }
            throw Problem("Google Play \(packageName): \(described(hit)) is in a staged rollout on the production track, offered to \(percentText)% of users: raising the minimum now would block the other \(String(format: "%g", 100 - percent))% with nothing to install; complete the rollout in the Play Console and rerun, or rerun with --allow-staged-rollout to raise it anyway")
        }
        let halted = track.releases.filter { $0.status == "halted" && !matches($0).isEmpty }
        let serving = track.releases.filter { $0.status == "completed" || $0.status == "inProgress" }
            .flatMap(\.versionCodes)
        let servingText = serving.isEmpty ? "serves no release" : "serves versionCode \(serving.joined(separator: ", "))"
        let haltedText = halted.isEmpty ? "" : "; the rollout of \(matches(halted[0]).map(described).first!) is halted"
        let wantedText = shipped.prefix(3).map(described).joined(separator: ", ")
        throw Problem("Google Play \(packageName): the production track \(servingText)\(haltedText), none of \(wantedText) (the releases ≥ \(minimum)): raising the minimum now would block users below \(minimum) with nothing to install; wait until \(minimum) is live and rerun")
    }
}
