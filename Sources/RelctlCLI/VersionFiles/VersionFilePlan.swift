import RelctlCore
import RelctlFiles

/// The one plan of the version files that `sync` and `release` share (and `status`' preview of the stores): the
/// files as read, what they become, the build numbers and where they came from, and what was decided on the way.
/// Made once by `make`, from the run's facts; nothing is written.
struct VersionFilePlan {
    /// The files as they were before the sync.
    var current: CurrentVersions
    var plan: SyncPlan
    /// Why build numbers were left alone, when they were.
    var note: String?
    /// Where each new build number came from, when the stores are a source (`buildNumber.source` "stores"):
    /// `iOS build: 58 (one above App Store Connect's 57 for 2.4.0)`.
    var buildSources: [String] = []
    /// The highest build numbers the release tags hold (read when build numbers are written: `--build`, or any
    /// strategy but keep); nil when they were not needed.
    var released: ReleasedBuildNumbers?
    /// Whether the build numbers were counted from the files and the tags (increment, perVersion; no `--build`).
    var counts = false
    /// When the count went on from a release tag above the files: from where, for the notes of sync and release.
    var releasedNote: String?
    /// A versionCode given (`--build`, fromVersion, env) at or below one a release tag holds: `release` refuses it,
    /// `sync` warns.
    var versionCodeProblem: String?

    /// The build numbers the files hold after the sync (new, or the current highest when untouched).
    /// Nil for a store no file carries a build number for (an iOS-only app has no Android build, even with
    /// `--build N`), so messages never name the other platform.
    var iosBuild: String? { carries(.iosBuild) ? plan.iosBuild ?? current.highestIOSBuild : nil }
    var androidBuild: String? { carries(.androidBuild) ? plan.androidBuild ?? current.highestAndroidBuild : nil }

    private func carries(_ field: VersionField) -> Bool {
        current.files.contains { $0.locations.contains { $0.field == field || $0.field == .build } }
    }
    var changed: [FileChange] { plan.changes.filter(\.isChanged) }

    /// Plans writing `version` to every configured file of `workspace` (the one app, or one project), with the build
    /// numbers of `build` (both stores) or of the configured strategy. The facts it stands on are read once each:
    /// the files (`readVersions`), the release tags' build numbers (one space for every branch: increment counts
    /// from the highest any release tag holds, and a versionCode from any other source must still go above it), the
    /// stores when they are a source. Every problem is a `Problem` naming `path:line`.
    static func make(_ workspace: Workspace, version: String, build: String?, environment: [String: String]) throws -> VersionFilePlan {
        let current = try workspace.readVersions()
        let settings = workspace.config.buildNumber
        let released = build != nil || !(settings.strategy == .keep)
            ? try workspace.releasedBuildNumbers(filesVersion: VersionFloor(current).held?.value) : nil
        let planner = VersionFilePlanner(current: current, released: released, settings: settings,
                                         configDisplayPath: workspace.configDisplayPath, root: workspace.root,
                                         gitDir: workspace.repository.gitDir, tags: { try? workspace.releaseTags() },
                                         stores: { try StoreBuildNumbers.read(workspace, current: current, version: $0, environment: environment) })
        var made = try planner.plan(version: version, build: build, environment: environment)
        made.released = released
        made.counts = settings.counts && build == nil
        if made.counts {
            made.releasedNote = made.buildSources.isEmpty ? Self.releasedNote(released: released, current: current) : nil
        } else {
            made.versionCodeProblem = made.versionCodeBelowReleased(build: build, strategy: settings.strategyName)
        }
        return made
    }

    /// Google Play never takes a versionCode below one it has, on any track: a versionCode from `--build`, fromVersion
    /// or env that is not above the highest a release tag holds (a maintenance release under fromVersion, 10403 after
    /// main's 30000) is named with the file, the two numbers and the fix.
    private func versionCodeBelowReleased(build: String?, strategy: String) -> String? {
        guard let released, let tagged = released.android, let tag = released.tag, let new = plan.androidBuild,
              !ReleasedBuildNumbers.isHigher(new, than: tagged) else { return nil }
        let site = current.files.lazy.compactMap { file in
            file.locations.first { [.androidBuild, .build].contains($0.field) && $0.indirection == nil }.map { "\(file.entry.path):\($0.line)" }
        }.first ?? ".relctl.json"
        let source = build != nil ? "--build \(build ?? "")" : "buildNumber strategy \(strategy)"
        return "\(site): versionCode \(new) (from \(source)) is not above \(tagged), which release \(tag) holds; Google Play never accepts a versionCode at or below one it has on any track (pass --build N above \(tagged), or use the increment strategy, which counts from every release tag)"
    }

    /// When a release tag the branch does not hold has a higher build number than the files: where the count goes on
    /// from, for the dry run and the release's notes.
    private static func releasedNote(released: ReleasedBuildNumbers?, current: CurrentVersions) -> String? {
        guard let released, let tag = released.tag else { return nil }
        var parts: [String] = []
        if let files = current.highestIOSBuild, let tagged = released.ios, ReleasedBuildNumbers.isHigher(tagged, than: files) {
            parts.append("iOS \(tagged) (the files hold \(files))")
        }
        if let files = current.highestAndroidBuild, let tagged = released.android, ReleasedBuildNumbers.isHigher(tagged, than: files) {
            parts.append("Android \(tagged) (the files hold \(files))")
        }
        guard !parts.isEmpty else { return nil }
        return "build numbers go on from the highest a release tag holds (\(tag)), not this branch's files: \(parts.joined(separator: ", "))"
    }
}
