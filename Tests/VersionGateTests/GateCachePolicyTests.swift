import Testing
import VersionGate

@Suite("GateCachePolicy: when to check and how long a cached document applies")
struct GateCachePolicyTests {
    let policy = GateCachePolicy()
    let start = GateInstant(secondsSince1970: 1_750_000_000)

    @Test("the defaults are 7 days of cache and one check per 15 minutes")
    func defaults() {
        #expect(policy.maxAgeSeconds == 604_800)
        #expect(policy.throttleSeconds == 900)
    }

    @Test("at most one successful check per throttle window")
    func atMostOneSuccessfulCheckPerThrottleWindow() {
        #expect(policy.shouldCheck(lastSuccessfulCheck: nil, now: start))
        #expect(!policy.shouldCheck(lastSuccessfulCheck: start, now: start))
        #expect(!policy.shouldCheck(lastSuccessfulCheck: start, now: start.adding(seconds: 899)))
        #expect(policy.shouldCheck(lastSuccessfulCheck: start, now: start.adding(seconds: 900)))
        let hourly = GateCachePolicy(throttleSeconds: 3600)
        #expect(!hourly.shouldCheck(lastSuccessfulCheck: start, now: start.adding(seconds: 900)))
    }

    @Test("a clock that went back before the last check allows a check")
    func clockBackwardsAllowsCheck() {
        #expect(policy.shouldCheck(lastSuccessfulCheck: start, now: start.adding(seconds: -1)))
    }

    @Test("a cached document stops applying after 7 days by default")
    func cachedDocumentExpiresAfterMaxAge() {
        let entry = GateCacheEntry(document: "{}", fetchedAt: start)
        #expect(policy.applies(entry, documentMaxAgeSeconds: nil, now: start.adding(seconds: 7 * 86400)))
        #expect(!policy.applies(entry, documentMaxAgeSeconds: nil, now: start.adding(seconds: 7 * 86400 + 1)))
    }

    @Test("the document's maxAgeSeconds replaces the default")
    func documentMaxAgeReplacesDefault() {
        let entry = GateCacheEntry(document: "{}", fetchedAt: start)
        #expect(policy.applies(entry, documentMaxAgeSeconds: 900, now: start.adding(seconds: 900)))
        #expect(!policy.applies(entry, documentMaxAgeSeconds: 900, now: start.adding(seconds: 901)))
        #expect(policy.applies(entry, documentMaxAgeSeconds: 30 * 86400, now: start.adding(seconds: 20 * 86400)))
    }

    @Test("an entry from the future does not apply")
    func entryFromTheFutureDoesNotApply() {
        let entry = GateCacheEntry(document: "{}", fetchedAt: start.adding(seconds: 60))
        #expect(!policy.applies(entry, documentMaxAgeSeconds: nil, now: start))
    }

    @Test("a mock or test document is never cached")
    func mockDocumentNeverCached() {
        #expect(policy.entryToCache(document: "{}", isMock: true, now: start) == nil)
        #expect(policy.entryToCache(document: "{}", isMock: false, now: start) == GateCacheEntry(document: "{}", fetchedAt: start))
    }
}
