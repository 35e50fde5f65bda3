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
