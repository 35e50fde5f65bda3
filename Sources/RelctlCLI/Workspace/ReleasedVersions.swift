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
