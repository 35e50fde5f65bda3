import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one HTTPS client of the store APIs (App Store Connect, Google Play, Remote Config, Google's token
/// exchange): a child `curl`, for the reasons `AppStoreClient` gives, driven so that no secret is ever on a command
/// line. curl's argv is only `-q --config -`: the URL, the method, every header (the Authorization header
/// included) and the body are written to its stdin as a config file, which no other local user can read
/// (`/proc/<pid>/cmdline` shows `curl -q --config -`). `-q` keeps a `~/.curlrc` out.
///
/// Redirects are never followed: a request carrying credentials must reach the host it was meant for, so a 3xx
/// is an error naming where it pointed. 429 and 5xx are retried a bounded number of times, waiting what
/// `Retry-After` asks within a cap; every attempt has a timeout.
enum StoreHTTP {
    struct Request {
        var method = "GET"
        var url: String
        var headers: [(String, String)] = []
        var body: Data?
        var contentType: String?
        /// A file whose bytes are the body (curl reads it: `data-binary = "@path"`; a path is no secret).
        var bodyFile: String?
    }

    struct Response {
        let status: Int
        /// Header names lowercased; the last value of a repeated header.
        let headers: [String: String]
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// The most of an answer relctl reads (a Remote Config template is at most 1 MB, a track list a few kB).
    static let maximumAnswerBytes = 16 << 20
    /// The most attempts of one request (the first and two retries) when the answer is 429 or 5xx.
    static let attempts = 3
    /// The longest relctl waits between attempts, whatever `Retry-After` asks (seconds).
    static let defaultRetryCap = 8
    /// Replaces the wait cap (seconds, 0 to 60): tests set it low.
    static let retryCapVariable = "RELCTL_HTTP_RETRY_CAP"
    /// Replaces the per-attempt timeout (seconds, 1 to 300).
    static let timeoutVariable = "RELCTL_HTTP_TIMEOUT"
    static let defaultTimeout = 30

    /// The base URL of a service: `variable`'s value when set (https, or http to a loopback address only), else
    /// `standard`. Ends without a slash.
    static func baseURL(_ variable: String, standard: String, environment: [String: String]) throws(HTTPFailure) -> String {
        guard let override = environment[variable], !override.isEmpty else { return standard }
        try checkAllowed(override, what: variable)
        return override.hasSuffix("/") ? String(override.dropLast()) : override
    }

    /// Refuses a URL that is neither https nor http to a loopback address.
    static func checkAllowed(_ address: String, what: String) throws(HTTPFailure) {
        guard let url = URL(string: address), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw HTTPFailure(url: address, reason: "\(what) is not a URL")
        }
        guard scheme == "https" || (scheme == "http" && isLoopback(host)) else {
            throw HTTPFailure(url: address, reason: "\(what) must be an https URL (plain http only to a loopback address, for tests)")
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }

    static func host(of address: String) -> String {
        guard let url = URL(string: address), let host = url.host else { return address }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    /// Sends `request`, retrying 429 and 5xx (at most `attempts` in all). Any status comes back as a response;
    /// a transport failure, a timeout or a redirect is an `HTTPFailure`.
    static func send(_ request: Request, environment: [String: String]) throws(HTTPFailure) -> Response {
        let cap = environment[retryCapVariable].flatMap { Int($0) }.map { min(max($0, 0), 60) } ?? defaultRetryCap
        var attempt = 1
        while true {
            let response = try sendOnce(request, environment: environment)
            if (300...399).contains(response.status) {
                let location = response.headers["location"] ?? ""
                let target = location.isEmpty ? "an unnamed place" : host(of: location.hasPrefix("/") ? request.url : location)
                throw HTTPFailure(url: request.url, reason: "HTTP \(response.status): the server redirected to \(target), and relctl follows no redirect of a request carrying credentials; check the base URL")
            }
            guard response.status == 429 || (500...599).contains(response.status), attempt < attempts else { return response }
            let asked = response.headers["retry-after"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            let wait = min(max(asked ?? (1 << (attempt - 1)), 0), cap)
            if wait > 0 { sleep(UInt32(wait)) }
            attempt += 1
        }
    }

    /// One attempt: curl with its config on stdin.
    static func sendOnce(_ request: Request, environment: [String: String]) throws(HTTPFailure) -> Response {
        try checkAllowed(request.url, what: "the URL")
        guard let curl = AppStoreClient.curlPath(environment) else {
            throw HTTPFailure(url: request.url, reason: "curl is not installed, and relctl talks to the stores through it: install curl (apt-get install curl)")
        }
        let timeout = environment[timeoutVariable].flatMap { Int($0) }.map { min(max($0, 1), 300) } ?? defaultTimeout
        var config = ""
        func line(_ option: String, _ value: String? = nil) {
            config += value.map { "\(option) = \"\(quoted($0))\"\n" } ?? "\(option)\n"
        }
        line("url", request.url)
        line("request", request.method)
        line("silent")
        line("show-error")
        line("max-time", String(timeout))
        line("connect-timeout", String(min(10, timeout)))
        line("proto", "=https,http")
        line("max-filesize", String(maximumAnswerBytes))
        line("dump-header", "-")
        line("write-out", "\n%{http_code}")
        line("compressed")
        line("header", "Accept: application/json")
        line("header", "Expect:")
        for (name, value) in request.headers {
            // A value with a line break would end the header early: refused rather than sent.
            guard !name.contains(where: \.isNewline), !value.contains(where: \.isNewline) else {
                throw HTTPFailure(url: request.url, reason: "the \(name) header holds a line break, which relctl does not send")
            }
            line("header", "\(name): \(value)")
        }
        if let body = request.body {
            line("header", "Content-Type: \(request.contentType ?? "application/json; charset=utf-8")")
            line("data-raw", String(decoding: body, as: UTF8.self))
        } else if let file = request.bodyFile {
            line("header", "Content-Type: \(request.contentType ?? "application/octet-stream")")
            line("data-binary", "@" + file)
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: curl)
        process.arguments = ["-q", "--config", "-"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw HTTPFailure(url: request.url, reason: "cannot run \(curl): \(error.localizedDescription)")
        }
        // curl reads its whole config before it connects, so the write cannot wait on curl's output.
        try? input.fileHandleForWriting.write(contentsOf: Data(config.utf8))
        try? input.fileHandleForWriting.close()
        config = ""
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let status = process.terminationStatus
        guard status == 0 else {
            let said = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let reason: String
            switch status {
            case 28: reason = "no answer within \(timeout) seconds (curl: timed out)"
            case 63: reason = "the answer is larger than \(maximumAnswerBytes >> 20) MB; relctl reads no more of it"
            default: reason = said.isEmpty ? "curl exited with \(status)" : said
            }
            throw HTTPFailure(url: request.url, reason: reason)
        }
        return try parse(data, url: request.url)
    }

    /// Header blocks (`dump-header -`: one per interim answer, the last the final), the body, then the status
    /// line `write-out` added.
    static func parse(_ data: Data, url: String) throws(HTTPFailure) -> Response {
        var bytes = [UInt8](data)
        guard let newline = bytes.lastIndex(of: 0x0A), let code = Int(String(decoding: bytes[(newline + 1)...], as: UTF8.self)) else {
            throw HTTPFailure(url: url, reason: "curl's output ends without the status")
        }
        bytes.removeSubrange(newline...)
        var headers: [String: String] = [:]
        var start = 0
        let separator: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
        while bytes.count - start >= 5, bytes[start..<(start + 5)].elementsEqual("HTTP/".utf8) {
            var end = start
            while end + 4 <= bytes.count, !bytes[end..<(end + 4)].elementsEqual(separator) { end += 1 }
            guard end + 4 <= bytes.count else { break }
            headers = [:]
            for line in String(decoding: bytes[start..<end], as: UTF8.self).split(separator: "\r\n").dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            start = end + 4
        }
        return Response(status: code, headers: headers, body: Data(bytes[start...]))
    }

    /// A value for a double-quoted curl config string: backslash and quote escaped, line breaks written as \n, \r.
    static func quoted(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `application/x-www-form-urlencoded` for a token exchange.
    static func formEncoded(_ fields: [(String, String)]) -> Data {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return Data(fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
            .joined(separator: "&").utf8)
    }

    /// Percent-encodes a path segment or query value.
    static func escaped(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}

/// A request to a store, a forge or Apple's public lookup that got no usable answer: the URL asked and why, which
/// each caller arranges in its own sentence (`cannot read (<url>): <reason>`, or the host alone for a forge).
struct HTTPFailure: Error {
    /// The URL asked (never holding a secret: tokens go in headers only).
    let url: String
    let reason: String
}
