import RelctlCore
import RelctlGit

extension ReleaseTags {
    /// Why `release` cannot be the gate's latest, when it is a maintenance release: its tag is not on `main` (the
    /// main branch, `Config.mainBranch(in:)`: local, or `origin/<main>` in a CI checkout) and a higher version is
    /// released. The latest is the update the stores offer, and they offer the newest version, never a hotfix of an
    /// older line. nil when it may be the latest, or when no main branch can be found to tell.
    func maintenanceReleaseProblem(_ release: ReleasedVersion, in repository: Repository, main: String) throws -> String? {
        guard let higher = released.first(where: { release.version < $0.version }) else { return nil }
        guard let mainTip = try repository.referenceTarget("refs/heads/\(main)")
                ?? repository.referenceTarget("refs/remotes/origin/\(main)"),
              let reference = try repository.tag(named: release.tag), let commit = try repository.commit(of: reference),
              try !repository.isAncestor(commit, of: mainTip) else { return nil }
        return "\(release.version) is a maintenance release (\(release.tag) is not on \(main)) and \(higher.version) is released above it, so it never becomes the latest: the stores offer the newest version; set the latest to \(higher.version) or another release on \(main)"
    }
}
