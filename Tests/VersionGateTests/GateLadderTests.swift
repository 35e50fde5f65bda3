import Testing
import VersionGate

@Suite("GateLadder: the decision ladder")
struct GateLadderTests {
    let config = GateConfig(
        minimumSupportedVersion: "2.3.0", latestVersion: "2.5.0", forceUpdateMessage: "Update to keep working.",
        updateAvailableMessage: "2.5.0 is out.", storeURL: "https://apps.apple.com/app/id123")

    @Test("below the minimum is blocked, with the force message and the store URL")
    func belowMinimumIsBlocked() {
        let decision = GateLadder.evaluate(installed: "2.2.9", config: config)
        #expect(decision.status == .blocked)
        #expect(decision.reason == .belowMinimum)
        #expect(decision.message == "Update to keep working.")
        #expect(decision.storeURL == "https://apps.apple.com/app/id123")
        #expect(decision.minimum == "2.3.0")
        #expect(decision.latest == "2.5.0")
        #expect(decision.status.stopsUser)
    }

    @Test("blocked cannot be dismissed")
    func blockedHasNoDismiss() {
        let decision = GateLadder.evaluate(installed: "1.0", config: config)
        #expect(!decision.canDismiss)
        #expect(decision.versionToDismiss == nil)
    }

    @Test("at the minimum but below the latest is updateAvailable, dismissible")
    func atMinimumBelowLatestIsUpdateAvailable() {
        let decision = GateLadder.evaluate(installed: "2.3.0", config: config)
        #expect(decision.status == .updateAvailable)
        #expect(decision.reason == .belowLatest)
        #expect(decision.message == "2.5.0 is out.")
        #expect(decision.canDismiss)
        #expect(decision.versionToDismiss == "2.5.0")
        #expect(!decision.status.stopsUser)
    }

    @Test("at or above the latest is ok, with no message")
    func atOrAboveLatestIsOk() {
        for installed: GateVersion in ["2.5.0", "2.5", "2.6.0", "10.0"] {
            let decision = GateLadder.evaluate(installed: installed, config: config)
            #expect(decision.status == .ok, "\(installed)")
            #expect(decision.reason == .upToDate)
            #expect(decision.message == "")
        }
    }

    @Test("blocked is decided before the nudge, so a nudge never hides a version that must not run")
    func blockedIsDecidedFirst() {
        // Below both: the wall, not the nudge.
        #expect(GateLadder.evaluate(installed: "2.0.0", config: config).status == .blocked)
        // A misconfigured minimum above the latest still blocks.
        let inverted = GateConfig(minimumSupportedVersion: "3.0.0", latestVersion: "2.5.0")
        #expect(GateLadder.evaluate(installed: "2.6.0", config: inverted).status == .blocked)
    }

    @Test("the buckets move with the installed version (the seed's walk-through)")
    func bucketsAcrossInstalledVersions() {
        let statuses = ["1.0.0", "2.2.99", "2.3.0", "2.4.10", "2.5.0", "2.10.0"].map {
            GateLadder.evaluate(installed: GateVersion($0), config: config).status
        }
        #expect(statuses == [.blocked, .blocked, .updateAvailable, .updateAvailable, .ok, .ok])
    }

    @Test("without a minimum nothing is blocked; without a latest nothing is nudged")
    func missingThresholdsNeverGate() {
        let noMinimum = GateConfig(latestVersion: "2.5.0")
        #expect(GateLadder.evaluate(installed: "0.1", config: noMinimum).status == .updateAvailable)
        let noLatest = GateConfig(minimumSupportedVersion: "2.3.0")
        #expect(GateLadder.evaluate(installed: "2.3.0", config: noLatest).status == .ok)
        #expect(GateLadder.evaluate(installed: "0.0.1", config: GateConfig()).status == .ok)
    }

    @Test("a minimum of 0 (the seed's default) means no minimum")
    func minimumZeroMeansNone() {
        let zero = GateConfig(minimumSupportedVersion: "0", latestVersion: "0.0.0")
        #expect(GateLadder.evaluate(installed: "0.0.1", config: zero).status == .ok)
        #expect(GateLadder.evaluate(installed: "0", config: zero).status == .ok)
    }

    @Test("messages fall back to the defaults when the document gives none")
    func defaultMessages() {
        let bare = GateConfig(minimumSupportedVersion: "2.0", latestVersion: "3.0")
        #expect(GateLadder.evaluate(installed: "1.0", config: bare).message == GateConfig.defaultForceUpdateMessage)
        #expect(GateLadder.evaluate(installed: "2.0", config: bare).message == GateConfig.defaultUpdateAvailableMessage)
    }

    @Test("maintenance stops every version, with a retry message instead of an update")
    func maintenanceBlocksRegardlessOfVersion() {
        var down = config
        down.maintenance = true
        down.maintenanceMessage = "Back at 14:00."
        for installed: GateVersion in ["1.0", "2.3.0", "2.5.0", "9.9"] {
            let decision = GateLadder.evaluate(installed: installed, config: down)
            #expect(decision.status == .maintenance, "\(installed)")
            #expect(decision.reason == .maintenance)
            #expect(decision.message == "Back at 14:00.")
            #expect(!decision.canDismiss)
            #expect(decision.status.stopsUser)
        }
        down.maintenanceMessage = nil
        #expect(GateLadder.evaluate(installed: "2.5.0", config: down).message == GateConfig.defaultMaintenanceMessage)
    }

    @Test("a config that cannot be fetched or parsed is error, which lets the user through")
    func errorFailsOpen() {
        let decision = GateLadder.failOpen(installed: "1.0.0")
        #expect(decision.status == .error)
        #expect(decision.reason == .configUnavailable)
        #expect(!decision.status.stopsUser)
        #expect(decision.message == "")
        #expect(decision.storeURL == nil)
        #expect(decision.config == nil)
        #expect(GateLadder.failOpen(installed: "1.0.0", reason: .configUnreadable).reason == .configUnreadable)
    }

    @Test("a null document runs with defaults")
    func nullDocumentRunsWithDefaults() {
        let decision = GateLadder.evaluate(installed: "0.0.1", config: nil)
        #expect(decision.status == .ok)
        #expect(decision.reason == .nullDocument)
        #expect(decision.config == nil)
    }

    @Test("the notice and the config travel with every verdict but error")
    func noticeTravelsWithTheVerdict() {
        var withNotice = config
        withNotice.notice = GateNotice(level: "warning", text: "Photo attachments are off today.")
        withNotice.androidNativeUpdateEnabled = true
        let ok = GateLadder.evaluate(installed: "2.5.0", config: withNotice)
        #expect(ok.notice == GateNotice(level: "warning", text: "Photo attachments are off today."))
        #expect(ok.config == withNotice)
        #expect(ok.androidNativeUpdateEnabled)
        #expect(GateLadder.evaluate(installed: "1.0", config: withNotice).notice != nil)
    }
}
