internal import CLibGit2

extension Repository {
    /// Resets the index entries of `paths` to a commit's tree, leaving every other entry as it is (rollback of a
    /// staged release commit: what the user had staged stays staged). A path the commit lacks is unstaged.
    package func resetIndex(to commit: ObjectID, paths: [String]) throws(GitError) {
        var oid = commit.gitOID
        var object: OpaquePointer?
        try check(git_commit_lookup(&object, pointer, &oid), "read commit")
        defer { git_commit_free(object) }
        var tree: OpaquePointer?
        try check(git_commit_tree(&tree, object), "read tree")
        defer { git_tree_free(tree) }
        var index: OpaquePointer?
        try check(git_repository_index(&index, pointer), "open index")
        defer { git_index_free(index) }
        for path in paths {
            var treeEntry: OpaquePointer?
            let found = git_tree_entry_bypath(&treeEntry, tree, path)
            if found == GIT_ENOTFOUND.rawValue {
                let code = git_index_remove(index, path, 0)
                if code != GIT_ENOTFOUND.rawValue { try check(code, "unstage \(path)") }
                continue
            }
            try check(found, "read \(path) in tree")
            defer { git_tree_entry_free(treeEntry) }
            let mode = git_tree_entry_filemode(treeEntry).rawValue
            let id = git_tree_entry_id(treeEntry).pointee   // copied before the tree entry is freed
            // `git_index_add` copies the entry, path included, into the index: `cPath` need only live for the call,
            // and the entry that holds it never leaves the closure.
            let code = path.withCString { cPath in
                var entry = git_index_entry()
                entry.mode = mode
                entry.id = id
                entry.path = cPath
                return git_index_add(index, &entry)
            }
            try check(code, "reset \(path)")
        }
        try check(git_index_write(index), "write index")
    }
}
