import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import VersionGate

/// Asks Apple's public lookup (`https://itunes.apple.com/lookup?bundleId=…&country=…`) which version of the app
/// the App Store lists. The request and the reading of the answer are the library's (`AppStoreLookup`), so
/// relctl and the app read a listing the same way.
///
/// Why URLSession (FoundationNetworking) rather than running `curl`: it is part of Swift's Foundation on every
/// platform relctl runs on, so no executable has to be installed (slim CI images have no curl); TLS is verified
/// by the system's libcurl, which the Swift toolchain on Linux already requires; and the status, the body and
/// the timeout come back as values instead of a process's output and exit code.
enum AppStoreClient {
    /// Replaces `https://itunes.apple.com` (tests point it at a local server). Must be https, or http to a
    /// loopback address.
    static let baseURLVariable = "RELCTL_APPSTORE_LOOKUP_URL"
    /// No lookup may hold a release engineer longer than this.
    static let timeoutSeconds: TimeInterval = 20

    /// What the lookup said, with the URL asked.
    struct Answer {
        let listing: StoreListing
        let url: String
    }

    struct LookupFailure: Error {
        let url: String
        let reason: String
    }

    /// The base URL for the lookup: the environment's override when set and allowed.
    static func baseURL(_ environment: [String: String]) throws(LookupFailure) -> String {
        guard let override = environment[baseURLVariable], !override.isEmpty else { return AppStoreLookup.defaultBaseURL }
        guard let url = URL(string: override), let scheme = url.scheme?.lowercased(), let host = url.host else {
            throw LookupFailure(url: override, reason: "\(baseURLVariable) is not a URL")
        }
        let loopback = host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]"
        guard scheme == "https" || (scheme == "http" && loopback) else {
            throw LookupFailure(url: override, reason: "\(baseURLVariable) must be an https URL (plain http only to a loopback address, for tests)")
        }
        return override
    }

    /// Asks the lookup for `bundleID` in `country`. A network failure, a timeout or a status other than 200 is
    /// a `LookupFailure`; an answer listing nothing is `.unavailable`.
    static func lookup(bundleID: String, country: String?, environment: [String: String]) throws(LookupFailure) -> Answer {
        let address = AppStoreLookup.requestURL(bundleID: bundleID, country: country, baseURL: try baseURL(environment))
        guard let url = URL(string: address) else { throw LookupFailure(url: address, reason: "not a URL") }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeoutSeconds)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeoutSeconds
        configuration.timeoutIntervalForResource = timeoutSeconds
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let box = ResponseBox()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            box.set(data: data, status: (response as? HTTPURLResponse)?.statusCode, error: error)
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeoutSeconds + 5) == .timedOut {
            task.cancel()
            throw LookupFailure(url: address, reason: "no answer within \(Int(timeoutSeconds)) seconds")
        }
        let (data, status, error) = box.get()
        if let error { throw LookupFailure(url: address, reason: error.localizedDescription) }
        guard let status else { throw LookupFailure(url: address, reason: "no HTTP response") }
        guard status == 200 else { throw LookupFailure(url: address, reason: "HTTP status \(status)") }
        let text = String(decoding: data ?? Data(), as: UTF8.self)
        return Answer(listing: AppStoreLookup.listing(fromResponse: text), url: address)
    }

    /// The completion handler's results, handed from URLSession's queue to the waiting thread.
    private final class ResponseBox: @unchecked Sendable {
        private let lock = NSLock()
        private var data: Data?
        private var status: Int?
        private var error: (any Error)?

        func set(data: Data?, status: Int?, error: (any Error)?) {
            lock.lock()
            defer { lock.unlock() }
            self.data = data
            self.status = status
            self.error = error
        }

        func get() -> (Data?, Int?, (any Error)?) {
            lock.lock()
            defer { lock.unlock() }
            return (data, status, error)
        }
    }
}
