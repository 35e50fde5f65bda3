internal import CLibGit2

/// A tag reference, not yet peeled: peeling costs an object read, so callers peel only the tags they need.
package struct TagReference: Sendable, Hashable {
    /// The name without `refs/tags/`.
    package let name: String
    /// The object the reference points at (a tag object for annotated tags, else the commit).
    package let target: ObjectID
    /// The commit an annotated tag peels to, when packed-refs recorded it (free to read).
    package let peeled: ObjectID?
}

extension Repository {
    /// The names (without `refs/tags/`) of the tags starting with `prefix`. Reads no reference file: with
    /// thousands of loose tags, listing names is a directory read while reading each tag is a file open
    /// (see `TagNameListing`).
    package func tagNames(prefix: String = "") throws(GitError) -> [String] {
        // `refs/tags` and `packed-refs` are in the common folder (the main `.git` of a linked worktree).
        if let names = TagNameListing.names(commonDir: commonDir, prefix: prefix) { return names }
        return try tagNamesThroughLibgit2(prefix: prefix)
    }

    /// libgit2's listing of the same names: checks every loose tag file as it lists it.
    func tagNamesThroughLibgit2(prefix: String = "") throws(GitError) -> [String] {
        try referenceNames(prefix: "refs/tags/\(prefix)", action: "list tags").map { $0.droppingPrefix("refs/tags/") }
    }

    /// One tag reference by name; nil when it does not exist or is symbolic.
    package func tag(named name: String) throws(GitError) -> TagReference? {
        var ref: OpaquePointer?
        let code = git_reference_lookup(&ref, pointer, "refs/tags/\(name)")
        if code == GIT_ENOTFOUND.rawValue { return nil }
        // A loose tag file that is not a reference: libgit2's listing left it out, so it is no tag here either
        // (`tagNames` lists names without reading the files).
        if code == GIT_ERROR.rawValue, let last = git_error_last(), last.pointee.klass == Int32(GIT_ERROR_REFERENCE.rawValue),
           let message = last.pointee.message, String(cString: message).hasPrefix("corrupted loose reference") {
            return nil
        }
        try check(code, "read tag \(name)")
        defer { git_reference_free(ref) }
        // Both ids point into the reference: copied into ObjectIDs before it is freed.
        guard git_reference_type(ref) == GIT_REFERENCE_DIRECT, let target = git_reference_target(ref) else { return nil }
        return TagReference(name: name, target: ObjectID(target), peeled: git_reference_target_peel(ref).map { ObjectID($0) })
    }

    /// The commit a tag points at, following annotated tags (and tags of tags); nil when it names no commit.
    package func commit(of tag: TagReference) throws(GitError) -> ObjectID? {
        if let peeled = tag.peeled {
            // packed-refs records what an annotated tag peels to, which may be a tree or a blob.
            var oid = peeled.gitOID
            var size = 0
            var type = GIT_OBJECT_INVALID
            let code = git_odb_read_header(&size, &type, try odb(), &oid)
            if code == GIT_ENOTFOUND.rawValue {
                throw GitError(kind: .missingObject, code: code, operation: "read tag \(tag.name)", message: "object \(peeled.hex) is missing")
            }
            try check(code, "read tag \(tag.name)")
            return type == GIT_OBJECT_COMMIT ? peeled : nil
        }
        var id = tag.target
        for _ in 0..<16 {
            let object = try readObject(id, operation: "read tag \(tag.name)")
            switch object.type {
            case GIT_OBJECT_COMMIT: return id
            case GIT_OBJECT_TAG:
                // "object <hex>\n" is the first line of a tag object.
                guard let next = object.withBytes({ bytes -> ObjectID? in
                    guard bytes.starts(with: Array("object ".utf8)) else { return nil }
                    return ObjectID(hexBytes: bytes, at: 7)
                }) else { return nil }
                id = next
            default: return nil
            }
        }
        return nil
    }

    /// The message of an annotated tag (what follows its header); nil for a lightweight tag.
    package func tagMessage(_ tag: TagReference) throws(GitError) -> String? {
        let object = try readObject(tag.target, operation: "read tag \(tag.name)")
        guard object.type == GIT_OBJECT_TAG else { return nil }
        return object.withBytes { bytes -> String? in
            let text = String(decoding: bytes, as: UTF8.self)
            return text.range(of: "\n\n").map { String(text[$0.upperBound...]) }
        }
    }

    /// Creates an annotated tag; fails with `.exists` when the name is taken (never moves a tag).
    @discardableResult
    package func createAnnotatedTag(_ name: String, target: ObjectID, message: String, tagger: Identity) throws(GitError) -> ObjectID {
        var oid = target.gitOID
        var object: OpaquePointer?
        try check(git_object_lookup(&object, pointer, &oid, GIT_OBJECT_COMMIT), "read commit to tag")
        defer { git_object_free(object) }
        let signature = try tagger.signature()
        defer { git_signature_free(signature) }
        var tagID = git_oid()
        let code = git_tag_create(&tagID, pointer, name, object, signature, message, 0)
        if code == GIT_EEXISTS.rawValue {
            throw GitError(kind: .exists, code: code, operation: "create tag \(name)", message: "tag '\(name)' already exists")
        }
        try check(code, "create tag \(name)")
        return ObjectID(tagID)
    }
}
