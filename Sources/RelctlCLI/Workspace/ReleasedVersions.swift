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
    /// Every released version, highest first, whether or not HEAD reaches its tag (a release made on a branch
    /// was shipped all the same). Prerelease tags are not releases users run from the stores.
    func releasedVersions() throws -> [ReleasedVersion] {
        let format = try TagFormat(config.tagFormat)
        let literalPrefix = String(config.tagFormat.prefix { $0 != "{" })
        var released: [ReleasedVersion] = []
        for name in try repository.tagNames(prefix: literalPrefix) {
            guard let text = format.versionText(fromTag: name), let version = config.versionScheme.parse(text),
                  version.isStable else { continue }
            released.append(ReleasedVersion(tag: name, version: version))
        }
        return released.sorted { a, b in
            if b.version < a.version { return true }
            return !(a.version < b.version) && a.tag < b.tag
        }
    }
}
