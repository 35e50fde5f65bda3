import RelctlCore
import RelctlFiles

/// A planned sync, with what was decided on the way.
struct VersionSync {
    /// The files as they were before the sync.
    var current: CurrentVersions
    var plan: SyncPlan
    /// Why build numbers were left alone, when they were.
    var note: String?
    /// Where each new build number came from, when the stores are a source (`buildNumber.source` "stores"):
    /// `iOS build: 58 (one above App Store Connect's 57 for 2.4.0)`.
    var buildSources: [String] = []

    /// The build numbers the files hold after the sync (new, or the current highest when untouched).
    /// Nil for a store no file carries a build number for (an iOS-only app has no Android build, even with
    /// `--build N`), so messages never name the other platform.
    var iosBuild: String? { carries(.iosBuild) ? plan.iosBuild ?? current.highestIOSBuild : nil }
    var androidBuild: String? { carries(.androidBuild) ? plan.androidBuild ?? current.highestAndroidBuild : nil }

    private func carries(_ field: VersionField) -> Bool {
        current.files.contains { $0.locations.contains { $0.field == field || $0.field == .build } }
    }
    var changed: [FileChange] { plan.changes.filter(\.isChanged) }
}
