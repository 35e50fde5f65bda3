import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for one test, standing in for Apple's lookup: it answers every request
/// with the status and body set, and records each request's target (`/lookup?bundleId=…`). Loopback only, one
/// connection at a time, each read bounded by a timeout. Call `stop()` when done: it wakes the serving thread,
/// waits for it to end, and only then closes the socket (ThreadSanitizer rightly calls closing a descriptor
/// another thread is blocked on a race).
final class LoopbackHTTPServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var response: (status: Int, body: String)
    /// Answers without a Content-Length (the body ends when the connection closes), as a stream of unknown size.
    let omitsContentLength: Bool
    private var targets: [String] = []
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    var baseURL: String { "http://127.0.0.1:\(port)" }

    init(status: Int = 200, body: String, omitsContentLength: Bool = false) throws {
        response = (status, body)
        self.omitsContentLength = omitsContentLength
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError(what: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 4) == 0 else {
            close(fd)
            throw ServerError(what: "bind/listen")
        }
        var actual = sockaddr_in()
        var actualLength = length
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) } }
        port = UInt16(bigEndian: actual.sin_port)
        listener = fd
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// What the next requests get.
    func respond(status: Int = 200, body: String) {
        lock.lock()
        response = (status, body)
        lock.unlock()
    }

    /// The request targets received so far, in order.
    var requests: [String] {
        lock.lock()
        defer { lock.unlock() }
        return targets
    }

    func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        if !wasStopped {
            shutdown(listener, Int32(SHUT_RDWR))   // wakes the blocked accept
            _ = finished.wait(timeout: .now() + 10)
            close(listener)
        }
    }

    private func serve() {
        defer { finished.signal() }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }   // stopped
            handle(client)
            close(client)
        }
    }

    private func handle(_ client: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while received.count < 65536 {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[0..<count]
            if received.count >= 4, Array(received.suffix(4)) == end { break }
        }
        let requestLine = String(decoding: received.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let parts = requestLine.split(separator: " ")
        lock.lock()
        if parts.count >= 2 { targets.append(String(parts[1])) }
        let (status, body) = response
        lock.unlock()
        let length = omitsContentLength ? "" : "Content-Length: \(body.utf8.count)\r\n"
        let reply = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: application/json\r\n\(length)Connection: close\r\n\r\n\(body)"
        let bytes = Array(reply.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    struct ServerError: Error { let what: String }

    /// An App Store lookup answer listing `version` (or nothing).
    static func lookupAnswer(_ version: String?) -> String {
        guard let version else { return #"{"resultCount":0,"results":[]}"# }
        return #"{"resultCount":1,"results":[{"bundleId":"com.example.tidewater","version":"\#(version)","trackViewUrl":"https://apps.apple.com/app/tidewater/id6446001234"}]}"#
    }
}
