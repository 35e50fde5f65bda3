internal import CLibGit2

/// Commits a walker handed on (`HistoryWalker(handsMessagesOn:)`), in walk order, each with the object it was read
/// from: the walking thread only reads and parses headers, and whoever classifies the batch (another thread)
/// decodes the messages. The batch owns the objects and frees them when it goes.
///
/// Made on the walking thread and not touched there once handed on, so a batch can move to another thread.
package final class HandedCommits: @unchecked Sendable {
    /// The commits' ids, in walk order.
    package private(set) var ids: [ObjectID] = []
    private var objects: [OpaquePointer] = []
    private var messageStarts: [Int32] = []
    private var parentCounts: [Int32] = []

    init(capacity: Int) {
        ids.reserveCapacity(capacity)
        objects.reserveCapacity(capacity)
        messageStarts.reserveCapacity(capacity)
        parentCounts.reserveCapacity(capacity)
    }

    deinit {
        for object in objects { git_odb_object_free(object) }
    }

    package var count: Int { ids.count }

    /// Takes `object` (a commit read with `git_odb_read`) over: the batch frees it.
    func append(_ id: ObjectID, object: OpaquePointer, messageStart: Int, parentCount: Int32) {
        ids.append(id)
        objects.append(object)
        messageStarts.append(Int32(messageStart))
        parentCounts.append(parentCount)
    }

    package func parentCount(at k: Int) -> Int { Int(parentCounts[k]) }

    /// The `k`th commit's whole message, decoded as UTF-8 with invalid bytes replaced (as `CommitRecord.message`).
    package func message(at k: Int) -> String {
        let object = objects[k]
        let size = git_odb_object_size(object)
        let start = Int(messageStarts[k])
        guard start < size, let data = git_odb_object_data(object) else { return "" }
        let bytes = UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: size)
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<size]), as: UTF8.self)
    }
}
