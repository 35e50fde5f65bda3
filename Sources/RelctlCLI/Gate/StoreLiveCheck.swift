import VersionGate

/// Before the minimum rises: when 'gate.appStore' is configured, Apple's lookup must list a version not older
/// than the new minimum. Raising the floor above the newest listed version blocks users with nothing to install
/// (the app's store check would even stop asking), so relctl refuses while the listing lags — and when it
/// cannot ask (no network, no listing), since it cannot tell.
enum StoreLiveCheck {
    /// What the lookup confirmed, for the commit message: "the App Store (us) lists 3.0.0".
    static func confirm(_ store: GateSettings.AppStoreSettings, minimum: GateVersion, environment: [String: String]) throws -> String {
        let answer: AppStoreClient.Answer
        let storeName = "the App Store" + (store.country.map { " (\($0))" } ?? "")
        do {
            answer = try AppStoreClient.lookup(bundleID: store.bundleID, country: store.country, environment: environment)
        } catch {
            throw CLIFailure(message: "cannot ask \(storeName) which version of \(store.bundleID) is live (\(error.url): \(error.reason)); relctl does not raise the minimum without knowing that \(minimum) is listed: rerun once the lookup answers")
        }
        switch answer.listing {
        case .listed(let version, _) where version < minimum:
            throw CLIFailure(message: "\(storeName) lists \(version) of \(store.bundleID), older than \(minimum): raising the minimum now would block users below \(minimum) with nothing to install; wait until \(minimum) is live (App Store Connect: Ready for Distribution) and rerun")
        case .listed(let version, _):
            return "\(storeName) lists \(version)"
        case .unavailable where answer.unreadableVersion != nil:
            throw CLIFailure(message: "\(storeName) answered a version of \(store.bundleID) that is not a version (\"\(answer.unreadableVersion!)\", with control characters) (\(answer.url)); relctl does not raise the minimum on it: rerun once the lookup answers a plain version")
        case .unavailable where !answer.otherApps.isEmpty:
            throw CLIFailure(message: "\(storeName) answered for another app (\(answer.otherApps.joined(separator: ", "))), not \(store.bundleID) (\(answer.url)); relctl does not raise the minimum on another app's listing: check 'gate.appStore.bundleId' in .relctl.json and the lookup URL (\(AppStoreClient.baseURLVariable))")
        case .unavailable, .notConfigured:
            throw CLIFailure(message: "\(storeName) lists no version of \(store.bundleID) (\(answer.url)); raising the minimum now could block users with nothing to install: check 'gate.appStore.bundleId' and 'country' in .relctl.json, or wait until the app is listed")
        }
    }
}
