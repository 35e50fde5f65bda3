import RelctlCore
import RelctlFiles

/// The rules `VersionFilePlan.make` plans by, over the facts it was handed: the files as read, the release tags'
/// build numbers, the buildNumber settings, the release tags (whether the files were last synced to a prerelease),
/// the record of the last sync in this clone, and the stores when they are a source. Reads nothing else.
struct VersionFilePlanner {
    let current: CurrentVersions
    /// The highest build numbers any release tag holds (see ReleasedBuildNumbers.swift); nil when not read.
    let released: ReleasedBuildNumbers?
    let settings: BuildNumberSettings
    let configDisplayPath: String
    let root: String
    let gitDir: String
    /// The release tags of the run (listed once per run; nil when they cannot be listed).
    let tags: () -> ReleaseTags?
    /// The build numbers the stores hold for a version (`buildNumber.source` "stores").
    let stores: (String) throws -> StoreBuildNumbers

    /// Plans writing `version` to every configured file, with build numbers from `build` (both stores) or the
    /// configured strategy. Nothing is written; every problem is a `Problem` naming `path:line`.
    ///
    /// With `increment`, a sync that changes no marketing version (and finds no build drift) keeps the build
    /// numbers, so running the same sync twice changes nothing the second time. `released`: `increment` counts from
    /// the higher of them and the files, so a maintenance or beta branch never reuses another branch's build number.
    func plan(version: String, build: String?, environment: [String: String]) throws -> VersionFilePlan {
        // perVersion, or a build given for a version the files do not hold yet: App Store Connect compares
        // CFBundleVersion within one version, so what counts is what the tags show for this very version.
        let iosVersionIsNew = VersionFloor(current).held.map {
            VersionOrder.compare(VersionParts($0.value).core, VersionParts(version).core) != .orderedSame
        } ?? false
        var released = released
        // buildNumber source "stores": the count goes on from the highest of the files, the tags and the stores.
        var stores: StoreBuildNumbers?
        let releasedBeforeStores = released
        if build == nil, settings.counts, settings.source == .stores, let tagged = released {
            let read = try self.stores(version)
            var perVersion = false
            if case .perVersion = settings.strategy { perVersion = true }
            released = read.merged(into: tagged, version: version, perVersion: perVersion)
            stores = read
        }
        let releasedForVersion = released?.iosByVersion[VersionParts(version).core]
        var ios: String?
        var android: String?
        var note: String?
        if let build {
            ios = build
            android = build
        } else {
            switch settings.strategy {
            case .keep:
                note = "build numbers kept (buildNumber strategy keep)"
            case .increment, .perVersion:
                let marketingOnly = try plan(current, version: version, ios: nil, android: nil)
                let buildDrift = current.drift.contains { $0.field != .marketing }
                if current.highestIOSBuild == nil && current.highestAndroidBuild == nil {
                    // A computed build number cannot be incremented: refuse rather than ship a stale build.
                    for file in current.files {
                        for location in file.locations where location.field != .marketing {
                            if case .computed(let expression, let hint)? = location.indirection {
                                throw Problem("\(file.entry.path):\(location.line): \(location.context ?? location.field.rawValue) is a computed value (\(expression)), so relctl cannot increment it (\(hint); or pass --build N, or set buildNumber strategy \"keep\")")
                            }
                        }
                    }
                    note = "no file holds a build number; only the version is written"
                } else if !marketingOnly.changes.contains(where: \.isChanged) && !buildDrift
                            && LastSyncedVersion.filesWereLastSynced(to: version, current: current, gitDir: gitDir, tags: tags()) {
                    note = "every file already holds \(version); build numbers kept (pass --build N to set them)"
                } else {
                    // A platform no file holds stays without a build number, whatever the tags hold.
                    func raised(_ held: String?, _ tagged: String?) -> String? {
                        guard let held else { return nil }
                        guard let tagged, ReleasedBuildNumbers.isHigher(tagged, than: held) else { return held }
                        return tagged
                    }
                    var currentIOS = raised(current.highestIOSBuild, released?.ios)
                    var newVersion = false
                    if case .perVersion = settings.strategy {
                        // A new version starts again, unless a release of it exists (then its builds count up).
                        newVersion = iosVersionIsNew && releasedForVersion == nil
                        currentIOS = iosVersionIsNew ? releasedForVersion?.build ?? current.highestIOSBuild
                            : raised(current.highestIOSBuild, releasedForVersion?.build)
                    }
                    (ios, android) = try nextBuilds(settings, current: current, version: version, environment: environment,
                                                    currentIOS: currentIOS,
                                                    currentAndroid: raised(current.highestAndroidBuild, released?.android),
                                                    iosVersionIsNew: newVersion)
                }
            case .fromVersion, .env:
                // These do not depend on the current values; each file checks "greater than current" itself.
                (ios, android) = try nextBuilds(settings, current: current, version: version, environment: environment,
                                                currentIOS: nil, currentAndroid: nil)
                try refuseReusedBuild(settings, version: version, current: current, ios: ios, android: android)
            }
        }
        if let ios, iosVersionIsNew, let released = releasedForVersion, !ReleasedBuildNumbers.isHigher(ios, than: released.build) {
            // The version was really uploaded already, with this build or a higher one.
            let site = Self.site(of: StoreRuleViolation(message: "", rule: "", fix: "", platform: .ios), in: current)
            let next = (try? BuildNumberPolicy.increment(released.build)) ?? "a higher one"
            throw Problem("\(site.map { "\($0.path):\($0.line)" } ?? configDisplayPath): iOS build \(ios) for \(VersionParts(version).core) is not above \(released.build), which release \(released.tag) already uploaded for that version; each upload of a version needs a higher CFBundleVersion than the last (TN2420): pass --build \(next) or higher")
        }
        let plan = try plan(current, version: version, ios: ios, android: android)
        try checkBuildNumberJumps(plan, explicitBuild: build != nil)
        var made = VersionFilePlan(current: current, plan: plan, note: note)
        if let stores, note == nil {
            made.buildSources = stores.sourceLines(ios: ios, android: android, current: current, released: releasedBeforeStores,
                                                   version: version, settings: settings)
        }
        return made
    }

    /// The plan over the files as read: in memory, nothing read again.
    private func plan(_ current: CurrentVersions, version: String, ios: String?, android: String?) throws -> SyncPlan {
        do {
            return try SyncPlan.make(current, version: version, iosBuild: ios, androidBuild: android)
        } catch {
            throw error.failure(root: root)
        }
    }

    /// A new version must get a new build number: the stores refuse a second upload with the same one. Without
    /// `prereleaseDigits`, fromVersion gives `1.3.0-beta.1`, `1.3.0-beta.2` and `1.3.0` the same number, so a
    /// sync to another of them that would keep the files' build number is refused (each file would otherwise say
    /// "nothing to write", or move versionName alone) with the fix.
    private func refuseReusedBuild(_ settings: BuildNumberSettings, version: String, current: CurrentVersions,
                                   ios: String?, android: String?) throws {
        guard case .fromVersion(_, let prereleaseDigits) = settings.strategy, prereleaseDigits == 0,
              !LastSyncedVersion.filesWereLastSynced(to: version, current: current, gitDir: gitDir, tags: tags()) else { return }
        // Files keeping only the core cannot tell betas apart; the record of the last sync in this clone can.
        if let record = SyncRecord.read(gitDir: gitDir), record.fingerprint == SyncRecord.fingerprint(current),
           record.version == version { return }
        // The first build number in the files that the new one would merely repeat.
        func same(_ a: String, _ b: String?) -> Bool { b.map { CurrentVersions.normalizeBuild(a) == CurrentVersions.normalizeBuild($0) } ?? false }
        var reused: (path: String, line: Int, value: String)?
        search: for file in current.files {
            for location in file.locations where location.indirection == nil {
                let new: String? = switch location.field {
                case .marketing: nil
                case .iosBuild: ios
                case .androidBuild: android
                case .build: android ?? ios
                }
                if let new, same(location.value, new) { reused = (file.entry.path, location.line, new); break search }
            }
        }
        guard let reused else { return }
        let place = "\(reused.path):\(reused.line)"
        let value = reused.value
        let held = current.files.first(where: \.keepsPrerelease)?.marketing ?? current.files.compactMap(\.marketing).first
            ?? "the version the files hold"
        throw Problem("\(place): buildNumber strategy fromVersion gives \(version) the build number \(value), which the files already hold for \(held); the stores refuse a second upload with the same build number (set \"prereleaseDigits\": 2 under \"buildNumber\" so each beta gets its own number and the final a higher one, e.g. 1030001, 1030002, then 1030099 for 1.3.0; or pass --build N)")
    }

    private func nextBuilds(_ settings: BuildNumberSettings, current: CurrentVersions, version: String, environment: [String: String],
                            currentIOS: String?, currentAndroid: String?, iosVersionIsNew: Bool = false) throws -> (String?, String?) {
        do {
            let result = try BuildNumberPolicy.next(strategy: settings.strategy, shared: settings.shared, currentIOS: currentIOS,
                                                    currentAndroid: currentAndroid, version: version, environment: environment,
                                                    iosVersionIsNew: iosVersionIsNew)
            return (result.ios, result.android)
        } catch {
            // Point at the file holding the number the rule is about, else at the buildNumber setting.
            let site = Self.site(of: error, in: current)
            let place = site.map { "\($0.path):\($0.line)" }
                ?? "\(configDisplayPath)\(settings.line.map { ":\($0)" } ?? "")"
            throw Problem("\(place): \(error.message) (buildNumber strategy \(settings.strategyName): \(error.rule); \(error.fix))")
        }
    }

    /// The build-number location a store-rule violation of the strategy is about, if one can be named.
    static func site(of violation: StoreRuleViolation, in current: CurrentVersions) -> (path: String, line: Int)? {
        func first(_ fields: [VersionField], value: String?) -> (String, Int)? {
            for file in current.files {
                for location in file.locations where location.indirection == nil && fields.contains(location.field)
                    && (value == nil || location.value == value) {
                    return (file.entry.path, location.line)
                }
            }
            return nil
        }
        if let value = violation.value {
            for file in current.files {
                for location in file.locations where location.indirection == nil && location.field != .marketing
                    && location.value == value {
                    return (file.entry.path, location.line)
                }
            }
        }
        switch violation.platform {
        case .android?: return first([.androidBuild, .build], value: current.highestAndroidBuild)
        case .ios?: return first([.iosBuild, .build], value: current.highestIOSBuild)
        case nil: return nil
        }
    }

    /// Refuses a planned sync that would move a build number further than `buildNumber.maxJump` (default
    /// 10000; for Android also 1 % of what is left below Google Play's cap) in one go: such a number cannot be
    /// taken back once a store has it. Names the file, the two numbers and the fix.
    private func checkBuildNumberJumps(_ plan: SyncPlan, explicitBuild: Bool) throws {
        guard settings.maxJump > 0 else { return }
        // fromVersion derives the number from the version by a formula the team chose (a major release moves
        // it by 10000 with the default digits): its moves are the formula's, not an accident to catch.
        if case .fromVersion = settings.strategy, !explicitBuild { return }
        for change in plan.changes where change.isChanged {
            for location in change.locations where location.indirection == nil && location.field != .marketing {
                guard let new = change.target.value(for: location.field) else { continue }
                let android = location.field == .androidBuild || location.field == .build
                guard let excess = BuildNumberJump.excess(from: location.value, to: new, android: android,
                                                          limit: settings.maxJump) else { continue }
                let name = location.context ?? VersionFileText.fieldName(location.field)
                let by = excess.by == Int.max ? "" : " (+\(excess.by))"
                let undo = android ? "Google Play never accepts a lower versionCode once one is uploaded"
                    : "a store never takes a build number back once a build is uploaded"
                throw Problem("\(change.path):\(location.line): \(name) would jump from \(location.value) to \(new)\(by), "
                    + "more than the \(excess.allowed) one sync may move a build number; \(undo) "
                    + "(\(jumpFix(field: location.field, explicitBuild: explicitBuild)))")
            }
        }
    }

    private func jumpFix(field: VersionField, explicitBuild: Bool) -> String {
        let allow = "if the jump is intended, set \"maxJump\" under \"buildNumber\" in \(configDisplayPath) (0 turns the check off)"
        if explicitBuild { return "check the number given to --build; \(allow)" }
        if case .increment = settings.strategy, settings.shared {
            // The shared counter took the other platform's higher number: name where it lives.
            let other: [VersionField] = field == .iosBuild ? [.androidBuild, .build] : [.iosBuild, .build]
            let highest = field == .iosBuild ? current.highestAndroidBuild : current.highestIOSBuild
            for file in current.files {
                for location in file.locations where location.indirection == nil && other.contains(location.field)
                    && location.value == highest {
                    return "the shared build counter follows \(location.value) in \(file.entry.path):\(location.line); "
                        + "count iOS and Android separately with \"buildNumber\": {\"shared\": false}, or \(allow)"
                }
            }
        }
        return "check buildNumber strategy \(settings.summary); \(allow)"
    }
}
