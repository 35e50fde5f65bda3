internal import CLibGit2

extension Repository {
    /// The commit a revision names (`main`, `v1.2.0`, `HEAD~3`, a sha or its prefix: what `git rev-parse` takes),
    /// peeled through annotated tags; nil when it names nothing.
    package func resolveCommit(_ revision: String) throws(GitError) -> ObjectID? {
        var object: OpaquePointer?
        let code = git_revparse_single(&object, pointer, revision)
        if code == GIT_ENOTFOUND.rawValue || code == GIT_EAMBIGUOUS.rawValue || code == GIT_EINVALIDSPEC.rawValue {
            if code == GIT_EAMBIGUOUS.rawValue {
                throw GitError(kind: .ambiguous, code: code, operation: "resolve \(revision)",
                               message: "'\(revision)' is ambiguous; give more digits of the sha or the full reference")
            }
            return nil
        }
        try check(code, "resolve \(revision)")
        defer { git_object_free(object) }
        var commit: OpaquePointer?
        let peeled = git_object_peel(&commit, object, GIT_OBJECT_COMMIT)
        if peeled == GIT_ENOTFOUND.rawValue || peeled == GIT_EINVALIDSPEC.rawValue || peeled == GIT_EPEEL.rawValue { return nil }
        try check(peeled, "resolve \(revision)")
        defer { git_object_free(commit) }
        // The id points into the object: copied before it is freed.
        return ObjectID(git_object_id(commit)!.pointee)
    }

    /// The best common ancestor of two commits (`git merge-base a b`); nil when they share no history.
    package func mergeBase(_ a: ObjectID, _ b: ObjectID) throws(GitError) -> ObjectID? {
        var result = git_oid()
        var one = a.gitOID, two = b.gitOID
        let code = git_merge_base(&result, pointer, &one, &two)
        if code == GIT_ENOTFOUND.rawValue { return nil }
        try check(code, "find the merge base of \(a.hex.prefix(12)) and \(b.hex.prefix(12))")
        return ObjectID(result)
    }

    /// The folder shared by every worktree of the repository (`git rev-parse --git-common-dir`), no trailing
    /// slash: a linked worktree's own git folder holds only its HEAD and index; hooks and config live here.
    package var commonDir: String {
        git_repository_commondir(pointer).map { String(cString: $0).trimmingTrailingSlash() } ?? gitDir
    }
}
