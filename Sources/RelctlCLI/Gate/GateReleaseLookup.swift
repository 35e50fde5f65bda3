import RelctlCore
import VersionGate
import RelctlCore

extension ReleaseTags {
    /// The release tag holding `version`: a gate value (the minimum, the latest) must name a version users can
    /// install. Refused with `reason` and the highest few releases when no release tag of the format holds it.
    func release(holding version: GateVersion, because reason: String) throws -> ReleasedVersion {
        let released = self.released
        if let release = released.first(where: { $0.gateVersion == version }) { return release }
        let names = released.prefix(5).map(\.version.description)
        let list = released.isEmpty ? "" : "; released: \(names.joined(separator: ", "))\(released.count > 5 ? ", …" : "")"
        throw Problem("\(version) is not a released version: no release tag of tagFormat \(format.pattern) holds it, and \(reason); release it first (relctl release)\(list)")
    }
}
