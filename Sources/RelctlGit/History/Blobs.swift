internal import CLibGit2

// What `relctl adopt` reads from the history of the version files: along the first-parent chain (`firstParent(of:)`
// in Ancestry.swift), which blob each path has in each commit, and the blob's bytes. Every value is copied out of
// libgit2 before the call returns (object ids into `ObjectID`, bytes into `[UInt8]`); libgit2 is never handed a Swift
// buffer.
extension Repository {
    /// The blob each of `paths` (relative to the work tree, `/`-separated) has in `commit`'s tree; nil where the
    /// path does not exist there or is not a file.
    package func blobIDs(at paths: [String], in commit: ObjectID) throws(GitError) -> [ObjectID?] {
        var oid = commit.gitOID
        var commitPointer: OpaquePointer?
        try check(git_commit_lookup(&commitPointer, pointer, &oid), "read commit \(commit.hex)")
        defer { git_commit_free(commitPointer) }
        var tree: OpaquePointer?
        try check(git_commit_tree(&tree, commitPointer), "read the tree of \(commit.hex)")
        defer { git_tree_free(tree) }
        var result: [ObjectID?] = []
        for path in paths {
            var entry: OpaquePointer?
            let code = git_tree_entry_bypath(&entry, tree, path)
            if code == GIT_ENOTFOUND.rawValue {
                result.append(nil)
                continue
            }
            try check(code, "read \(path) in \(commit.hex)")
            defer { git_tree_entry_free(entry) }
            guard git_tree_entry_type(entry) == GIT_OBJECT_BLOB, let id = git_tree_entry_id(entry) else {
                result.append(nil)
                continue
            }
            result.append(ObjectID(id))   // copied before the entry is freed
        }
        return result
    }

    /// The bytes of a blob, copied out of libgit2.
    package func blobBytes(_ id: ObjectID) throws(GitError) -> [UInt8] {
        let object = try readObject(id, operation: "read blob \(id.hex)")
        guard object.type == GIT_OBJECT_BLOB else {
            throw GitError(kind: .other, operation: "read blob \(id.hex)", message: "object is not a blob")
        }
        return object.withBytes { Array($0) }
    }
}
