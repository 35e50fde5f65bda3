/// The response a backend sends instead of handling a request from a build that is too old.
public struct GateHTTPResponse: Sendable, Hashable {
    /// 426 by default (``RequestGate/upgradeStatus``).
    public var status: Int
    /// `Content-Type: application/problem+json` and `Vary: X-App-Version`.
    public var headers: [GateHTTPHeader]
    /// The RFC 9457 problem document (UTF-8 JSON).
    public var body: String

    public init(status: Int, headers: [GateHTTPHeader], body: String) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of header `name` (case-insensitive), or `nil`.
    public func header(_ name: String) -> String? {
        let lowered = GateText.asciiLowercased(name)
        return headers.first { GateText.asciiLowercased($0.name) == lowered }?.value
    }
}
