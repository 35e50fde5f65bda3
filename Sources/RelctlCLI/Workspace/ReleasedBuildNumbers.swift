import RelctlCore
import RelctlFiles
import RelctlGit

/// The highest build numbers any release ever shipped, wherever its tag is: the stores' build numbers are one space
/// for every track (Google Play never takes a versionCode back, whichever track had it), so a release from a
/// maintenance branch or a beta branch must go above the releases of every other branch, not only its own files.
struct ReleasedBuildNumbers {
    var ios: String?
    var android: String?
    /// The tag holding the highest of them, for messages.
    var tag: String?

    /// Whether build number `value` is above `other` (anything is above nothing), number by number.
    static func isHigher(_ value: String, than other: String?) -> Bool {
        guard let other else { return true }
        return VersionOrder.compare(value, other) == .orderedDescending
    }
}

extension Workspace {
    /// Reads the configured version files as every release tag of `tagFormat` (stable or prerelease) has them:
    /// each tag's commit once, each configured file's blob in that commit's tree through libgit2 (not the work
    /// tree, not a checkout), parsed by the same readers as the files on disk. A file missing at a tag, or one
    /// that tag's readers cannot parse, is passed over: that tag counts with the files it has.
    ///
    /// `filesVersion`: the version the files hold. An iOS build number counts only from tags whose marketing version
    /// (the core) is not below it: App Store Connect compares build numbers within one version, so an app may start
    /// them again at a new version (1.6.0 built as 5.6.0.2, then 1.7.0 as 1.7.0.4), and the files, at the later
    /// version, already hold what the stores took. Google Play compares every versionCode ever uploaded: every
    /// tag's Android build number counts.
    func releasedBuildNumbers(filesVersion: String? = nil) throws -> ReleasedBuildNumbers {
        let format = try TagFormat(config.tagFormat)
        let prefix = String(config.tagFormat.prefix { $0 != "{" })
        let entries = config.files
        let paths = entries.map { LexicalPath.inRepository($0.path, root: root) }
        var seen: Set<ObjectID> = []
        var result = ReleasedBuildNumbers()
        for name in try repository.tagNames(prefix: prefix) {
            guard let text = format.versionText(fromTag: name), config.versionScheme.parse(text) != nil,
                  let reference = try repository.tag(named: name), let commit = try repository.commit(of: reference),
                  seen.insert(commit).inserted else { continue }
            let present = paths.compactMap { $0 }
            let blobs = try repository.blobIDs(at: present, in: commit)
            var texts: [String: String] = [:]
            for (path, blob) in zip(present, blobs) {
                guard let blob, let text = String(validating: try repository.blobBytes(blob), as: UTF8.self) else { continue }
                texts[path] = text
            }
            let readable = zip(entries, paths).filter { $0.1.map { texts[$0] != nil } ?? false }.map(\.0)
            guard !readable.isEmpty else { continue }
            let versions: CurrentVersions
            if readable.count == entries.count, let same = versionsIfWorkTree(texts, paths: paths) {
                versions = same
            } else {
                let project = ProjectFiles(root: root).overlaid(with: texts)
                guard let read = try? CurrentVersions.read(readable, from: project) else { continue }
                versions = read
            }
            var raised = false
            let iosCounts = filesVersion.map {
                VersionOrder.compare(VersionParts(text).core, VersionParts($0).core) != .orderedAscending
            } ?? true
            if iosCounts, let ios = versions.highestIOSBuild, ReleasedBuildNumbers.isHigher(ios, than: result.ios) {
                result.ios = ios
                raised = true
            }
            if let android = versions.highestAndroidBuild, ReleasedBuildNumbers.isHigher(android, than: result.android) {
                result.android = android
                raised = true
            }
            if raised { result.tag = name }
        }
        return result
    }

}
