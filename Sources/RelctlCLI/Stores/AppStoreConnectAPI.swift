import Foundation

/// The App Store Connect API (JSON:API) reads relctl makes: the app by bundle ID, its App Store versions with
/// their state and phased release, its builds. Every list is read to its end through `links.next`, which must stay
/// on the API's host (the token goes nowhere else).
struct AppStoreConnectAPI {
    static let baseURLVariable = "RELCTL_APP_STORE_CONNECT_URL"
    static let standardBaseURL = "https://api.appstoreconnect.apple.com"
    /// The least role of the API key for these reads.
    static let role = "an App Store Connect API key with at least the Developer role (Users and Access → Integrations → Team Keys); Sales or Customer Support keys cannot read versions"
    /// At most this many pages of one list (200 items each).
    static let maximumPages = 50

    let client: AuthorizedClient
    let baseURL: String

    init(credentials: AppStoreConnectCredentials, environment: [String: String]) throws(HTTPFailure) {
        baseURL = try StoreHTTP.baseURL(Self.baseURLVariable, standard: Self.standardBaseURL, environment: environment)
        client = AuthorizedClient(credentials: credentials, environment: environment, service: "App Store Connect", role: Self.role)
    }

    struct AppStoreVersion {
        let versionString: String
        let state: String
        let platform: String?
        /// `ACTIVE`, `PAUSED`, `COMPLETE`…; nil when the version has no phased release.
        let phasedReleaseState: String?

        var isLive: Bool { state == "READY_FOR_SALE" || state == "READY_FOR_DISTRIBUTION" }
    }

    /// The app's id for `bundleID`; a failure naming the bundle ID when App Store Connect has no such app.
    func appID(bundleID: String) throws(HTTPFailure) -> String {
        let url = "\(baseURL)/v1/apps?filter%5BbundleId%5D=\(StoreHTTP.escaped(bundleID))&fields%5Bapps%5D=bundleId&limit=200"
        let items = try list(url, doing: "looking up the app \(bundleID)")
        // The filter matches exactly; an answer holding another app is not taken for this one.
        guard let app = items.data.first(where: { ($0["attributes"] as? [String: Any])?["bundleId"] as? String == bundleID }),
              let id = app["id"] as? String else {
            throw HTTPFailure(url: url, reason: "App Store Connect has no app with the bundle ID \(bundleID) for this API key's team; check 'stores.appStoreConnect.bundleId' in .relctl.json")
        }
        return id
    }

    /// Every App Store version of the app (iOS), newest first as the API lists them, with its phased release.
    func versions(appID: String) throws(HTTPFailure) -> [AppStoreVersion] {
        let url = "\(baseURL)/v1/apps/\(StoreHTTP.escaped(appID))/appStoreVersions?filter%5Bplatform%5D=IOS&include=appStoreVersionPhasedRelease&limit=200"
        let items = try list(url, doing: "reading the app's App Store versions")
        var phased: [String: String] = [:]
        for item in items.included where item["type"] as? String == "appStoreVersionPhasedReleases" {
            if let id = item["id"] as? String, let state = (item["attributes"] as? [String: Any])?["phasedReleaseState"] as? String {
                phased[id] = state
            }
        }
        return items.data.compactMap { item in
            guard let attributes = item["attributes"] as? [String: Any], let version = attributes["versionString"] as? String else { return nil }
            let state = (attributes["appStoreState"] as? String) ?? (attributes["appVersionState"] as? String) ?? "UNKNOWN"
            let relation = ((item["relationships"] as? [String: Any])?["appStoreVersionPhasedRelease"] as? [String: Any])?["data"] as? [String: Any]
            return AppStoreVersion(versionString: version, state: state, platform: attributes["platform"] as? String,
                                   phasedReleaseState: (relation?["id"] as? String).flatMap { phased[$0] })
        }
    }

    /// The build numbers (CFBundleVersion, `attributes.version`) of every build of the app App Store Connect holds,
    /// those of one marketing version only when `version` is given (`filter[preReleaseVersion.version]`).
    func buildNumbers(appID: String, version: String?) throws(HTTPFailure) -> [String] {
        var url = "\(baseURL)/v1/builds?filter%5Bapp%5D=\(StoreHTTP.escaped(appID))"
        if let version { url += "&filter%5BpreReleaseVersion.version%5D=\(StoreHTTP.escaped(version))" }
        url += "&fields%5Bbuilds%5D=version&limit=200"
        let items = try list(url, doing: "reading the app's builds" + (version.map { " of \($0)" } ?? ""))
        return items.data.compactMap { ($0["attributes"] as? [String: Any])?["version"] as? String }
    }

    /// Every page of a JSON:API list: `data` and `included` of each, following `links.next` to the end.
    func list(_ first: String, doing: String) throws(HTTPFailure) -> (data: [[String: Any]], included: [[String: Any]]) {
        var data: [[String: Any]] = [], included: [[String: Any]] = []
        var next: String? = first
        var pages = 0
        let host = StoreHTTP.host(of: baseURL)
        while let url = next {
            pages += 1
            guard pages <= Self.maximumPages else {
                throw HTTPFailure(url: first, reason: "the list goes on past \(Self.maximumPages) pages while \(doing); relctl stops there")
            }
            guard StoreHTTP.host(of: url) == host, url.hasPrefix(baseURL) else {
                throw HTTPFailure(url: first, reason: "the list's next page (links.next) is on \(StoreHTTP.host(of: url)), not \(host), and relctl sends the token to no other host")
            }
            let response = try client.send(StoreHTTP.Request(url: url))
            if response.status == 404 {
                throw HTTPFailure(url: url, reason: "HTTP 404 while \(doing)\(client.said(response)); check 'stores.appStoreConnect.bundleId' in .relctl.json")
            }
            guard response.status == 200, let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any],
                  let items = object["data"] as? [[String: Any]] else {
                if response.status == 200 { throw HTTPFailure(url: url, reason: "the answer is not a JSON:API list while \(doing)") }
                throw client.unexpected(response, url: url, doing: doing)
            }
            data += items
            included += (object["included"] as? [[String: Any]]) ?? []
            next = ((object["links"] as? [String: Any])?["next"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        }
        return (data, included)
    }
}
