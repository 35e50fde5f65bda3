internal import CLibGit2
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Repository {
    /// A commit on top of `parent` whose tree is `parent`'s with exactly `files` replaced (path relative to the work
    /// tree → the new bytes), made from objects only: no index, no work tree and no reference is touched (the
    /// release pull request's commit, built beside the user's checkout). An existing file keeps its mode; a new one
    /// is a plain file. Returns the new commit; nothing points at it yet.
    package func detachedCommit(on parent: ObjectID, files: [(path: String, bytes: [UInt8])], message: String,
                                identities: Identities) throws(GitError) -> ObjectID {
        var parentOID = parent.gitOID
        var parentCommit: OpaquePointer?
        try check(git_commit_lookup(&parentCommit, pointer, &parentOID), "read commit \(parent.hex)")
        defer { git_commit_free(parentCommit) }
        var parentTree: OpaquePointer?
        try check(git_commit_tree(&parentTree, parentCommit), "read the tree of \(parent.hex)")
        defer { git_tree_free(parentTree) }
        var index: OpaquePointer?
        try check(git_index_new(&index), "create index")
        defer { git_index_free(index) }
        try check(git_index_read_tree(index, parentTree), "read the tree of \(parent.hex)")
        for file in files {
            let blob = try writeBlob(file.bytes)
            var mode = UInt32(GIT_FILEMODE_BLOB.rawValue)
            if let existing = git_index_get_bypath(index, file.path, 0) { mode = existing.pointee.mode }
            let code = file.path.withCString { path -> Int32 in
                var entry = git_index_entry()
                entry.mode = mode
                entry.id = blob.gitOID
                entry.file_size = UInt32(truncatingIfNeeded: file.bytes.count)
                entry.path = path
                return git_index_add(index, &entry)
            }
            try check(code, "stage \(file.path)")
        }
        var treeID = git_oid()
        try check(git_index_write_tree_to(&treeID, index, pointer), "write tree")
        var tree: OpaquePointer?
        try check(git_tree_lookup(&tree, pointer, &treeID), "read tree")
        defer { git_tree_free(tree) }
        let author = try identities.author.signature()
        defer { git_signature_free(author) }
        let committer = try identities.committer.signature()
        defer { git_signature_free(committer) }
        var commitID = git_oid()
        try check(relctl_git_commit_create_one_parent(&commitID, pointer, nil, author, committer, "UTF-8", message, tree, parentCommit),
                  "create commit")
        return ObjectID(commitID)
    }

    /// Points `name` at `target`, creating it or moving it wherever it was (a branch relctl owns alone).
    package func forceReference(_ name: String, to target: ObjectID, message: String) throws(GitError) {
        var ref: OpaquePointer?
        var oid = target.gitOID
        try check(git_reference_create(&ref, pointer, name, &oid, 1, message), "update \(name)")
        git_reference_free(ref)
    }

    /// The parents of a commit, in order (a merge commit's second parent is the merged branch).
    package func parents(of commit: ObjectID) throws(GitError) -> [ObjectID] {
        var oid = commit.gitOID
        var object: OpaquePointer?
        try check(git_commit_lookup(&object, pointer, &oid), "read commit \(commit.hex)")
        defer { git_commit_free(object) }
        var parents: [ObjectID] = []
        for position in 0..<git_commit_parentcount(object) {
            if let id = git_commit_parent_id(object, position) { parents.append(ObjectID(id.pointee)) }
        }
        return parents
    }

    /// Whether two commits hold the same tree (the same files, byte for byte).
    package func sameTrees(_ commit: ObjectID, _ other: ObjectID) throws(GitError) -> Bool {
        var a = commit.gitOID, b = other.gitOID
        var first: OpaquePointer?, second: OpaquePointer?
        try check(git_commit_lookup(&first, pointer, &a), "read commit \(commit.hex)")
        defer { git_commit_free(first) }
        try check(git_commit_lookup(&second, pointer, &b), "read commit \(other.hex)")
        defer { git_commit_free(second) }
        guard let x = git_commit_tree_id(first), let y = git_commit_tree_id(second) else { return false }
        return git_oid_equal(x, y) == 1
    }
}
