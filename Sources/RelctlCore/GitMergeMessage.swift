/// The headers git and the forges write for a merge commit. relctl never counts a merge, so `relctl lint` never
/// blocks one: the commit-msg hook runs on `git merge`, `git pull` and the `git commit` that concludes a merge
/// stopped on a conflict, and a `--range` can hold a merge's message on a one-parent commit (a cherry-picked merge).
package enum GitMergeMessage {
    /// Whether `header` is one git (`fmt-merge-msg`), GitHub, GitLab, Bitbucket or Azure DevOps writes for a merge:
    /// `Merge branch 'x'` (`into y`, `of URL`), `Merge branches 'a' and 'b'`, `Merge remote-tracking branch
    /// 'origin/main'`, `Merge tag 'v1.2.0'`, `Merge commit 'abc'`, `Merge pull request #12 from owner/branch`,
    /// `Merge branch 'x' into 'main'`, `Merge https://host/repo` (a pull of a remote's HEAD), `Merged in x (pull
    /// request #12)`, `Merged PR 12: title`. A header a person wrote (`Merge the two configs`) is not one.
    package static func isMergeHeader(_ header: String) -> Bool {
        let text = Substring(header)
        if text.hasPrefix("Merge ") {
            let rest = text.dropFirst("Merge ".count)
            for kind in ["branch", "branches", "remote-tracking branch", "remote-tracking branches", "tag", "tags", "commit", "commits"]
                where rest.hasPrefix(kind + " '") {
                return true
            }
            if rest.hasPrefix("pull request #") {
                let afterHash = rest.dropFirst("pull request #".count)
                let digits = afterHash.prefix { $0.isASCII && $0.isNumber }
                return !digits.isEmpty && afterHash.dropFirst(digits.count).hasPrefix(" from ")
            }
            // `git pull URL` without a branch: `Merge URL` (a URL or a path, one word).
            return !rest.isEmpty && !rest.contains(" ") && (rest.contains("/") || rest.contains(":"))
        }
        if text.hasPrefix("Merged in "), text.hasSuffix(")"), text.contains(" (pull request #") { return true }
        if text.hasPrefix("Merged PR ") {
            let afterPR = text.dropFirst("Merged PR ".count)
            let digits = afterPR.prefix { $0.isASCII && $0.isNumber }
            return !digits.isEmpty && afterPR.dropFirst(digits.count).hasPrefix(":")
        }
        return false
    }
}
