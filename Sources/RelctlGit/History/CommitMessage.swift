internal import CLibGit2

extension Repository {
    /// A commit's whole message, decoded as UTF-8 with invalid bytes replaced, exactly as the history walk decodes
    /// it. For the rare second look at a commit whose message the walk already handed on and let go.
    package func commitMessage(_ id: ObjectID) throws(GitError) -> String {
        let object = try readObject(id, operation: "read commit \(id.hex)")
        return object.withBytes { bytes in
            var pos = 0
            while pos < bytes.count {
                var end = pos
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                if end == pos {
                    let start = min(bytes.count, end + 1)
                    guard start < bytes.count else { return "" }
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]), as: UTF8.self)
                }
                pos = end + 1
            }
            return ""
        }
    }
}
