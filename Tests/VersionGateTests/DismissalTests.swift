import Testing
import VersionGate

@Suite("GateLadder: dismissal")
struct DismissalTests {
    let config = GateConfig(minimumSupportedVersion: "2.0.0", latestVersion: "2.3.0")

    @Test("Later suppresses the nudge for exactly that latest version")
    func dismissalSuppressesThatLatest() {
        let decision = GateLadder.evaluate(installed: "2.1.0", config: config, dismissed: "2.3.0")
        #expect(decision.status == .ok)
        #expect(decision.reason == .dismissed)
        #expect(decision.latest == "2.3.0")
        // Numeric equality: "2.3" is the same version.
        #expect(GateLadder.evaluate(installed: "2.1.0", config: config, dismissed: "2.3").status == .ok)
    }

    @Test("a user who dismissed 2.3.0 is asked again for 2.4.0")
    func dismissedOlderLatestAsksAgain() {
        var newer = config
        newer.latestVersion = "2.4.0"
        let decision = GateLadder.evaluate(installed: "2.1.0", config: newer, dismissed: "2.3.0")
        #expect(decision.status == .updateAvailable)
        #expect(decision.versionToDismiss == "2.4.0")
    }

    @Test("a dismissal never suppresses blocked")
    func dismissalNeverSuppressesBlocked() {
        let decision = GateLadder.evaluate(installed: "1.9.0", config: config, dismissed: "2.3.0")
        #expect(decision.status == .blocked)
    }

    @Test("with a store listing, Later applies to the listed version")
    func dismissalAppliesToStoreVersion() {
        let listed = StoreListing.listed(version: "1.0.2", url: nil)
        let bare = GateConfig()
        #expect(GateLadder.evaluate(installed: "1.0.1", config: bare, store: listed, dismissed: "1.0.2").status == .ok)
        let newer = StoreListing.listed(version: "1.0.3", url: nil)
        #expect(GateLadder.evaluate(installed: "1.0.1", config: bare, store: newer, dismissed: "1.0.2").status == .updateAvailable)
    }
}
