internal import CLibGit2

extension Repository {
    /// Whether `ancestor` is `descendant` or one of its ancestors.
    package func isAncestor(_ ancestor: ObjectID, of descendant: ObjectID) throws(GitError) -> Bool {
        if ancestor == descendant { return true }
        var a = ancestor.gitOID, d = descendant.gitOID
        let code = git_graph_descendant_of(pointer, &d, &a)
        try check(code, "compare history")
        return code == 1
    }

    /// The first parent of a commit; nil for a root commit. Throws `.shallowHistory` when the parent lies beyond
    /// the edge of a shallow clone, `.missingObject` when it is missing from a complete one.
    package func firstParent(of commit: ObjectID) throws(GitError) -> ObjectID? {
        let object = try readObject(commit, operation: "read commit \(commit.hex)")
        guard object.type == GIT_OBJECT_COMMIT else {
            throw GitError(kind: .other, operation: "read commit \(commit.hex)", message: "object is not a commit")
        }
        let parent = object.withBytes { bytes -> ObjectID? in
            var pos = 0
            while pos < bytes.count {
                var end = pos
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                if end == pos { return nil }   // end of the header: no parent line
                if bytes[pos..<min(end, pos + 7)].elementsEqual("parent ".utf8) {
                    return ObjectID(hexBytes: bytes, at: pos + 7)
                }
                pos = end + 1
            }
            return nil
        }
        guard let parent else { return nil }
        if try !contains(parent) {
            if isShallow {
                throw GitError(kind: .shallowHistory, operation: "walk history",
                               message: "the clone is shallow and its history ends at \(commit.hex.prefix(12))")
            }
            throw GitError(kind: .missingObject, operation: "walk history", message: "commit \(parent.hex) is missing")
        }
        return parent
    }
}
