import RelctlCore
import RelctlFiles

/// Whether the files already stand for a version itself, not only for its store-safe core: a function of the files
/// as read, the record of the last `relctl sync` in this clone and the release tags, each handed in.
enum LastSyncedVersion {
    /// Whether the files already stand for `version` itself, not only for its store-safe core.
    ///
    /// iOS formats keep only the core (`1.4.0` for `1.4.0-beta.2`), so unchanged bytes prove nothing about a
    /// prerelease: a file keeping the whole version (package.json, Gradle, gradle.properties, a json/regex
    /// marketing entry) decides when there is one. Otherwise a prerelease is always a new build (the stores tell
    /// betas apart by build number only), and a final version whose core the files hold is the same unless the
    /// record of the last `relctl sync` in this clone (in `gitDir`), or a prerelease tag of that core without a tag
    /// for the final version (`tags`, read only then), shows the files were last synced to a prerelease.
    static func filesWereLastSynced(to version: String, current: CurrentVersions, gitDir: String,
                                    tags: @autoclosure () -> ReleaseTags?) -> Bool {
        let whole = current.files.filter(\.keepsPrerelease).compactMap(\.marketing)
        if !whole.isEmpty { return whole.allSatisfy { $0 == version } }
        if VersionParts(version).prerelease != nil { return false }
        if let record = SyncRecord.read(gitDir: gitDir), record.fingerprint == SyncRecord.fingerprint(current) {
            return record.version == version
        }
        // No file holds the version ("only": "build" entries): only the record can tell it is the same.
        if !current.files.contains(where: { $0.marketing != nil }) { return false }
        return !(tags()?.prereleaseTaggedWithoutFinal(version) ?? false)
    }
}

extension ReleaseTags {
    /// A tag of a prerelease of `version`'s core exists, and none of `version` itself.
    func prereleaseTaggedWithoutFinal(_ version: String) -> Bool {
        var prerelease = false
        for tag in parsed {
            let tagged = tag.version.description
            if tagged == version { return false }
            let parts = VersionParts(tagged)
            if parts.core == VersionParts(version).core && parts.prerelease != nil { prerelease = true }
        }
        return prerelease
    }
}
