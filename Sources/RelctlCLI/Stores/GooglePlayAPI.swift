import Foundation

/// The Google Play Developer API (v3) reads relctl makes. Everything goes through an edit: relctl opens one, reads,
/// and deletes it (never commits it), so nothing changes in the Play Console.
struct GooglePlayAPI {
    static let baseURLVariable = "RELCTL_GOOGLE_PLAY_URL"
    static let standardBaseURL = "https://androidpublisher.googleapis.com"
    static let role = "a service account invited in the Play Console (Users and permissions) with the \"View app information (read-only)\" permission for the app, and the Google Play Android Developer API enabled in its Cloud project"

    let client: AuthorizedClient
    let baseURL: String
    let packageName: String

    init(credentials: GoogleCredentials, packageName: String, environment: [String: String]) throws(HTTPFailure) {
        baseURL = try StoreHTTP.baseURL(Self.baseURLVariable, standard: Self.standardBaseURL, environment: environment)
        client = AuthorizedClient(credentials: credentials, environment: environment, service: "Google Play", role: Self.role)
        self.packageName = packageName
    }

    struct Release {
        let name: String?
        let status: String
        let versionCodes: [String]
        let userFraction: Double?
    }

    struct Track {
        let track: String
        let releases: [Release]
    }

    private var editsURL: String {
        "\(baseURL)/androidpublisher/v3/applications/\(StoreHTTP.escaped(packageName))/edits"
    }

    /// Opens an edit, runs `body` with its id, and deletes the edit whatever `body` did.
    func withEdit<T>(_ body: (String) throws(HTTPFailure) -> T) throws(HTTPFailure) -> T {
        let response = try client.send(StoreHTTP.Request(method: "POST", url: editsURL, body: Data("{}".utf8)))
        if response.status == 404 {
            throw HTTPFailure(url: editsURL, reason: "HTTP 404: Google Play has no app \(packageName)\(client.said(response)); check 'stores.googlePlay.packageName' in .relctl.json")
        }
        guard response.status == 200, let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any],
              let id = object["id"] as? String, !id.isEmpty else {
            throw client.unexpected(response, url: editsURL, doing: "opening an edit of \(packageName)")
        }
        let result: Result<T, HTTPFailure>
        do throws(HTTPFailure) {
            result = .success(try body(id))
        } catch {
            result = .failure(error)
        }
        // Deleted whatever happened; a failed delete leaves an edit Play discards itself.
        _ = try? client.send(StoreHTTP.Request(method: "DELETE", url: "\(editsURL)/\(StoreHTTP.escaped(id))"))
        return try result.get()
    }

    /// One track of the edit (`production`, `beta`, …).
    func track(_ name: String, edit: String) throws(HTTPFailure) -> Track {
        let url = "\(editsURL)/\(StoreHTTP.escaped(edit))/tracks/\(StoreHTTP.escaped(name))"
        let response = try client.send(StoreHTTP.Request(url: url))
        if response.status == 404 {
            return Track(track: name, releases: [])
        }
        guard response.status == 200, let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] else {
            throw client.unexpected(response, url: url, doing: "reading the \(name) track of \(packageName)")
        }
        return Self.track(object, name: name)
    }

    /// Every track of the edit with its releases (`edits.tracks.list`).
    func tracks(edit: String) throws(HTTPFailure) -> [Track] {
        let url = "\(editsURL)/\(StoreHTTP.escaped(edit))/tracks"
        let response = try client.send(StoreHTTP.Request(url: url))
        guard response.status == 200, let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] else {
            throw client.unexpected(response, url: url, doing: "listing the tracks of \(packageName)")
        }
        return (object["tracks"] as? [[String: Any]] ?? []).map { Self.track($0, name: $0["track"] as? String ?? "?") }
    }

    /// The versionCode of every bundle uploaded to the app (`edits.bundles.list`), on a track or not.
    func bundleVersionCodes(edit: String) throws(HTTPFailure) -> [String] {
        let url = "\(editsURL)/\(StoreHTTP.escaped(edit))/bundles"
        let response = try client.send(StoreHTTP.Request(url: url))
        guard response.status == 200, let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] else {
            throw client.unexpected(response, url: url, doing: "listing the bundles of \(packageName)")
        }
        return (object["bundles"] as? [[String: Any]] ?? []).compactMap { bundle in
            (bundle["versionCode"] as? String) ?? (bundle["versionCode"] as? NSNumber)?.stringValue
        }
    }

    static func track(_ object: [String: Any], name: String) -> Track {
        let releases = (object["releases"] as? [[String: Any]] ?? []).map { release in
            Release(name: release["name"] as? String, status: release["status"] as? String ?? "unknown",
                    versionCodes: (release["versionCodes"] as? [Any] ?? []).compactMap { ($0 as? String) ?? ($0 as? NSNumber)?.stringValue },
                    userFraction: (release["userFraction"] as? NSNumber)?.doubleValue)
        }
        return Track(track: object["track"] as? String ?? name, releases: releases)
    }
}
