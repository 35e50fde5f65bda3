import RelctlCore
import RelctlGit
import VersionGate

/// A version the app has shipped: a stable release tag of `tagFormat` holding a version of `versionScheme`.
struct ReleasedVersion {
    let tag: String
    let version: ReleaseVersion
    /// The version as the gate compares it.
    var gateVersion: GateVersion { GateVersion(version.description) }
}

extension Workspace {
    /// The release tags of `tagFormat` and `versionScheme`, listed and parsed once per run (`ReleaseTags`).
    func releaseTags() throws -> ReleaseTags {
        if let tags = releaseTagsCache.tags { return tags }
        let format = try TagFormat(config.tagFormat)
        let tags = project == nil ? try ReleaseTags.read(repository, format: format, scheme: config.versionScheme)
            : ReleaseTags(names: ownTagNames(try repository.tagNames(prefix: format.literalPrefix), format: format),
                          format: format, scheme: config.versionScheme)
        releaseTagsCache.tags = tags
        return tags
    }

    /// Every released version, highest first, whether or not HEAD reaches its tag (a release made on a branch
    /// was shipped all the same). Prerelease tags are not releases users run from the stores.
    func releasedVersions() throws -> [ReleasedVersion] { try releaseTags().released }
}
