import RelctlCore
import RelctlFiles

/// The marketing versions the configured version files hold: relctl never writes a lower one (the stores refuse a
/// version below the last one they approved), and `release` never one equal to it.
///
/// iOS files (and everything feeding CFBundleShortVersionString) keep only the core of a prerelease (`1.3.0` for
/// `1.3.0-beta.2`), so they are compared by core: the final `1.3.0` after its betas is not "equal" to them. Files
/// keeping the whole version (package.json, Gradle, gradle.properties…) are compared whole.
struct VersionFloor {
    struct Site {
        var path: String
        var line: Int
        var value: String
        /// false: the file keeps only the core (iOS formats, a regex whose pattern admits no prerelease).
        var keepsWholeVersion: Bool
        /// The store the file's marketing version feeds (nil: both, or none in particular).
        var platform: StorePlatform?
    }

    /// Every literal, numeric marketing value, in file order.
    let sites: [Site]
    /// The files as read.
    let current: CurrentVersions

    init(_ current: CurrentVersions) {
        self.current = current
        // The application target's resolved version: values only extensions read, or no target reads, are left out.
        let extensionOnly = VersionDrift.notReadByApp(current.files)
        var sites: [Site] = []
        for file in current.files {
            for location in file.usedLocations where location.field == .marketing && location.indirection == nil
                && VersionOrder.isNumeric(location.value) && !extensionOnly.contains("\(file.entry.path):\(location.line)") {
                sites.append(Site(path: file.entry.path, line: location.line, value: location.value,
                                  keepsWholeVersion: file.keepsPrerelease, platform: file.entry.format.marketingPlatform))
            }
        }
        self.sites = sites
    }

    /// The version a marketing value stands for in comparisons: a fourth number is the team's build of a release
    /// train (`3.38.0.18`, the 18th build on the way to 3.38.0), read as a prerelease of the first three
    /// (`3.38.0-18`), not as a version above the train: below `3.38.0` and its named prereleases (`3.38.0-rc.19`).
    static func compared(_ value: String) -> String {
        let parts = VersionParts(value)
        guard parts.prerelease == nil, let numbers = parts.numbers, numbers.count > 3 else { return value }
        return numbers.prefix(3).map(String.init).joined(separator: ".") + "-" + numbers.dropFirst(3).map(String.init).joined(separator: ".")
    }

    /// The version the files stand for: the highest whole version when a file keeps one, else the highest core.
    var held: Site? {
        let pool = sites.contains(where: \.keepsWholeVersion) ? sites.filter(\.keepsWholeVersion) : sites
        return pool.max { VersionOrder.compare(Self.compared($0.value), Self.compared($1.value)) == .orderedAscending }
    }

    /// Whether every file holds the same version (an iOS core agreeing with a whole prerelease of it).
    var agreed: Bool {
        guard let held else { return true }
        return sites.allSatisfy { site in
            let compared = site.keepsWholeVersion ? held.value : VersionParts(held.value).core
            return VersionOrder.compare(Self.compared(site.value), Self.compared(compared)) == .orderedSame
        }
    }

    enum Standing { case lower, equal }

    /// Where writing `version` would go below the files (the highest such file), or, with `refuseEqual`, stay at
    /// the version they hold. `lastSyncedTo(version)` tells whether files keeping only the core stand for
    /// `version` itself (see `LastSyncedVersion.filesWereLastSynced`): only then is an equal core "equal".
    func problem(writing version: String, refuseEqual: Bool,
                 lastSyncedTo: (String) -> Bool) -> (standing: Standing, site: Site)? {
        let core = VersionParts(version).core
        let lower = sites.filter { site in
            VersionOrder.compare(site.keepsWholeVersion ? version : core, Self.compared(site.value)) == .orderedAscending
        }
        if let highest = lower.max(by: { VersionOrder.compare(Self.compared($0.value), Self.compared($1.value)) == .orderedAscending }) {
            return (.lower, highest)
        }
        guard refuseEqual else { return nil }
        let whole = sites.filter(\.keepsWholeVersion)
        if !whole.isEmpty {
            return whole.first { VersionOrder.compare(version, $0.value) == .orderedSame }.map { (.equal, $0) }
        }
        guard let same = sites.first(where: { VersionOrder.compare(core, $0.value) == .orderedSame }),
              lastSyncedTo(version) else { return nil }
        return (.equal, same)
    }
}
