import VersionGate
import RelctlCore

extension Workspace {
    /// The release tag holding `version`: a gate value (the minimum, the latest) must name a version users can
    /// install. Refused with `reason` and the highest few releases when no release tag of tagFormat holds it.
    func releasedVersion(_ version: GateVersion, because reason: String) throws -> ReleasedVersion {
        let released = try releasedVersions()
        if let release = released.first(where: { $0.gateVersion == version }) { return release }
        let names = released.prefix(5).map(\.version.description)
        let list = released.isEmpty ? "" : "; released: \(names.joined(separator: ", "))\(released.count > 5 ? ", …" : "")"
        throw Problem("\(version) is not a released version: no release tag of tagFormat \(config.tagFormat) holds it, and \(reason); release it first (relctl release)\(list)")
    }
}
