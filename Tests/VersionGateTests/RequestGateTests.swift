import Testing
import VersionGate

@Suite("RequestGate: the backend's side of the gate")
struct RequestGateTests {
    let document: GateDocument

    init() throws {
        document = try GateDocumentReader(format: .firebase).read(GateFixtures.firebaseTemplate())
    }

    @Test("X-App-Version, X-App-Build and X-App-Platform are read, names in any case")
    func readsTheThreeHeaders() {
        let headers = GateAppHeaders(headers: ["x-app-version": "2.4.0", "X-APP-BUILD": "301", "X-App-Platform": "iOS"])
        #expect(headers.version == "2.4.0")
        #expect(headers.build == "301")
        #expect(headers.platform == .ios)
        let pairs = GateAppHeaders(headers: [(name: "X-App-Version", value: " 1.9.96+283 "), (name: "X-App-Platform", value: "android")])
        #expect(pairs.version == "1.9.96+283")
        #expect(pairs.build == "283")  // from the +build of the version
        #expect(pairs.platform == .android)
    }

    @Test("a version below the platform's minimum is refused with 426")
    func belowMinimumIsUpgradeRequired() throws {
        let verdict = RequestGate(document: document).check(GateAppHeaders(version: "2.3.0+280", platform: .ios))
        #expect(!verdict.isAllowed)
        #expect(verdict.reason == .belowMinimum)
        #expect(verdict.minimum?.text == "2.3.1")
        #expect(verdict.build == "280")
        let response = try #require(verdict.response)
        #expect(response.status == 426)
        #expect(response.header("content-type") == "application/problem+json")
        #expect(response.header("Vary") == "X-App-Version")
        #expect(response.header("Upgrade") == nil)
    }

    @Test("the problem+json body carries the minimum, the latest and the store URL")
    func problemBody() throws {
        let response = try #require(RequestGate(document: document).check(GateAppHeaders(version: "2.3.0", platform: .ios)).response)
        #expect(
            response.body
                == #"{"type":"about:blank","title":"Upgrade Required","status":426,"detail":"A mandatory update is required to keep using Fieldbook.","min_supported_version":"2.3.1","latest_version":"2.5.0","store_url":"https://apps.apple.com/app/fieldbook/id1234567890","installed_version":"2.3.0"}"#)
        let body = try GateJSON.parse(response.body)
        #expect(body["status"] == .number("426"))
    }

    @Test("the same version is allowed on a platform whose minimum it meets")
    func perPlatformMinimum() {
        let verdict = RequestGate(document: document).check(GateAppHeaders(version: "2.3.0", platform: .android))
        #expect(verdict.isAllowed)
        #expect(verdict.reason == .supported)
        #expect(verdict.response == nil)
    }

    @Test("a platform without a condition uses the default values")
    func otherPlatformUsesDefaults() throws {
        let gate = RequestGate(document: document)
        #expect(gate.check(GateAppHeaders(headers: ["X-App-Version": "2.3.0", "X-App-Platform": "Web"])).isAllowed)
        let refused = gate.check(GateAppHeaders(headers: ["X-App-Version": "2.2.9", "X-App-Platform": "web"]))
        #expect(refused.reason == .belowMinimum)
        #expect(refused.minimum?.text == "2.3.0")
        #expect(refused.platform == "web")
    }

    @Test("the status is configurable, and the title follows it")
    func statusConfigurable() throws {
        let gate = RequestGate(document: document, upgradeStatus: 403)
        let response = try #require(gate.check(GateAppHeaders(version: "1.0", platform: .ios)).response)
        #expect(response.status == 403)
        let body = try GateJSON.parse(response.body)
        #expect(body["title"] == .string("Forbidden"))
        #expect(body["status"] == .number("403"))
        let typed = RequestGate(document: document, problemType: "https://example.com/problems/app-too-old")
        let typedBody = try GateJSON.parse(try #require(typed.check(GateAppHeaders(version: "1.0")).response).body)
        #expect(typedBody["type"] == .string("https://example.com/problems/app-too-old"))
        #expect(typedBody["title"] == .string("App update required"))
    }

    @Test("a missing header is allowed")
    func missingHeaderIsAllowed() {
        let gate = RequestGate(document: document)
        for headers in [GateAppHeaders(headers: [String: String]()), GateAppHeaders(headers: ["X-App-Version": "  "]),
                        GateAppHeaders(headers: ["X-App-Version": "unknown"])] {
            let verdict = gate.check(headers)
            #expect(verdict.isAllowed)
            #expect(verdict.reason == .missingVersion)
            #expect(verdict.installed == nil)
        }
    }

    @Test("without a platform the default minimum applies, and store_url is null")
    func noPlatform() throws {
        let gate = RequestGate(document: document)
        #expect(gate.check(GateAppHeaders(version: "2.3.0")).isAllowed)
        let response = try #require(gate.check(GateAppHeaders(version: "2.2.0")).response)
        #expect(try GateJSON.parse(response.body)["store_url"] == .null)
    }

    @Test("an unreadable, null or minimum-less document lets every request through")
    func documentProblemsFailOpen() throws {
        let json = GateDocumentReader(format: .json)
        let unreadable = RequestGate(document: try json.read(#"{"minimumSupportedVersion": false}"#))
        #expect(unreadable.check(GateAppHeaders(version: "0.1")).reason == .documentUnreadable)
        #expect(unreadable.check(GateAppHeaders(version: "0.1")).isAllowed)
        let null = RequestGate(document: try json.read("null"))
        #expect(null.check(GateAppHeaders(version: "0.1")).reason == .nullDocument)
        let none = RequestGate(document: try json.read(#"{"latestVersion": "9.0"}"#))
        #expect(none.check(GateAppHeaders(version: "0.1")).reason == .noMinimum)
    }

    @Test("Vary: X-App-Version is offered for allowed responses too")
    func varyHeader() {
        #expect(RequestGateVerdict.varyHeader == GateHTTPHeader(name: "Vary", value: "X-App-Version"))
    }
}
