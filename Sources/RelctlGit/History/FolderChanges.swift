internal import CLibGit2

/// Which of a set of folders each commit changes against its first parent (a merge: what it brought in), for the
/// projects of a monorepo. One diff per commit serves every folder at once: the folders form a tree of names
/// (`apps/consumer` and `apps/driver` share `apps`), and the two commits' trees are compared down it, skipping a
/// subtree whose object id is the same on both sides. So a commit that touches only `docs/` reads two root trees; one
/// that touches `apps/consumer` reads `apps` too. Each commit's tree id is read once (a range's commits are each
/// other's parents). Not shared across threads.
package final class FolderChanges {
    private let repository: Repository
    /// The folders, root-relative, `/`-separated, normalized; "" is the root (every commit that changes anything).
    package let folders: [String]
    private let trie: Node
    private var treeOfCommit: [ObjectID: ObjectID] = [:]
    private var known: [ObjectID: [Bool]] = [:]

    /// A level of the folder names: the folders ending here, and the names below.
    private final class Node {
        var ending: [Int] = []
        var children: [(name: String, node: Node)] = []
        func child(_ name: String) -> Node {
            if let found = children.first(where: { $0.name == name }) { return found.node }
            let node = Node()
            children.append((name, node))
            return node
        }
    }

    package init(repository: Repository, folders: [String]) {
        self.repository = repository
        self.folders = folders
        let root = Node()
        for (i, folder) in folders.enumerated() {
            var node = root
            for part in folder.split(separator: "/", omittingEmptySubsequences: true) { node = node.child(String(part)) }
            node.ending.append(i)
        }
        trie = root
    }

    /// For each folder, whether `commit` changes a file under it against its first parent (`firstParent` nil: a
    /// root commit, compared with the empty tree). Remembered per commit.
    package func changed(_ commit: ObjectID, firstParent: ObjectID?) throws(GitError) -> [Bool] {
        if let done = known[commit] { return done }
        var result = [Bool](repeating: false, count: folders.count)
        let new = try tree(of: commit)
        let old = try firstParent.map { id throws(GitError) in try tree(of: id) }
        try compare(old, new, trie, into: &result)
        known[commit] = result
        return result
    }

    /// The tree id of a commit, from its object's first line (`tree <hex>`).
    private func tree(of commit: ObjectID) throws(GitError) -> ObjectID {
        if let id = treeOfCommit[commit] { return id }
        let object = try repository.readObject(commit, operation: "read commit \(commit.hex)")
        let id = object.withBytes { bytes -> ObjectID? in
            guard bytes.count >= 45, bytes.starts(with: Array("tree ".utf8)) else { return nil }
            return ObjectID(hexBytes: bytes, at: 5)
        }
        guard let id else {
            throw GitError(kind: .other, operation: "read commit \(commit.hex)", message: "the commit names no tree")
        }
        treeOfCommit[commit] = id
        return id
    }

    /// Marks the folders under `node` that differ between the trees (or blobs) `old` and `new`.
    private func compare(_ old: ObjectID?, _ new: ObjectID?, _ node: Node, into result: inout [Bool]) throws(GitError) {
        if old == new { return }   // the same subtree: nothing under it changed
        for i in node.ending { result[i] = true }
        guard !node.children.isEmpty else { return }
        let oldEntries = try old.map { id throws(GitError) in try entries(of: id, names: node.children.map(\.name)) }
        let newEntries = try new.map { id throws(GitError) in try entries(of: id, names: node.children.map(\.name)) }
        for (k, child) in node.children.enumerated() {
            try compare(oldEntries?[k] ?? nil, newEntries?[k] ?? nil, child.node, into: &result)
        }
    }

    /// The ids of the entries `names` in tree `id` (nil: absent, or `id` is not a tree).
    private func entries(of id: ObjectID, names: [String]) throws(GitError) -> [ObjectID?] {
        var oid = id.gitOID
        var tree: OpaquePointer?
        let code = git_tree_lookup(&tree, repository.pointer, &oid)
        if code == GIT_ENOTFOUND.rawValue || code == GIT_EINVALIDSPEC.rawValue {
            return names.map { _ in nil }
        }
        if code < 0 {
            // A blob where a folder was expected has no entries.
            if git_odb_exists(try repository.odb(), &oid) == 1 { return names.map { _ in nil } }
            try check(code, "read tree \(id.hex)")
        }
        defer { git_tree_free(tree) }
        return names.map { name in
            guard let entry = git_tree_entry_byname(tree, name), let entryID = git_tree_entry_id(entry) else { return nil }
            return ObjectID(entryID)
        }
    }
}
