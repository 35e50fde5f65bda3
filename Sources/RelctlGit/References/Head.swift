internal import CLibGit2

extension Repository {
    /// The commit HEAD points at; nil when the current branch has no commit yet.
    package func headCommit() throws(GitError) -> ObjectID? {
        var oid = git_oid()
        let code = git_reference_name_to_id(&oid, pointer, "HEAD")
        if code == GIT_ENOTFOUND.rawValue || code == GIT_EUNBORNBRANCH.rawValue { return nil }
        try check(code, "resolve HEAD")
        return ObjectID(oid)
    }

    /// The short name of the current branch (`main`), or nil when HEAD is detached or unborn-less.
    package func currentBranch() throws(GitError) -> String? {
        var ref: OpaquePointer?
        let code = git_repository_head(&ref, pointer)
        if code == GIT_EUNBORNBRANCH.rawValue {
            // Unborn: read the symbolic target of HEAD.
            var head: OpaquePointer?
            try check(git_reference_lookup(&head, pointer, "HEAD"), "read HEAD")
            defer { git_reference_free(head) }
            guard let target = git_reference_symbolic_target(head) else { return nil }
            return String(cString: target).droppingPrefix("refs/heads/")
        }
        try check(code, "read HEAD")
        defer { git_reference_free(ref) }
        guard git_reference_is_branch(ref) == 1 else { return nil }
        // The shorthand (like a symbolic target) points into the reference: copied before it is freed.
        return String(cString: git_reference_shorthand(ref))
    }

    /// The full name of the branch HEAD points at (`refs/heads/main`), nil when detached.
    package func headReferenceName() throws(GitError) -> String? {
        var head: OpaquePointer?
        try check(git_reference_lookup(&head, pointer, "HEAD"), "read HEAD")
        defer { git_reference_free(head) }
        guard git_reference_type(head) == GIT_REFERENCE_SYMBOLIC, let target = git_reference_symbolic_target(head) else { return nil }
        return String(cString: target)
    }
}
