import CLibGit2

/// An open git repository. Owns its `git_repository` and `git_odb`; not shared across tasks.
public final class Repository {
    let pointer: OpaquePointer
    private var odbPointer: OpaquePointer?

    /// The work tree folder (no trailing slash); nil for a bare repository.
    public let workdir: String?
    /// The `.git` folder (no trailing slash).
    public let gitDir: String

    /// Opens the repository that contains `path`, searching upward like git does.
    public convenience init(discoveringFrom path: String) throws(GitError) {
        try self.init(path: path, search: true)
    }

    /// Opens the repository at exactly `path` (a work tree or a `.git` folder).
    public convenience init(at path: String) throws(GitError) {
        try self.init(path: path, search: false)
    }

    private init(path: String, search: Bool) throws(GitError) {
        _ = libgit2Initialized
        var repo: OpaquePointer?
        let flags: UInt32 = search ? 0 : GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue
        let code = git_repository_open_ext(&repo, path, flags, nil)
        if code == GIT_ENOTFOUND.rawValue {
            throw GitError(kind: .notARepository, code: code, operation: "open repository",
                           message: "no git repository at or above '\(path)'")
        }
        if code < 0 {
            let error = GitError.last(code, "open repository '\(path)'")
            if error.message.contains("safe.directory") {
                throw GitError(kind: .other, code: code, operation: "open repository '\(path)'",
                               message: "the repository is owned by another user; if you trust it, run: git config --global --add safe.directory '\(path)'")
            }
            throw error
        }
        guard let repo else { throw GitError(kind: .other, operation: "open repository", message: "libgit2 returned no repository") }
        pointer = repo
        workdir = git_repository_workdir(repo).map { String(cString: $0).trimmingTrailingSlash() }
        gitDir = String(cString: git_repository_path(repo)).trimmingTrailingSlash()
    }

    deinit {
        if let odbPointer { git_odb_free(odbPointer) }
        git_repository_free(pointer)
    }

    /// Whether this is a shallow clone (history cut at some depth).
    public var isShallow: Bool { git_repository_is_shallow(pointer) == 1 }

    /// The commit HEAD points at; nil when the current branch has no commit yet.
    public func headCommit() throws(GitError) -> ObjectID? {
        var oid = git_oid()
        let code = git_reference_name_to_id(&oid, pointer, "HEAD")
        if code == GIT_ENOTFOUND.rawValue || code == GIT_EUNBORNBRANCH.rawValue { return nil }
        try check(code, "resolve HEAD")
        return ObjectID(oid)
    }

    /// The short name of the current branch (`main`), or nil when HEAD is detached or unborn-less.
    public func currentBranch() throws(GitError) -> String? {
        var ref: OpaquePointer?
        let code = git_repository_head(&ref, pointer)
        if code == GIT_EUNBORNBRANCH.rawValue {
            // Unborn: read the symbolic target of HEAD.
            var head: OpaquePointer?
            try check(git_reference_lookup(&head, pointer, "HEAD"), "read HEAD")
            defer { git_reference_free(head) }
            guard let target = git_reference_symbolic_target(head) else { return nil }
            return String(cString: target).droppingPrefix("refs/heads/")
        }
        try check(code, "read HEAD")
        defer { git_reference_free(ref) }
        guard git_reference_is_branch(ref) == 1 else { return nil }
        return String(cString: git_reference_shorthand(ref))
    }

    /// The object database, opened once.
    func odb() throws(GitError) -> OpaquePointer {
        if let odbPointer { return odbPointer }
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, pointer), "open object database")
        odbPointer = odb
        return odb!
    }
}

/// A tag reference, not yet peeled: peeling costs an object read, so callers peel only the tags they need.
public struct TagReference: Sendable, Hashable {
    /// The name without `refs/tags/`.
    public let name: String
    /// The object the reference points at (a tag object for annotated tags, else the commit).
    public let target: ObjectID
    /// The commit an annotated tag peels to, when packed-refs recorded it (free to read).
    public let peeled: ObjectID?
}

extension Repository {
    /// The names (without `refs/tags/`) of the tags starting with `prefix`. Reads no reference file: with
    /// thousands of loose tags, listing names is a directory read while reading each tag is a file open.
    public func tagNames(prefix: String = "") throws(GitError) -> [String] {
        var iterator: OpaquePointer?
        try check(git_reference_iterator_glob_new(&iterator, pointer, "refs/tags/\(prefix)*"), "list tags")
        defer { git_reference_iterator_free(iterator) }
        var names: [String] = []
        while true {
            var name: UnsafePointer<CChar>?
            let code = git_reference_next_name(&name, iterator)
            if code == GIT_ITEROVER.rawValue { break }
            try check(code, "list tags")
            if let name { names.append(String(cString: name).droppingPrefix("refs/tags/")) }
        }
        return names
    }

    /// One tag reference by name; nil when it does not exist or is symbolic.
    public func tag(named name: String) throws(GitError) -> TagReference? {
        var ref: OpaquePointer?
        let code = git_reference_lookup(&ref, pointer, "refs/tags/\(name)")
        if code == GIT_ENOTFOUND.rawValue { return nil }
        try check(code, "read tag \(name)")
        defer { git_reference_free(ref) }
        guard git_reference_type(ref) == GIT_REFERENCE_DIRECT, let target = git_reference_target(ref) else { return nil }
        return TagReference(name: name, target: ObjectID(target), peeled: git_reference_target_peel(ref).map { ObjectID($0) })
    }

    /// The commit a tag points at, following annotated tags (and tags of tags); nil when it names no commit.
    public func commit(of tag: TagReference) throws(GitError) -> ObjectID? {
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

    /// Whether an object exists in the object database (without reading it).
    public func contains(_ id: ObjectID) throws(GitError) -> Bool {
        var oid = id.gitOID
        return git_odb_exists(try odb(), &oid) == 1
    }

    func readObject(_ id: ObjectID, operation: @autoclosure () -> String) throws(GitError) -> RawObject {
        var oid = id.gitOID
        var object: OpaquePointer?
        let code = git_odb_read(&object, try odb(), &oid)
        if code == GIT_ENOTFOUND.rawValue {
            throw GitError(kind: .missingObject, code: code, operation: operation(), message: "object \(id.hex) is missing")
        }
        try check(code, operation())
        return RawObject(object!)
    }
}

/// One object read from the object database; frees it on deinit.
final class RawObject {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { git_odb_object_free(pointer) }

    var type: git_object_t { git_odb_object_type(pointer) }

    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let size = git_odb_object_size(pointer)
        guard let data = git_odb_object_data(pointer) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: size))
    }
}

extension String {
    func trimmingTrailingSlash() -> String {
        var s = self
        while s.count > 1 && s.hasSuffix("/") { s.removeLast() }
        return s
    }

    func droppingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
