import RelctlGit

extension Config {
    /// The branches stable releases of the newest versions come from: the plain entries of `branches` that are not
    /// patterns, prerelease channels or maintenance branches (`main`, `master` by default).
    var mainBranches: [String] {
        branchRules.filter { rule in
            !rule.name.hasSuffix("*") && rule.prerelease == nil && !rule.isMaintenance(rule.name)
        }.map(\.name)
    }

    /// The first of `mainBranches` (`main` when there is none), for messages when the repository cannot tell.
    var mainBranch: String { mainBranches.first ?? "main" }

    /// The main branch of `repository`: the first of `mainBranches` that exists there (locally, else as
    /// `origin/<name>` in a CI checkout), else the first configured.
    func mainBranch(in repository: Repository) -> String {
        mainBranches.first { name in
            ((try? repository.referenceTarget("refs/heads/\(name)")) ?? nil) != nil
                || ((try? repository.referenceTarget("refs/remotes/origin/\(name)")) ?? nil) != nil
        } ?? mainBranch
    }
}
