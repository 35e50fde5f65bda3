import Foundation
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

    @Test("with a bundle id, only that app's result counts, without regard to ASCII case")
    func bundleIDMustMatch() {
        let response = #"{"resultCount":2,"results":[{"bundleId":"com.example.other","version":"9.9.9"},{"bundleId":"COM.Example.Fieldbook","version":"1.0.2"}]}"#
        #expect(AppStoreLookup.listing(fromResponse: response, bundleID: "com.example.fieldbook") == .listed(version: "1.0.2", url: nil))
        #expect(AppStoreLookup.listing(fromResponse: response, bundleID: "com.example.missing") == .unavailable)
        #expect(AppStoreLookup.listing(fromResponse: #"{"results":[{"version":"9.9.9"}]}"#, bundleID: "com.example.fieldbook") == .unavailable)
        #expect(AppStoreLookup.bundleIDs(inResponse: response) == ["com.example.other", "COM.Example.Fieldbook"])
    }

    @Test("a version holding a control character, or longer than 64 characters, is never read", arguments: [
        "3.0.0\u{1B}]0;pwned\u{07}", "3.0.0\n", "3.0.0\u{9B}2J", "1." + String(repeating: "0", count: 70),
    ])
    func unplainVersionIsUnavailable(_ version: String) {
        var escaped = ""
        for scalar in version.unicodeScalars {
            escaped += scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0) ? String(format: "\\u%04x", scalar.value) : String(scalar)
        }
        let response = #"{"results":[{"bundleId":"com.example.fieldbook","version":""# + escaped + #""}]}"#
        #expect(AppStoreLookup.listing(fromResponse: response) == .unavailable)
        #expect(AppStoreLookup.listing(fromResponse: response, bundleID: "com.example.fieldbook") == .unavailable)
        #expect(!AppStoreLookup.isPlainVersion(version))
        #expect(AppStoreLookup.isPlainVersion("3.0.0"))
    }
}
