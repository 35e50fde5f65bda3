internal import CLibGit2

extension Repository {
    /// The object a reference points at, or nil when it does not exist.
    package func referenceTarget(_ name: String) throws(GitError) -> ObjectID? {
        var oid = git_oid()
        let code = git_reference_name_to_id(&oid, pointer, name)
        if code == GIT_ENOTFOUND.rawValue { return nil }
        try check(code, "read \(name)")
        return ObjectID(oid)
    }

    /// Points `name` at `target` only if it currently points at `expected` (nil: must not exist).
    package func moveReference(_ name: String, to target: ObjectID, expecting expected: ObjectID?, message: String) throws(GitError) {
        var ref: OpaquePointer?
        var newOID = target.gitOID
        if let expected {
            var oldOID = expected.gitOID
            let code = git_reference_create_matching(&ref, pointer, name, &newOID, 1, &oldOID, message)
            if code == GIT_EMODIFIED.rawValue {
                throw GitError(kind: .concurrentUpdate, code: code, operation: "update \(name)",
                               message: "\(name) moved while relctl was working (another release running?)")
            }
            try check(code, "update \(name)")
        } else {
            try check(git_reference_create(&ref, pointer, name, &newOID, 0, message), "create \(name)")
        }
        git_reference_free(ref)
    }

    /// Deletes a reference if it exists (rollback).
    package func deleteReference(_ name: String) throws(GitError) {
        var ref: OpaquePointer?
        let code = git_reference_lookup(&ref, pointer, name)
        if code == GIT_ENOTFOUND.rawValue { return }
        try check(code, "read \(name)")
        defer { git_reference_free(ref) }
        try check(git_reference_delete(ref), "delete \(name)")
    }
}
