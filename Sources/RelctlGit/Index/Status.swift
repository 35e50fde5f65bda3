internal import CLibGit2

/// One changed path of `git status`.
package struct StatusEntry: Sendable, Equatable {
    package let path: String
    package let untracked: Bool
}

extension Repository {
    /// Paths that differ from HEAD in the index or the work tree, untracked files included, ignored files not.
    package func status() throws(GitError) -> [StatusEntry] {
        var options = git_status_options()
        try check(git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "init status options")
        options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue | GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS.rawValue
            | GIT_STATUS_OPT_EXCLUDE_SUBMODULES.rawValue
        var list: OpaquePointer?
        try check(git_status_list_new(&list, pointer, &options), "read status")
        defer { git_status_list_free(list) }
        // libgit2 1.5 knows no sparse checkout: a file kept out of the work tree (`git sparse-checkout`, the
        // skip-worktree bit) shows as deleted, while git calls the tree clean. Such entries are passed over.
        var index: OpaquePointer?
        try check(git_repository_index(&index, pointer), "open index")
        defer { git_index_free(index) }
        // Each entry, its deltas and their paths belong to `list`, and an index entry to `index`: a path is
        // copied into a String before the list is freed, an index entry is read where it is looked up.
        var entries: [StatusEntry] = []
        for i in 0..<git_status_list_entrycount(list) {
            guard let entry = git_status_byindex(list, i)?.pointee else { continue }
            let delta = entry.index_to_workdir ?? entry.head_to_index
            guard let delta, let cPath = delta.pointee.new_file.path ?? delta.pointee.old_file.path else { continue }
            if entry.status == GIT_STATUS_WT_DELETED, let indexed = git_index_get_bypath(index, cPath, 0),
               indexed.pointee.flags_extended & UInt16(GIT_INDEX_ENTRY_SKIP_WORKTREE.rawValue) != 0 {
                continue
            }
            entries.append(StatusEntry(path: String(cString: cPath), untracked: entry.status.rawValue & GIT_STATUS_WT_NEW.rawValue != 0))
        }
        return entries
    }
}
