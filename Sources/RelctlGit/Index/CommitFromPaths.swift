internal import CLibGit2
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

extension Repository {
    /// Stages `paths` (relative to the work tree; deleted files are removed) and commits them on the current
    /// branch. The commit is `expectedParent`'s tree with exactly `paths` changed: anything else already staged
    /// stays staged and out of the commit. The branch moves only if it still points at `expectedParent`
    /// (compare-and-swap), so a concurrent release cannot be overwritten. Returns the new commit.
    /// `beforeBranchMove` runs once the index is written and the commit object made, right before the branch moves
    /// (the crash tests stop the process there).
    package func commit(paths: [String], message: String, identities: Identities, expectedParent: ObjectID,
                        beforeBranchMove: () -> Void = {}) throws(GitError) -> ObjectID {
        guard let branch = try headReferenceName() else {
            throw GitError(kind: .other, operation: "commit", message: "HEAD is detached; check out a branch")
        }
        var index: OpaquePointer?
        try check(git_repository_index(&index, pointer), "open index")
        defer { git_index_free(index) }
        for path in paths {
            let full = (workdir ?? "") + "/" + path
            if FileManager.default.fileExists(atPath: full) {
                try check(git_index_add_bypath(index, path), "stage \(path)")
            } else {
                try check(git_index_remove_bypath(index, path), "unstage \(path)")
            }
        }
        try check(git_index_write(index), "write index")
        var parentOID = expectedParent.gitOID
        var parent: OpaquePointer?
        try check(git_commit_lookup(&parent, pointer, &parentOID), "read HEAD commit")
        defer { git_commit_free(parent) }
        var parentTree: OpaquePointer?
        try check(git_commit_tree(&parentTree, parent), "read HEAD tree")
        defer { git_tree_free(parentTree) }
        // The tree from an in-memory index: the parent's tree plus the staged entries of `paths` only.
        var releaseIndex: OpaquePointer?
        try check(git_index_new(&releaseIndex), "create index")
        defer { git_index_free(releaseIndex) }
        try check(git_index_read_tree(releaseIndex, parentTree), "read HEAD tree")
        for path in paths {
            // The entry belongs to `index` (alive until this function returns); `git_index_add` copies it, path
            // included, into `releaseIndex`.
            if let entry = git_index_get_bypath(index, path, 0) {
                try check(git_index_add(releaseIndex, entry), "stage \(path)")
            } else {
                let code = git_index_remove(releaseIndex, path, 0)
                if code != GIT_ENOTFOUND.rawValue { try check(code, "unstage \(path)") }
            }
        }
        var treeID = git_oid()
        try check(git_index_write_tree_to(&treeID, releaseIndex, pointer), "write tree")
        var tree: OpaquePointer?
        try check(git_tree_lookup(&tree, pointer, &treeID), "read tree")
        defer { git_tree_free(tree) }
        let author = try identities.author.signature()
        defer { git_signature_free(author) }
        let committer = try identities.committer.signature()
        defer { git_signature_free(committer) }
        var commitID = git_oid()
        // Through the shim: the parents array's type differs between libgit2 versions (shim.h).
        try check(relctl_git_commit_create_one_parent(&commitID, pointer, nil, author, committer, "UTF-8", message, tree, parent),
                  "create commit")
        beforeBranchMove()
        try moveReference(branch, to: ObjectID(commitID), expecting: expectedParent, message: "relctl: release commit")
        return ObjectID(commitID)
    }
}
