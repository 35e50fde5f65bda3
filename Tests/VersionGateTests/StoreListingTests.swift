import Testing
import VersionGate

@Suite("GateLadder: the store listing as the source of latest")
struct StoreListingTests {
    let config = GateConfig(
        minimumSupportedVersion: "2.3.0", latestVersion: "2.5.0", storeURL: "https://apps.apple.com/app/id123")

    @Test("the store's listed version is the latest")
    func storeVersionIsTheLatest() {
        let decision = GateLadder.evaluate(
            installed: "2.5.0", config: config, store: .listed(version: "2.6.0", url: "https://apps.apple.com/us/app/x/id123"))
        #expect(decision.status == .updateAvailable)
        #expect(decision.latest == "2.6.0")
        #expect(decision.storeURL == "https://apps.apple.com/us/app/x/id123")
    }

    @Test("not older than the store's listed version is ok, even below the minimum: nothing to install")
    func notOlderThanStoreIsOkEvenBelowMinimum() {
        for installed: GateVersion in ["2.2.0", "2.2", "2.2.1"] {
            let decision = GateLadder.evaluate(installed: installed, config: config, store: .listed(version: "2.2.0", url: nil))
            #expect(decision.status == .ok, "\(installed)")
            #expect(decision.reason == .notOlderThanStore)
        }
    }

    @Test("a store listing older than the minimum does not block")
    func storeListingOlderThanMinimumDoesNotBlock() {
        // The floor was raised to 2.3.0 before 2.3.0 was live; the store still lists 2.2.0.
        let decision = GateLadder.evaluate(installed: "2.2.0", config: config, store: .listed(version: "2.2.0", url: nil))
        #expect(decision.status == .ok)
        // Someone older than the listing is still blocked: there is something to install (the seed's order).
        let older = GateLadder.evaluate(installed: "2.1.0", config: config, store: .listed(version: "2.2.0", url: nil))
        #expect(older.status == .blocked)
        #expect(older.latest == "2.2.0")
    }

    @Test("below the minimum with a newer version listed is blocked")
    func belowMinimumWithNewerListedIsBlocked() {
        let decision = GateLadder.evaluate(installed: "2.2.0", config: config, store: .listed(version: "2.5.0", url: nil))
        #expect(decision.status == .blocked)
        #expect(decision.storeURL == "https://apps.apple.com/app/id123")
    }

    @Test("a failed store lookup gives no prompt at all, forced or not")
    func storeUnavailableFailsOpen() {
        let decision = GateLadder.evaluate(installed: "1.0.0", config: config, store: .unavailable)
        #expect(decision.status == .error)
        #expect(decision.reason == .storeUnavailable)
    }

    @Test("maintenance is decided before the store")
    func maintenanceBeforeStore() {
        var down = config
        down.maintenance = true
        #expect(GateLadder.evaluate(installed: "9.0", config: down, store: .unavailable).status == .maintenance)
    }
}
