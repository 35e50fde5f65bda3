import RelctlCore
import Synchronization
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
    /// The highest iOS build each marketing version (the tag's core, `1.7.0`) was released with, and its tag: App
    /// Store Connect compares build numbers within one version.
    var iosByVersion: [String: (build: String, tag: String)] = [:]
    /// The Android build number (versionCode) each release tag shipped, for the Google Play check (StoreLiveCheck).
    var androidByTag: [String: String] = [:]

    /// Whether build number `value` is above `other` (anything is above nothing), number by number.
    static func isHigher(_ value: String, than other: String?) -> Bool {
        guard let other else { return true }
        return VersionOrder.compare(value, other) == .orderedDescending
    }
}

extension Workspace {
    /// The tag of a release under a tagFormat with `{build}`: the build number the release writes (or, when it
    /// keeps them, the one the files hold), the single build of both stores, else the iOS build, else versionCode.
    func buildTagName(_ format: TagFormat, version: ReleaseVersion, sync: VersionFilePlan) throws -> String {
        guard let build = sync.plan.iosBuild ?? sync.plan.androidBuild ?? sync.iosBuild ?? sync.androidBuild else {
            throw Problem("tagFormat \"\(config.tagFormat)\" in \(configDisplayPath) puts the build number in the tag, but no version file holds one; add the file holding the build number to 'files', pass --build N, or drop {build} from tagFormat")
        }
        return format.tagName(for: version, build: build)
    }

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
        let entries = config.files
        let paths = entries.map { LexicalPath.inRepository($0.path, root: root) }
        var seen: Set<ObjectID> = []
        var parses = TagFileParses(entries: entries, paths: paths)
        // A file is read at a tag only when it can hold a build number that counts there, judged by what its work-tree
        // copy holds: one with no build number (a package.json) never; one with only an iOS build (an Xcode project, a
        // plist, an xcconfig) not at a tag below the files' version (App Store Connect compares builds within one
        // version), so a long history of releases costs one Android parse each.
        let current = try? readVersions()
        func skipped(unless fields: [VersionField]) -> Set<Int> {
            Set(entries.indices.filter { i in
                guard let file = current?.files.first(where: { $0.entry == entries[i] }) else { return false }
                return !file.locations.contains { fields.contains($0.field) }
            })
        }
        let noBuilds = skipped(unless: [.iosBuild, .androidBuild, .build])
        let noAndroidBuilds = skipped(unless: [.androidBuild, .build])
        var result = ReleasedBuildNumbers()
        let present = paths.compactMap { $0 }
        for tag in try releaseTags().parsed {
            let name = tag.name, text = tag.text
            guard let reference = try repository.tag(named: name), let commit = try repository.commit(of: reference),
                  seen.insert(commit).inserted else { continue }
            let blobs = try repository.blobIDs(at: present, in: commit)
            // An iOS build counts only from a tag whose version is not below the files'.
            let iosCountsHere = filesVersion.map {
                VersionOrder.compare(VersionParts(text).core, VersionParts($0).core) != .orderedAscending
            } ?? true
            let versions = try parses.versions(blobs: blobs, workspace: self,
                                               skipping: iosCountsHere ? noBuilds : noAndroidBuilds)
            // A tag carrying its build (`v1.7.0.4` under `v{version}.{build}`) says what the stores took, files or not.
            guard versions != nil || tag.build != nil else { continue }
            let iosBuild = BuildNumberPolicy.highest([versions?.highestIOSBuild, tag.build].compactMap { $0 })
            let androidBuild = BuildNumberPolicy.highest([versions?.highestAndroidBuild, tag.build.flatMap { $0.isASCIIDigits ? $0 : nil }].compactMap { $0 })
            var raised = false
            let core = VersionParts(text).core
            if let ios = iosBuild, ReleasedBuildNumbers.isHigher(ios, than: result.iosByVersion[core]?.build) {
                result.iosByVersion[core] = (ios, name)
            }
            if iosCountsHere, let ios = iosBuild, ReleasedBuildNumbers.isHigher(ios, than: result.ios) {
                result.ios = ios
                raised = true
            }
            if let android = androidBuild { result.androidByTag[name] = android }
            if let android = androidBuild, ReleasedBuildNumbers.isHigher(android, than: result.android) {
                result.android = android
                raised = true
            }
            if raised { result.tag = name }
        }
        return result
    }
}

/// The configured files' parses at release tags, kept by blob: a file is parsed again only when its blob (or the
/// blob of a configured file its editor read, such as an Xcode project's Info.plist) differs from every one parsed
/// before. Releases change one or two files each, so hundreds of tags cost a parse per distinct blob, not one per
/// tag and file.
private struct TagFileParses {
    let entries: [FileEntry]
    /// Each entry's path in the repository, nil when outside it.
    let paths: [String?]
    /// Per entry: the blob parsed, the configured entries its editor read (by index, with their blobs then), and
    /// the parse (nil when it failed).
    private var kept: [[(blob: ObjectID, reads: [(entry: Int, blob: ObjectID?)], parsed: FileVersions?)]]
    /// Each blob's text as read (nil: not UTF-8), so a file that did not change is not read again.
    private var texts: [ObjectID: String?] = [:]

    init(entries: [FileEntry], paths: [String?]) {
        self.entries = entries
        self.paths = paths
        kept = Array(repeating: [], count: entries.count)
    }

    /// The versions the files hold as `blobs` (one per path in the repository, nil where the file is missing at
    /// the tag); nil when no file can be read or one that exists cannot be parsed.
    /// `skipping`: entries not to read at this tag (their values cannot count there).
    mutating func versions(blobs: [ObjectID?], workspace: Workspace, skipping: Set<Int> = []) throws -> CurrentVersions? {
        var blobOf: [ObjectID?] = []
        var k = 0
        for path in paths {
            if path == nil { blobOf.append(nil) } else { blobOf.append(blobs[k]); k += 1 }
        }
        var files: [FileVersions] = []
        var texts: [String: String]?
        var project: ProjectFiles?
        for (i, entry) in entries.enumerated() where !skipping.contains(i) {
            guard let blob = blobOf[i], let path = paths[i] else { continue }
            if let hit = kept[i].first(where: { $0.blob == blob && $0.reads.allSatisfy { blobOf[$0.entry] == $0.blob } }) {
                guard let parsed = hit.parsed else { return nil }
                files.append(parsed)
                continue
            }
            if texts == nil {
                var read: [String: String] = [:]
                for (j, p) in paths.enumerated() where !skipping.contains(j) {
                    guard let p, let b = blobOf[j] else { continue }
                    if self.texts[b] == nil {
                        self.texts[b] = .some(String(validating: try workspace.repository.blobBytes(b), as: UTF8.self))
                    }
                    if let text = self.texts[b] ?? nil { read[p] = text }
                }
                texts = read
                if files.isEmpty, skipping.isEmpty, entries.indices.allSatisfy({ j in paths[j].map { read[$0] != nil } ?? false }),
                   let same = workspace.versionsIfWorkTree(read, paths: paths) {
                    // The files of the work tree, already read and parsed.
                    for (j, file) in same.files.enumerated() {
                        kept[j].append((blobOf[j]!, entries.indices.map { ($0, blobOf[$0]) }, file))
                    }
                    return same
                }
                project = ProjectFiles(root: workspace.root).overlaid(with: read)
            }
            guard texts?[path] != nil, let project else { continue }   // not UTF-8 at this tag: passed over
            let log = ReadLog()
            let parsed = try? FileVersions.load(entry, from: project, read: log.note)
            let reads = log.paths.compactMap { read in paths.firstIndex(of: read) }.map { ($0, blobOf[$0]) }
            kept[i].append((blob, reads, parsed))
            guard let parsed else { return nil }
            files.append(parsed)
        }
        guard !files.isEmpty else { return nil }
        return CurrentVersions(valuesOf: files, project: project ?? ProjectFiles(root: workspace.root))
    }
}

/// The paths an editor read while parsing.
private final class ReadLog: Sendable {
    private let read = Mutex<[String]>([])
    var paths: [String] { read.withLock { $0 } }
    func note(_ path: String) { read.withLock { $0.append(path) } }
}
