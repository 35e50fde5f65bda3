import Foundation
import VersionGate

/// Asks Apple's public lookup (`https://itunes.apple.com/lookup?bundleId=…&country=…`) which version of the app
/// the App Store lists. The request and the reading of the answer are the library's (`AppStoreLookup`), so
/// relctl and the app read a listing the same way.
///
/// Why `curl` in a child process rather than URLSession: on Linux, URLSession (FoundationNetworking) leaves
/// libcurl allocations behind on every request — with one shared session too — which LeakSanitizer reports in
/// `make asan`, and suppressing them would hide every libcurl leak. A child curl keeps the lookup's memory out of
/// relctl's process, verifies TLS the same way (it is the same libcurl), bounds the wait with `--max-time`, and
/// reports a failure as one line of its own. curl is on the CI images and developer machines relctl targets;
/// where it is missing, the lookup fails with that fix and relctl refuses to raise the minimum, as it does for
/// any lookup that fails.
enum AppStoreClient {
    /// Replaces `https://itunes.apple.com` (tests point it at a local server). Must be https, or http to a
    /// loopback address.
    static let baseURLVariable = "RELCTL_APPSTORE_LOOKUP_URL"
    /// No lookup may hold a release engineer longer than this (curl's `--max-time`).
    static let timeoutSeconds = 20

    /// The most of an answer relctl reads: a lookup answer is a few kilobytes; more is not one, and reading it
    /// would only cost memory.
    static let maximumAnswerBytes = 4 << 20

    /// What the lookup said, with the URL asked.
    struct Answer {
        /// The listing of the app asked about: a result for another app lists nothing.
        let listing: StoreListing
        let url: String
        /// The apps the answer's results are about, when none is the one asked about.
        var otherApps: [String] = []
        /// The version the app's result holds, when it is not plain text (a control character): refused.
        var unreadableVersion: String?
    }

    /// The base URL for the lookup: the environment's override when set and allowed.
    static func baseURL(_ environment: [String: String]) throws(HTTPFailure) -> String {
        guard let override = environment[baseURLVariable], !override.isEmpty else { return AppStoreLookup.defaultBaseURL }
        guard let url = URL(string: override), let scheme = url.scheme?.lowercased(), let host = url.host else {
            throw HTTPFailure(url: override, reason: "\(baseURLVariable) is not a URL")
        }
        let loopback = host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]"
        guard scheme == "https" || (scheme == "http" && loopback) else {
            throw HTTPFailure(url: override, reason: "\(baseURLVariable) must be an https URL (plain http only to a loopback address, for tests)")
        }
        return override
    }

    /// Asks the lookup for `bundleID` in `country`. A network failure, a timeout or a status other than 200 is
    /// a `HTTPFailure`; an answer listing nothing is `.unavailable`.
    static func lookup(bundleID: String, country: String?, environment: [String: String]) throws(HTTPFailure) -> Answer {
        let address = AppStoreLookup.requestURL(bundleID: bundleID, country: country, baseURL: try baseURL(environment))
        guard let curl = curlPath(environment) else {
            throw HTTPFailure(url: address, reason: "curl is not installed, and relctl asks the lookup through it: install curl (apt-get install curl)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: curl)
        // The body, then the status on a line of its own; errors on stderr. Redirects only to https.
        process.arguments = ["--silent", "--show-error", "--max-time", String(timeoutSeconds), "--connect-timeout", "10",
                             "--proto", "=https,http", "--location", "--max-redirs", "3", "--proto-redir", "=https",
                             "--max-filesize", String(maximumAnswerBytes),
                             "--header", "Accept: application/json", "--write-out", "\n%{http_code}", "--", address]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw HTTPFailure(url: address, reason: "cannot run \(curl): \(error.localizedDescription)")
        }
        // Read in bounded pieces: an answer larger than any lookup answer stops curl and is refused.
        var body = Data()
        var tooLarge = false
        let reader = output.fileHandleForReading
        while let chunk = try? reader.read(upToCount: 65536), !chunk.isEmpty {
            body.append(chunk)
            if body.count > maximumAnswerBytes + 16 {
                tooLarge = true
                process.terminate()
                break
            }
        }
        try? reader.close()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let megabytes = maximumAnswerBytes >> 20
        if tooLarge || process.terminationStatus == 63 {
            throw HTTPFailure(url: address, reason: "the answer is larger than \(megabytes) MB, and a lookup answer is a few kilobytes; relctl reads no more of it")
        }
        guard process.terminationStatus == 0 else {
            let said = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw HTTPFailure(url: address, reason: said.isEmpty ? "curl exited with \(process.terminationStatus)" : said)
        }
        var text = String(decoding: body, as: UTF8.self)
        let status = text.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        text = String(text.dropLast(status.count))
        guard status == "200" else { throw HTTPFailure(url: address, reason: "HTTP status \(status)") }
        var answer = Answer(listing: AppStoreLookup.listing(fromResponse: text, bundleID: bundleID), url: address)
        if case .unavailable = answer.listing {
            answer.unreadableVersion = AppStoreLookup.unreadableVersion(inResponse: text, bundleID: bundleID)
            let lowered = bundleID.lowercased()
            let others = AppStoreLookup.bundleIDs(inResponse: text)
            if !others.contains(where: { $0.lowercased() == lowered }) { answer.otherApps = others }
        }
        return answer
    }

    /// `curl` on the run's PATH, else in the usual places.
    static func curlPath(_ environment: [String: String]) -> String? {
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + ["/usr/bin", "/usr/local/bin", "/bin", "/opt/homebrew/bin"]
        return folders.lazy.map { $0 + "/curl" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
