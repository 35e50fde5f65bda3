import RelctlCore

extension ReleaseAnalysis {
    /// On a maintenance branch, one line per commit whose bump would take the release out of the branch's range,
    /// naming the commit and the fix: `release` refuses them in preflight (never clamps the version), `next` and
    /// `status` warn. `mainBranch`: where the commit belongs.
    func rangeProblems(mainBranch: String) -> [String] {
        guard let range = track.range else { return [] }
        let branch = track.branch ?? "HEAD"
        let allowed = range.minor == nil ? "minor and patch releases" : "patch releases"
        return rangeViolations.map { commit in
            let sha = String(commit.sha.prefix(12))
            let what = commit.bump == .major ? "a breaking change (major)" : "a \(commit.bump) change"
            return "\(sha) \"\(commit.summary)\" is \(what), and maintenance branch \(branch) makes only \(allowed) of \(range)\(baseTag.map { " after \($0)" } ?? ""); move the commit to \(mainBranch) (git revert \(sha) on \(branch), and cherry-pick it onto \(mainBranch)), never into a maintenance release"
        }
    }
}

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
}

extension Workspace {
    /// The main branch of this repository: the first of `Config.mainBranches` that exists here (locally, else as
    /// `origin/<name>` in a CI checkout), else the first configured.
    var mainBranch: String {
        config.mainBranches.first { name in
            ((try? repository.referenceTarget("refs/heads/\(name)")) ?? nil) != nil
                || ((try? repository.referenceTarget("refs/remotes/origin/\(name)")) ?? nil) != nil
        } ?? config.mainBranch
    }
}
