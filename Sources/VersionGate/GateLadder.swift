/// The decision ladder: one pure function from an installed version and a config to a ``GateDecision``.
///
/// In this order:
/// 1. `maintenance` on → ``GateStatus/maintenance``, whatever the version (the server is down for everyone).
/// 2. A store listing that is configured but unavailable → ``GateStatus/error`` (no prompt, forced or not).
///    An installed version not older than the listed one → ``GateStatus/ok``, even below the minimum: there
///    is nothing newer to install.
/// 3. Below the minimum → ``GateStatus/blocked``. Decided before the nudge, so a nudge never hides a version
///    that must not run, and a dismissal never applies to it.
/// 4. Below the latest → ``GateStatus/updateAvailable``, unless the user chose Later for exactly that latest
///    version (→ ``GateStatus/ok``, reason ``GateReason/dismissed``); a newer latest asks again.
/// 5. Otherwise ``GateStatus/ok``.
///
/// A config that cannot be had is not an input here: use ``failOpen(installed:reason:)``, which lets the
/// user through.
public enum GateLadder {
    /// The verdict for `installed` under `config`.
    ///
    /// - Parameters:
    ///   - config: the values for the app's platform; `nil` is a `null` document ("run with defaults": ok).
    ///   - store: the store listing, when the store is the source of "latest".
    ///   - dismissed: the version the user last chose Later for.
    public static func evaluate(
        installed: GateVersion, config: GateConfig?, store: StoreListing = .notConfigured,
        dismissed: GateVersion? = nil
    ) -> GateDecision {
        guard let config else {
            return GateDecision(status: .ok, reason: .nullDocument, installed: installed)
        }
        var decision = GateDecision(
            status: .ok, reason: .upToDate, installed: installed, minimum: config.minimumSupportedVersion,
            latest: config.latestVersion, storeURL: config.storeURL,
            androidNativeUpdateEnabled: config.androidNativeUpdateEnabled, notice: config.notice, config: config)

        if config.maintenance {
            decision.status = .maintenance
            decision.reason = .maintenance
            decision.message = config.maintenanceMessage ?? GateConfig.defaultMaintenanceMessage
            return decision
        }

        switch store {
        case .notConfigured:
            break
        case .unavailable:
            return failOpen(installed: installed, reason: .storeUnavailable)
        case .listed(let version, let url):
            decision.latest = version
            if let url { decision.storeURL = url }
            if !(installed < version) {
                decision.reason = .notOlderThanStore
                return decision
            }
        }

        if let minimum = config.minimumSupportedVersion, installed < minimum {
            decision.status = .blocked
            decision.reason = .belowMinimum
            decision.message = config.forceUpdateMessage ?? GateConfig.defaultForceUpdateMessage
            return decision
        }

        if let latest = decision.latest, installed < latest {
            if let dismissed, dismissed == latest {
                decision.reason = .dismissed
                return decision
            }
            decision.status = .updateAvailable
            decision.reason = .belowLatest
            decision.message = config.updateAvailableMessage ?? GateConfig.defaultUpdateAvailableMessage
            return decision
        }
        return decision
    }

    /// The verdict when the config could not be fetched or read, or the store lookup failed: ``GateStatus/error``,
    /// which lets the user through with no message and no store URL.
    public static func failOpen(installed: GateVersion, reason: GateReason = .configUnavailable) -> GateDecision {
        GateDecision(status: .error, reason: reason, installed: installed)
    }
}
