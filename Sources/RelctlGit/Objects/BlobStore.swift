internal import CLibGit2

extension Repository {
    /// Stores `bytes` as a blob in the object database and returns its id (the release journal keeps the bytes a
    /// release replaces there, so a rerun after a crash can put them back).
    package func writeBlob(_ bytes: [UInt8]) throws(GitError) -> ObjectID {
        var oid = git_oid()
        // libgit2 copies the buffer into the object it writes; the pointer is lent for the call only.
        let code = bytes.withUnsafeBytes { buffer in
            git_blob_create_from_buffer(&oid, pointer, buffer.baseAddress, buffer.count)
        }
        try check(code, "write blob")
        return ObjectID(oid)
    }

    /// The id git gives `bytes` as a blob (`git hash-object`), without writing anything.
    package static func blobID(of bytes: [UInt8]) -> ObjectID {
        var oid = git_oid()
        _ = bytes.withUnsafeBytes { buffer in git_odb_hash(&oid, buffer.baseAddress, buffer.count, GIT_OBJECT_BLOB) }
        return ObjectID(oid)
    }
}
