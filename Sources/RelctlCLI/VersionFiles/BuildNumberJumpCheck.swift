import RelctlCore
import RelctlFiles

extension Workspace {
    /// Refuses a planned sync that would move a build number further than `buildNumber.maxJump` (default
    /// 10000; for Android also 1 % of what is left below Google Play's cap) in one go: such a number cannot be
    /// taken back once a store has it. Names the file, the two numbers and the fix.
    func checkBuildNumberJumps(_ plan: SyncPlan, current: CurrentVersions, explicitBuild: Bool) throws {
        let settings = config.buildNumber
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
                    + "(\(jumpFix(field: location.field, current: current, explicitBuild: explicitBuild)))")
            }
        }
    }

    private func jumpFix(field: VersionField, current: CurrentVersions, explicitBuild: Bool) -> String {
        let allow = "if the jump is intended, set \"maxJump\" under \"buildNumber\" in \(configDisplayPath) (0 turns the check off)"
        if explicitBuild { return "check the number given to --build; \(allow)" }
        let settings = config.buildNumber
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
