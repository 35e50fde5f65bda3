import RelctlCore

/// What a release from the current branch is: a stable release, a prerelease of a channel, a release inside a
/// maintenance range, or a prerelease inside one. From the branch's `branches` entry, with `--prerelease` on top.
struct ReleaseTrack {
    var branch: String?
    /// The channel of a prerelease (`--prerelease beta`, or the branch entry's `prerelease`); nil: stable.
    var channel: ReleaseChannel?
    /// A maintenance branch (`release/1.4.x`, `1.x`, or an entry with `"maintenance": true`).
    var maintenance = false
    /// The versions a maintenance branch releases; nil on a maintenance branch whose name and entry give none (the
    /// analysis then takes the last release's `X.Y.x`).
    var range: MaintenanceRange?

    var isPrerelease: Bool { channel != nil }
}

extension ReleaseTrack {
    /// The track of `branch` (the current one) under `config`'s `branches`; `requested` (`--prerelease`) overrides the
    /// entry's channel.
    static func of(branch: String?, config: Config, requested: ReleaseChannel?) -> ReleaseTrack {
        var track = ReleaseTrack(branch: branch, channel: requested)
        if let branch, let rule = config.branchRule(for: branch) {
            if track.channel == nil { track.channel = rule.prerelease }
            track.maintenance = rule.isMaintenance(branch)
            track.range = rule.range(on: branch)
            if case .calendar = config.versionScheme, !rule.maintenance {
                // A calendar version has no X.Y.x line: a name like release/2026.8.x is an ordinary release branch.
                track.maintenance = false
                track.range = nil
            }
        }
        return track
    }
}
