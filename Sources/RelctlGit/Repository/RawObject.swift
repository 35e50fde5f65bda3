internal import CLibGit2

extension Repository {
    /// Whether an object exists in the object database (without reading it).
    package func contains(_ id: ObjectID) throws(GitError) -> Bool {
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

    /// Lends the object's bytes to `body`. They belong to the object: `body` copies what it keeps (an ObjectID,
    /// a String, an Array) and lets no pointer to them escape; `self` keeps the object alive for the call.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let size = git_odb_object_size(pointer)
        guard let data = git_odb_object_data(pointer) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: size))
    }
}
