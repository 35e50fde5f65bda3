import Testing
import VersionGate

@Suite("GateClient: the cache, the throttle and Later, with an injected clock and storage")
struct GateClientTests {
    let clock = TestClock()
    let blocking = #"{"minimumSupportedVersion": "2.0.0", "latestVersion": "2.4.0"}"#

    func makeClient(_ storage: InMemoryGateStorage = InMemoryGateStorage()) -> GateClient<InMemoryGateStorage> {
        let clock = self.clock
        return GateClient(reader: GateDocumentReader(format: .json), storage: storage, clock: { clock.now })
    }

    @Test("the raw document is cached, never the verdict")
    func rawDocumentCachedNotVerdict() {
        var client = makeClient()
        let decision = client.decide(installed: "1.9.0", platform: .ios, fetch: .fetched(blocking))
        #expect(decision.status == .blocked)
        #expect(client.cachedEntry == GateCacheEntry(document: blocking, fetchedAt: clock.now))
        #expect(client.storage.values["versionGate.document"] == blocking)
        #expect(!client.storage.values.values.contains { $0.contains("blocked") })
    }

    @Test("an update installed while a block was cached offline unblocks")
    func updateInstalledOfflineUnblocks() {
        var client = makeClient()
        #expect(client.decide(installed: "1.9.0", platform: .ios, fetch: .fetched(blocking)).status == .blocked)
        // Airplane mode; the user installs 2.1.0 and opens the app offline.
        clock.advance(seconds: 3600)
        #expect(client.decide(installed: "1.9.0", platform: .ios, fetch: .unavailable).status == .blocked)
        let updated = client.decide(installed: "2.1.0", platform: .ios, fetch: .unavailable)
        #expect(updated.status == .updateAvailable)
        #expect(client.decide(installed: "2.4.0", platform: .ios, fetch: .unavailable).status == .ok)
    }

    @Test("a user below the minimum with the config unreachable is let through")
    func belowMinimumWithConfigUnreachableIsLetThrough() {
        var client = makeClient()
        let decision = client.decide(installed: "0.1.0", platform: .ios, fetch: .unavailable)
        #expect(decision.status == .error)
        #expect(decision.reason == .configUnavailable)
        #expect(!decision.status.stopsUser)
    }

    @Test("a cached block survives restarts but stops applying after the maximum age")
    func cachedBlockExpires() {
        var client = makeClient()
        _ = client.decide(installed: "1.9.0", platform: .ios, fetch: .fetched(blocking))
        // A new process: the same storage, a new client.
        var restarted = makeClient(client.storage)
        clock.advance(seconds: 7 * 86400)
        #expect(restarted.decide(installed: "1.9.0", platform: .ios, fetch: .unavailable).status == .blocked)
        clock.advance(seconds: 1)
        let expired = restarted.decide(installed: "1.9.0", platform: .ios, fetch: .unavailable)
        #expect(expired.status == .error)
    }

    @Test("the document's maxAgeSeconds limits how long its cached copy applies")
    func documentMaxAgeLimitsCache() {
        var client = makeClient()
        let short = #"{"minimumSupportedVersion": "2.0.0", "maxAgeSeconds": 900}"#
        _ = client.decide(installed: "1.0", platform: .ios, fetch: .fetched(short))
        clock.advance(seconds: 900)
        #expect(client.decide(installed: "1.0", platform: .ios, fetch: .unavailable).status == .blocked)
        clock.advance(seconds: 1)
        #expect(client.decide(installed: "1.0", platform: .ios, fetch: .unavailable).status == .error)
    }

    @Test("at most one successful check per throttle window")
    func throttle() {
        var client = makeClient()
        #expect(client.shouldCheck())
        _ = client.decide(installed: "2.0", platform: .ios, fetch: .fetched(blocking))
        #expect(!client.shouldCheck())
        clock.advance(seconds: 14 * 60)
        #expect(!client.shouldCheck())
        clock.advance(seconds: 60)
        #expect(client.shouldCheck())
    }

    @Test("a failed check does not count against the throttle")
    func failedCheckDoesNotCount() {
        var client = makeClient()
        _ = client.decide(installed: "2.0", platform: .ios, fetch: .unavailable)
        #expect(client.shouldCheck())
        _ = client.decide(installed: "2.0", platform: .ios, fetch: .fetched("{not json"))
        #expect(client.shouldCheck())
    }

    @Test("a mock or test document decides but is never cached")
    func mockDocumentNeverCached() {
        var client = makeClient()
        let mock = #"{"maintenance": true}"#
        #expect(client.decide(installed: "2.0", platform: .ios, fetch: .mock(mock)).status == .maintenance)
        #expect(client.cachedEntry == nil)
        #expect(client.storage.values.isEmpty)
        #expect(client.decide(installed: "2.0", platform: .ios, fetch: .unavailable).status == .error)
        #expect(client.decide(installed: "2.0", platform: .ios, fetch: .mock("[")).reason == .configUnreadable)
    }

    @Test("an unreadable fetched document never blocks and keeps the last good copy")
    func unreadableDocumentKeepsLastGoodCopy() {
        var client = makeClient()
        _ = client.decide(installed: "1.9.0", platform: .ios, fetch: .fetched(blocking))
        clock.advance(seconds: 3600)
        let decision = client.decide(installed: "1.9.0", platform: .ios, fetch: .fetched(#"{"minimumSupportedVersion": true}"#))
        #expect(decision.status == .blocked)  // the cached good document still applies
        #expect(client.cachedEntry?.document == blocking)
        var fresh = makeClient()
        let unreadable = fresh.decide(installed: "1.9.0", platform: .ios, fetch: .fetched("<html>502</html>"))
        #expect(unreadable.status == .error)
        #expect(unreadable.reason == .configUnreadable)
    }

    @Test("a null document is cached and runs with defaults")
    func nullDocumentIsAGoodDocument() {
        var client = makeClient()
        let decision = client.decide(installed: "1.0", platform: .ios, fetch: .fetched("null"))
        #expect(decision.status == .ok)
        #expect(decision.reason == .nullDocument)
        #expect(client.cachedEntry?.document == "null")
        #expect(client.decide(installed: "1.0", platform: .ios, fetch: .unavailable).reason == .nullDocument)
    }

    @Test("Later is remembered for that latest version, and a newer latest asks again")
    func dismissalRemembered() {
        var client = makeClient()
        let nudge = client.decide(installed: "2.1.0", platform: .ios, fetch: .fetched(blocking))
        #expect(nudge.status == .updateAvailable)
        client.dismiss(nudge)
        #expect(client.dismissedVersion == "2.4.0")
        clock.advance(seconds: 3600)
        var again = makeClient(client.storage)
        #expect(again.decide(installed: "2.1.0", platform: .ios, fetch: .unavailable).reason == .dismissed)
        let newer = #"{"minimumSupportedVersion": "2.0.0", "latestVersion": "2.5.0"}"#
        #expect(again.decide(installed: "2.1.0", platform: .ios, fetch: .fetched(newer)).status == .updateAvailable)
    }

    @Test("dismissing a block records nothing")
    func dismissingABlockRecordsNothing() {
        var client = makeClient()
        let block = client.decide(installed: "1.0.0", platform: .ios, fetch: .fetched(blocking))
        client.dismiss(block)
        #expect(client.dismissedVersion == nil)
        #expect(client.decide(installed: "1.0.0", platform: .ios, fetch: .unavailable).status == .blocked)
    }

    @Test("storage keys use the configured prefix")
    func storageKeyPrefix() {
        let clock = self.clock
        var client = GateClient(
            reader: GateDocumentReader(format: .json), storage: InMemoryGateStorage(), keyPrefix: "acme.gate.",
            clock: { clock.now })
        _ = client.decide(installed: "1.0", platform: .ios, fetch: .fetched("{}"))
        #expect(Set(client.storage.values.keys) == ["acme.gate.document", "acme.gate.fetchedAt"])
    }
}
