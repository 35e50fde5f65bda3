/// The request gate's answer for one request.
public struct RequestGateVerdict: Sendable, Hashable {
    /// Whether to handle the request. When `false`, send ``response`` instead.
    public var isAllowed: Bool
    public var reason: RequestGateReason
    /// The version the client sent (`nil` when missing).
    public var installed: GateVersion?
    /// The build the client sent (`X-App-Build`, or the `+build` of `X-App-Version`).
    public var build: String?
    public var platform: GatePlatform?
    /// The minimum that applied to the platform, if any.
    public var minimum: GateVersion?
    /// The upgrade-required response, when refused.
    public var response: GateHTTPResponse?

    public init(
        isAllowed: Bool, reason: RequestGateReason, installed: GateVersion? = nil, build: String? = nil,
        platform: GatePlatform? = nil, minimum: GateVersion? = nil, response: GateHTTPResponse? = nil
    ) {
        self.isAllowed = isAllowed
        self.reason = reason
        self.installed = installed
        self.build = build
        self.platform = platform
        self.minimum = minimum
        self.response = response
    }

    /// `Vary: X-App-Version`: add it to every cacheable response of a gated endpoint, allowed or not, since
    /// the answer depends on that header (RFC 9110 §12.5.5).
    public static let varyHeader = GateHTTPHeader(name: "Vary", value: GateAppHeaders.versionHeader)
}
