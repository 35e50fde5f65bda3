import Testing
import VersionGate

@Suite("AppStoreLookup: Apple's public lookup as the store listing")
struct AppStoreLookupTests {
    @Test("the request URL carries the bundle identifier and the region")
    func requestURL() {
        #expect(AppStoreLookup.requestURL(bundleID: "com.example.fieldbook", country: "US")
            == "https://itunes.apple.com/lookup?bundleId=com.example.fieldbook&country=us")
        #expect(AppStoreLookup.requestURL(bundleID: "com.example.app", baseURL: "http://127.0.0.1:8080/")
            == "http://127.0.0.1:8080/lookup?bundleId=com.example.app")
        #expect(AppStoreLookup.requestURL(bundleID: "a b&c", country: nil) == "https://itunes.apple.com/lookup?bundleId=a%20b%26c")
    }

    @Test("a result gives the listed version and its page")
    func listedVersion() {
        let response = """
            {"resultCount":1,"results":[{"bundleId":"com.example.fieldbook","version":"1.0.2",
            "trackViewUrl":"https://apps.apple.com/us/app/fieldbook/id1234567890?uo=4","releaseNotes":"Fixes."}]}
            """
        #expect(AppStoreLookup.listing(fromResponse: response)
            == .listed(version: "1.0.2", url: "https://apps.apple.com/us/app/fieldbook/id1234567890?uo=4"))
    }

    @Test("a failed or empty lookup is unavailable: no prompt at all", arguments: [
        #"{"resultCount":0,"results":[]}"#, "", "<html>", #"{"results":[{"trackViewUrl":"x"}]}"#,
        #"{"results":[{"version":""}]}"#,
    ])
    func emptyLookupIsUnavailable(_ response: String) {
        #expect(AppStoreLookup.listing(fromResponse: response) == .unavailable)
    }

    @Test("the seed's rule end to end: listed 1.0.1 and installed 1.0.1 below a minimum of 1.1 asks nothing")
    func seedRule() {
        let listing = AppStoreLookup.listing(fromResponse: #"{"resultCount":1,"results":[{"version":"1.0.1"}]}"#)
        let config = GateConfig(minimumSupportedVersion: "1.1")
        #expect(GateLadder.evaluate(installed: "1.0.1", config: config, store: listing).status == .ok)
        #expect(GateLadder.evaluate(installed: "1.0", config: config, store: listing).status == .blocked)
    }
}
