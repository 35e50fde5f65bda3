internal import CLibGit2

/// Commits a walker handed on (`HistoryWalker(handsMessagesOn:)`), in walk order, each with the object it was read
/// from: the walking thread only reads and parses headers, and whoever classifies the batch (another thread)
/// decodes the messages. The batch owns the objects and frees them when it goes. A commit the walk took from the
/// commit-graph has no object yet: its reader reads it, with a repository handle of its own thread.
///
/// Made on the walking thread and not touched there once handed on, so a batch can move to another thread.
package final class HandedCommits: @unchecked Sendable {
    /// The commits' ids, in walk order.
    package private(set) var ids: [ObjectID] = []
    private var objects: [OpaquePointer?] = []
    private var messageStarts: [Int32] = []
    private var parentCounts: [Int32] = []

    init(capacity: Int) {
        ids.reserveCapacity(capacity)
        objects.reserveCapacity(capacity)
        messageStarts.reserveCapacity(capacity)
        parentCounts.reserveCapacity(capacity)
    }

    deinit {
        for case let object? in objects { git_odb_object_free(object) }
    }

    package var count: Int { ids.count }

    /// Commits the walk took from the commit-graph, without reading their objects: their reader inflates them.
    package private(set) var unread = 0

    /// Takes `object` (a commit read with `git_odb_read`, or nil when not read yet) over: the batch frees it.
    func append(_ id: ObjectID, object: OpaquePointer?, messageStart: Int, parentCount: Int32) {
        ids.append(id)
        objects.append(object)
        if object == nil { unread += 1 }
        messageStarts.append(Int32(messageStart))
        parentCounts.append(parentCount)
    }

    package func parentCount(at k: Int) -> Int { Int(parentCounts[k]) }

    /// The `k`th commit's whole message, decoded as UTF-8 with invalid bytes replaced (as `CommitRecord.message`).
    /// A commit the walk did not read is read from `repository`, which belongs to the calling thread.
    package func message(at k: Int, reading repository: Repository?) throws(GitError) -> String {
        guard let object = objects[k] else {
            guard let repository else {
                throw GitError(kind: .other, operation: "read commit \(ids[k].hex)",
                               message: "no repository to read it from")
            }
            return try repository.commitMessage(ids[k])
        }
        let size = git_odb_object_size(object)
        let start = Int(messageStarts[k])
        guard start < size, let data = git_odb_object_data(object) else { return "" }
        let bytes = UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: size)
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<size]), as: UTF8.self)
    }
}
