import RelctlCore
import RelctlGit

/// The release tags of one `tagFormat` and `versionScheme`, listed once and parsed once: what `analyze`, the
/// released build numbers, the released versions and the last-synced check all read. A plain value built from
/// (repository, tagFormat, scheme), so one app, or one project of a monorepo, has its own.
struct ReleaseTags {
    /// One tag of the format holding a version of the scheme.
    struct Tag {
        let name: String
        /// The text in place of `{version}` (`1.7.0` in `v1.7.0.4`).
        let text: String
        let version: ReleaseVersion
        /// The build number the tag carries (`4` in `v1.7.0.4` under `v{version}.{build}`); nil without `{build}`.
        let build: String?
    }

    let format: TagFormat
    let scheme: VersionScheme
    /// Every tag holding a version of the scheme, stable or prerelease, in the order git lists them (by name).
    let parsed: [Tag]
    /// The stable ones, highest first; the same version (up to build metadata) by tag name.
    let stable: [(version: ReleaseVersion, tag: String)]
    /// Tags of the format holding numbers that are not versions of the scheme (`v2.43`, `v1.2.3.4` under semver), no
    /// prerelease, highest first.
    let unparsed: [(text: String, tag: String)]

    /// The prereleases, in listing order.
    var prereleases: [Tag] { parsed.filter { !$0.version.isStable } }

    /// Every released version, highest first, whether or not HEAD reaches its tag.
    var released: [ReleasedVersion] { stable.map { ReleasedVersion(tag: $0.tag, version: $0.version) } }

    /// How the team writes a prerelease (`8.19-rc-2`): the spelling of its highest two-part prerelease tag, SemVer's
    /// `rc.2` when there is none (and always under semver, whose tags are SemVer).
    var prereleaseSpelling: PrereleaseSpelling {
        let twoPart = parsed.compactMap { tag -> TwoPartVersion? in
            if case .twoPart(let version) = tag.version, !version.isStable,
               let pre = VersionParts(version.text).prerelease, PrereleaseSpelling.read(pre) != nil { return version }
            return nil
        }
        return twoPart.max { $0 < $1 }?.spelling ?? .dotted
    }

    /// The tags of `format` among the run's one listing (`TagListing`): those starting with its literal prefix (byte
    /// for byte, as git's glob), parsed.
    init(listed names: [String], format: TagFormat, scheme: VersionScheme) {
        let prefix = Array(format.literalPrefix.utf8)
        self.init(names: prefix.isEmpty ? names : names.filter { $0.utf8.starts(with: prefix) }, format: format, scheme: scheme)
    }

    /// Parses tag `names` (any order): each name once.
    init(names: [String], format: TagFormat, scheme: VersionScheme) {
        self.format = format
        self.scheme = scheme
        var parsed: [Tag] = []
        var stable: [(version: ReleaseVersion, tag: String)] = []
        var unparsed: [(text: String, tag: String)] = []
        for name in names {
            guard let (text, build) = format.parts(fromTag: name) else { continue }
            if let version = scheme.parse(text) {
                parsed.append(Tag(name: name, text: text, version: version, build: build))
                if version.isStable { stable.append((version, name)) }
            } else if build != nil, let whole = format.textIgnoringBuild(fromTag: name), let version = scheme.parse(whole) {
                // A tag from before the team put builds in its tags (`v1.6.0` among `v1.7.0.4`).
                parsed.append(Tag(name: name, text: whole, version: version, build: nil))
                if version.isStable { stable.append((version, name)) }
            } else if VersionOrder.isNumeric(text), VersionParts(text).prerelease == nil {
                unparsed.append((build == nil ? text : format.textIgnoringBuild(fromTag: name) ?? text, name))
            }
        }
        self.parsed = parsed
        self.stable = Self.highestFirst(stable)
        // Highest first, by their numbers (read once each: comparing the texts parsed both at every comparison, 10M
        // instructions for 46 two-part tags), then by name. A missing trailing number counts as 0, as VersionOrder.
        let numbers = unparsed.map { VersionOrder.numbers($0.text) ?? [] }
        func above(_ i: Int, _ j: Int) -> Bool? {
            for k in 0..<max(numbers[i].count, numbers[j].count) {
                let x = k < numbers[i].count ? numbers[i][k] : 0, y = k < numbers[j].count ? numbers[j][k] : 0
                if x != y { return x > y }
            }
            return nil
        }
        self.unparsed = unparsed.indices.sorted { i, j in above(i, j) ?? (unparsed[i].tag < unparsed[j].tag) }.map { unparsed[$0] }
    }

    /// Release candidates highest first, the same version (up to build metadata) by tag name.
    ///
    /// Sorted as indexes, then gathered: moving (version, tag) pairs, or even copying a `ReleaseVersion` into each
    /// comparison, costs a generic copy, which with 2,000 tags cost more than a 50-commit walk. Stable SemVer
    /// versions (all that `candidates` holds under SemVer) compare as (major, minor, patch), which is §11 exactly
    /// when neither has a prerelease.
    static func highestFirst(_ candidates: [(version: ReleaseVersion, tag: String)]) -> [(version: ReleaseVersion, tag: String)] {
        let tags = candidates.map(\.tag)
        let order: [Int]
        let numbers = candidates.compactMap { candidate -> (UInt64, UInt64, UInt64)? in
            guard let v = candidate.version.numbered, v.prerelease.isEmpty else { return nil }
            return (v.major, v.minor, v.patch)
        }
        if numbers.count == candidates.count {
            order = numbers.indices.sorted { i, j in numbers[j] < numbers[i] || (numbers[i] == numbers[j] && tags[i] < tags[j]) }
        } else {
            let versions = candidates.map(\.version)
            order = versions.indices.sorted { i, j in
                versions[j] < versions[i] || (!(versions[i] < versions[j]) && tags[i] < tags[j])
            }
        }
        return order.map { candidates[$0] }
    }

    /// The tag of a version the format can name (`v1.3.0`); with `{build}`, the tag of that version whatever its
    /// build (`v1.3.0.7`), when one exists. Nil when no such tag is listed.
    func tagName(of version: ReleaseVersion) -> String? {
        if !format.carriesBuild { return format.tagName(for: version) }
        return parsed.first { $0.version.description == version.description }?.name
    }
}

/// The run's one listing of the repository's tag names, on first use, shared by every project of the run: each
/// project's `ReleaseTags` (and the search for tags of another format) is cut from it, never listed again.
final class TagListing {
    private var listed: Result<[String], GitError>?

    /// `names`: the tag names the command listed already (init lists them before any workspace is open).
    init(names: [String]? = nil) {
        listed = names.map { .success($0) }
    }

    /// Tags this run made (the release's, a `release --all`'s projects'): a listing made before knows them too, so
    /// what is read after (a forge release's "latest") sees the repository as it is now.
    func add(_ names: [String]) {
        guard case .success(let known)? = listed else { return }
        listed = .success((known + names.filter { !known.contains($0) }).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// Every tag name, in git's order (by bytes).
    func names(_ repository: Repository) throws -> [String] {
        if let listed { return try listed.get() }
        let result = Result { () throws(GitError) in try repository.tagNames() }
        listed = result
        return try result.get()
    }
}

/// The release tags of one workspace (one app, or one project), parsed on first use (`Workspace.releaseTags`).
final class ReleaseTagsCache {
    var tags: ReleaseTags?
}
