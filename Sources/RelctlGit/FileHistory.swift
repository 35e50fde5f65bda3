import CLibGit2

/// A commit's first line and committer date, for messages.
public struct CommitSummary: Sendable, Equatable {
    public let id: ObjectID
    /// The first line of the message.
    public let subject: String
    /// Committer time, seconds since the epoch.
    public let time: Int64
}

// What `relctl adopt` reads from the history of the version files: along the first-parent chain, which blob each
// path has in each commit, and the blob's bytes. Every value is copied out of libgit2 before the call returns
// (object ids into `ObjectID`, bytes into `[UInt8]`); libgit2 is never handed a Swift buffer.
extension Repository {
    /// The first parent of a commit; nil for a root commit. Throws `.shallowHistory` when the parent lies beyond
    /// the edge of a shallow clone, `.missingObject` when it is missing from a complete one.
    public func firstParent(of commit: ObjectID) throws(GitError) -> ObjectID? {
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

    /// The blob each of `paths` (relative to the work tree, `/`-separated) has in `commit`'s tree; nil where the
    /// path does not exist there or is not a file.
    public func blobIDs(at paths: [String], in commit: ObjectID) throws(GitError) -> [ObjectID?] {
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
    public func blobBytes(_ id: ObjectID) throws(GitError) -> [UInt8] {
        let object = try readObject(id, operation: "read blob \(id.hex)")
        guard object.type == GIT_OBJECT_BLOB else {
            throw GitError(kind: .other, operation: "read blob \(id.hex)", message: "object is not a blob")
        }
        return object.withBytes { Array($0) }
    }

    /// A commit's subject line and committer date.
    public func commitSummary(_ id: ObjectID) throws(GitError) -> CommitSummary {
        let object = try readObject(id, operation: "read commit \(id.hex)")
        return object.withBytes { bytes in
            var time: Int64 = 0
            var pos = 0
            var messageStart = bytes.count
            while pos < bytes.count {
                var end = pos
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                if end == pos { messageStart = min(bytes.count, end + 1); break }
                if bytes[pos..<min(end, pos + 10)].elementsEqual("committer ".utf8) {
                    // `committer Name <email> 1700000000 +0000`: the number after the last `>`.
                    var gt = end - 1
                    while gt > pos && bytes[gt] != UInt8(ascii: ">") { gt -= 1 }
                    var digit = gt + 1
                    while digit < end && bytes[digit] == UInt8(ascii: " ") { digit += 1 }
                    while digit < end, bytes[digit] >= 0x30, bytes[digit] <= 0x39 {
                        time = time &* 10 &+ Int64(bytes[digit] - 0x30)
                        digit += 1
                    }
                }
                pos = end + 1
            }
            var subjectEnd = messageStart
            while subjectEnd < bytes.count && bytes[subjectEnd] != 0x0A && bytes[subjectEnd] != 0x0D { subjectEnd += 1 }
            let subject = String(decoding: UnsafeBufferPointer(rebasing: bytes[messageStart..<subjectEnd]), as: UTF8.self)
            return CommitSummary(id: id, subject: subject, time: time)
        }
    }
}
