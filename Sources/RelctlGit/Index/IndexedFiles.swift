internal import CLibGit2

/// One file of git's index: its path (relative to the work tree) and size as staged.
package struct IndexedFile: Sendable, Equatable {
    package let path: String
    package let size: Int
}

extension Repository {
    /// The regular files git tracks (stage 0 of the index), in index order; links, submodules and files marked
    /// skip-worktree are left out. `relctl init` looks through these for other places holding the version.
    package func indexedFiles() throws(GitError) -> [IndexedFile] {
        var index: OpaquePointer?
        try check(git_repository_index(&index, pointer), "open index")
        defer { git_index_free(index) }
        var files: [IndexedFile] = []
        let count = git_index_entrycount(index)
        files.reserveCapacity(count)
        for i in 0..<count {
            guard let entry = git_index_get_byindex(index, i)?.pointee, let path = entry.path else { continue }
            // 0o100644 / 0o100755: regular files (not 0o120000 links nor 0o160000 submodules).
            guard entry.mode & 0o170000 == 0o100000,
                  entry.flags_extended & UInt16(GIT_INDEX_ENTRY_SKIP_WORKTREE.rawValue) == 0,
                  (Int(entry.flags) >> 12) & 3 == 0 else { continue }
            files.append(IndexedFile(path: String(cString: path), size: Int(entry.file_size)))
        }
        return files
    }

    /// The branch `refs/remotes/<remote>/HEAD` points at (`develop` for `refs/remotes/origin/develop`): the remote's
    /// default branch as `git clone` (or `git remote set-head`) recorded it; nil when it is not recorded.
    package func remoteDefaultBranch(remote: String = "origin") throws(GitError) -> String? {
        var ref: OpaquePointer?
        let code = git_reference_lookup(&ref, pointer, "refs/remotes/\(remote)/HEAD")
        if code == GIT_ENOTFOUND.rawValue || code == GIT_EINVALIDSPEC.rawValue { return nil }
        try check(code, "read refs/remotes/\(remote)/HEAD")
        defer { git_reference_free(ref) }
        guard git_reference_type(ref) == GIT_REFERENCE_SYMBOLIC, let target = git_reference_symbolic_target(ref) else { return nil }
        let name = String(cString: target)
        let prefix = "refs/remotes/\(remote)/"
        return name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : nil
    }
}
