/// The backend's side of the gate: refuse requests from builds below the minimum, against the same document
/// the app reads.
///
/// ```swift
/// let gate = RequestGate(document: try GateDocumentReader(format: .firebase).read(templateText))
/// let verdict = gate.check(GateAppHeaders { request.headers.first(name: $0) })
/// if let response = verdict.response { return response }   // 426, application/problem+json
/// ```
///
/// Only the minimum is enforced here; the nudge, the store listing and maintenance are the app's. A request
/// without `X-App-Version` is allowed, and so is every request while the document cannot be read.
///
/// 426 is a convention, not the protocol meaning (RFC 9110 §15.5.22 is about protocol upgrades). The response
/// carries no `Upgrade` header: it would name no protocol, and the field is forbidden in HTTP/2 and HTTP/3
/// messages. Set ``upgradeStatus`` to 400 or 403 if your clients or proxies treat 426 badly.
public struct RequestGate: Sendable, Hashable {
    public let document: GateDocument
    /// The status of the refusal: 426 Upgrade Required by default.
    public var upgradeStatus: Int
    /// The problem `type` URI: `about:blank` by default, whose `title` is the status phrase (RFC 9457 §4.2.1).
    public var problemType: String
    /// The problem `title`; by default the status phrase for `about:blank`, else "App update required".
    public var problemTitle: String?

    public init(document: GateDocument, upgradeStatus: Int = 426, problemType: String = "about:blank", problemTitle: String? = nil) {
        self.document = document
        self.upgradeStatus = upgradeStatus
        self.problemType = problemType
        self.problemTitle = problemTitle
        // Resolved once here rather than on every request (a Firebase JSON parameter is parsed on resolving).
        var resolved: [GatePlatform?: Result<GateConfig?, GateDocumentError>] = [:]
        for platform in [nil, GatePlatform.ios, GatePlatform.android] {
            resolved[platform] = RequestGate.resolve(document, platform)
        }
        self.resolved = resolved
    }

    /// The configs of the usual platforms (and of none), resolved when the gate is made.
    private let resolved: [GatePlatform?: Result<GateConfig?, GateDocumentError>]

    private static func resolve(_ document: GateDocument, _ platform: GatePlatform?) -> Result<GateConfig?, GateDocumentError> {
        do throws(GateDocumentError) {
            return .success(try document.config(for: platform))
        } catch {
            return .failure(error)
        }
    }

    /// Allow, or refuse with the upgrade response.
    public func check(_ headers: GateAppHeaders) -> RequestGateVerdict {
        var verdict = RequestGateVerdict(isAllowed: true, reason: .supported, build: headers.build, platform: headers.platform)
        guard let sent = headers.version, GateVersion(sent).hasNumber else {
            verdict.reason = .missingVersion
            return verdict
        }
        let installed = GateVersion(sent)
        verdict.installed = installed
        guard case .success(let config) = resolved[headers.platform] ?? RequestGate.resolve(document, headers.platform)
        else {
            verdict.reason = .documentUnreadable
            return verdict
        }
        guard let config else {
            verdict.reason = .nullDocument
            return verdict
        }
        guard let minimum = config.minimumSupportedVersion else {
            verdict.reason = .noMinimum
            return verdict
        }
        verdict.minimum = minimum
        guard installed < minimum else { return verdict }
        verdict.isAllowed = false
        verdict.reason = .belowMinimum
        verdict.response = upgradeResponse(installed: installed, config: config)
        return verdict
    }

    /// The RFC 9457 problem document with `min_supported_version`, `latest_version` and `store_url` (null when
    /// unknown) and the installed version.
    private func upgradeResponse(installed: GateVersion, config: GateConfig) -> GateHTTPResponse {
        let title = problemTitle ?? (problemType == "about:blank" ? RequestGate.reasonPhrase(upgradeStatus) : nil) ?? "App update required"
        let body = GateJSON.object([
            ("type", .string(problemType)),
            ("title", .string(title)),
            ("status", .number(String(upgradeStatus))),
            ("detail", .string(config.forceUpdateMessage ?? GateConfig.defaultForceUpdateMessage)),
            ("min_supported_version", config.minimumSupportedVersion.map { .string($0.text) } ?? .null),
            ("latest_version", config.latestVersion.map { .string($0.text) } ?? .null),
            ("store_url", config.storeURL.map { .string($0) } ?? .null),
            ("installed_version", .string(installed.text)),
        ])
        return GateHTTPResponse(
            status: upgradeStatus,
            headers: [
                GateHTTPHeader(name: "Content-Type", value: "application/problem+json"),
                RequestGateVerdict.varyHeader,
            ],
            body: body.serialized)
    }

    /// The reason phrase of the statuses a gate would use.
    static func reasonPhrase(_ status: Int) -> String? {
        switch status {
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 412: return "Precondition Failed"
        case 422: return "Unprocessable Content"
        case 426: return "Upgrade Required"
        default: return nil
        }
    }
}
