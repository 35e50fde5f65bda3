import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback HTTP/1.1 server standing in for the store APIs (App Store Connect, Google Play, Remote Config, Google's
/// token endpoint): each request, with its headers and body, goes to `handler`, which answers it. 127.0.0.1 only,
/// one connection at a time, reads bounded by a timeout. `stop()` wakes the serving thread and waits for it.
final class FakeStoreServer: @unchecked Sendable {
    struct Request: Sendable {
        let method: String
        let target: String
        /// Lowercased names.
        let headers: [String: String]
        let body: String

        var path: String { String(target.prefix { $0 != "?" }) }
        var bearer: String? {
            headers["authorization"].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        }
    }

    struct Reply: Sendable {
        var status = 200
        var headers: [(String, String)] = []
        var body = ""
        /// Seconds to wait before answering (a slow server).
        var delay: UInt32 = 0

        static func json(_ body: String, status: Int = 200, headers: [(String, String)] = []) -> Reply {
            Reply(status: status, headers: headers, body: body)
        }
    }

    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var received: [Request] = []
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)
    private let handler: @Sendable (Request, FakeStoreServer) -> Reply

    var baseURL: String { "http://127.0.0.1:\(port)" }

    init(_ handler: @escaping @Sendable (Request, FakeStoreServer) -> Reply) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LoopbackHTTPServer.ServerError(what: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 8) == 0 else {
            close(fd)
            throw LoopbackHTTPServer.ServerError(what: "bind/listen")
        }
        var actual = sockaddr_in()
        var actualLength = length
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) } }
        port = UInt16(bigEndian: actual.sin_port)
        listener = fd
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Every request so far, in order.
    var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// How many requests so far went to `path` (before the current one is counted: the handler sees its own).
    func count(_ method: String, _ path: String) -> Int {
        requests.filter { $0.method == method && $0.path == path }.count
    }

    func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        if !wasStopped {
            shutdown(listener, Int32(SHUT_RDWR))
            _ = finished.wait(timeout: .now() + 15)
            close(listener)
        }
    }

    private func serve() {
        defer { finished.signal() }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            handle(client)
            close(client)
        }
    }

    private func handle(_ client: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        var contentLength = 0
        while bytes.count < 8 << 20 {
            if let headerEnd, bytes.count >= headerEnd + contentLength { break }
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            if headerEnd == nil, let range = firstRange(of: end, in: bytes) {
                headerEnd = range
                let head = String(decoding: bytes[..<range], as: UTF8.self)
                for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                    contentLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        guard let headerEnd else { return }
        let head = String(decoding: bytes[..<headerEnd], as: UTF8.self).split(separator: "\r\n")
        let parts = head.first?.split(separator: " ") ?? []
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = String(decoding: bytes[(headerEnd + 4)...].prefix(contentLength), as: UTF8.self)
        let request = Request(method: parts.count > 0 ? String(parts[0]) : "", target: parts.count > 1 ? String(parts[1]) : "",
                              headers: headers, body: body)
        let reply = handler(request, self)
        lock.lock()
        received.append(request)
        lock.unlock()
        if reply.delay > 0 { sleep(reply.delay) }
        var text = "HTTP/1.1 \(reply.status) Status\r\nContent-Type: application/json\r\nContent-Length: \(reply.body.utf8.count)\r\nConnection: close\r\n"
        for (name, value) in reply.headers { text += "\(name): \(value)\r\n" }
        text += "\r\n" + reply.body
        let out = Array(text.utf8)
        var sent = 0
        while sent < out.count {
            let count = out[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    private func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }
}
