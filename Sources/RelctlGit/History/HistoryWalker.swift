internal import CLibGit2

/// Walks `base..head` reading every commit object exactly once.
///
/// libgit2's revwalk parses each commit and `git_commit_lookup` then reads it again; this walker reads the raw
/// object once (`git_odb_read`), takes parents, committer date and message from that one buffer, and limits the
/// walk the way git's `limit_list` does: a date-ordered queue of interesting commits (from the head) and
/// uninteresting ones (from the base), stopped once only uninteresting commits are left (with git's slop of five
/// extra steps against clock skew). The cost grows with the commits in the range, not with the whole history.
/// Parsed commits are kept, so trying a second base (when the first was not an ancestor) reads nothing twice.
package final class HistoryWalker {
    let repository: Repository

    private struct Node {
        let id: ObjectID
        var parsed = false
        var missing = false
        /// The object was handed on to a stream or let go (`handsMessagesOn`): a second walk reads it again. For a
        /// walker that keeps messages, on a commit taken from the commit-graph: its message was read.
        var messageGone = false
        /// Parents and time came from the commit-graph: the object was not read.
        var fromGraph = false
        var time: Int64 = 0
        var parentStart: Int32 = 0
        var parentCount: Int32 = 0
    }

    // The walk's state is touched several times for every commit, on one thread, by this class only: the run-time
    // exclusivity checks a class's stored properties get (swift_beginAccess, 4% of the walking thread at 100,000
    // commits) buy nothing here.
    @exclusivity(unchecked) private var nodes: [Node] = []
    @exclusivity(unchecked) private var index = NodeIndex()
    @exclusivity(unchecked) private var parentStorage: [Int32] = []
    /// Each parsed commit's message, by node: decoded once, and the same storage the range's records share (no
    /// second copy of every message while the walk holds the first).
    @exclusivity(unchecked) private var messages: [String] = []
    /// With `handsMessagesOn`, the objects of commits parsed and not handed on yet (the walk's frontier), instead
    /// of `messages`: the message is decoded by whoever takes the batch, not on the walking thread.
    @exclusivity(unchecked) private var waiting: [Int32: (object: OpaquePointer, messageStart: Int32)] = [:]
    /// With `handsMessagesOn`, the commits recorded and not handed on yet.
    private var batch: HandedCommits?
    private let batchSize: Int
    @exclusivity(unchecked) private var flags: [UInt8] = []

    private static let seen: UInt8 = 1
    private static let uninteresting: UInt8 = 2

    /// The repository's commit-graph, read at the first walk when `usesCommitGraph` and git would use it.
    private var graph: CommitGraph?
    private var graphLoaded = false
    /// Whether parents and dates come from the commit-graph when the repository has one (the default).
    package var usesCommitGraph = true
    /// Whether the walks read the commit-graph (for tests and benchmarks).
    package var readsCommitGraph: Bool { graph != nil }

    /// How many commit objects were read so far (for tests and benchmarks).
    package private(set) var objectsRead = 0

    /// When true, each message goes to `onCommit` only: the walker lets go of it as it hands it on, and the
    /// range's records carry an empty message. A streaming caller that classifies the messages as they come then
    /// holds each one only until it is classified, not the whole range's messages until the walk ends (at 100,000
    /// commits that is most of the memory). A commit recorded again by a later walk (a second base) is read again.
    package let handsMessagesOn: Bool

    /// `batchSize`: with `handsMessagesOn`, how many commits go to `onBatch` at a time (the last batch of a walk
    /// may be shorter).
    package init(repository: Repository, handsMessagesOn: Bool = false, batchSize: Int = 2048) {
        self.repository = repository
        self.handsMessagesOn = handsMessagesOn
        self.batchSize = max(1, batchSize)
    }

    deinit {
        for entry in waiting.values { git_odb_object_free(entry.object) }
    }

    /// Lets go of the object a commit was parsed from: a walk that records it later reads it again.
    private func dropWaiting(_ n: Int32) {
        if let entry = waiting.removeValue(forKey: n) {
            git_odb_object_free(entry.object)
            nodes[Int(n)].messageGone = true
        }
    }

    private func node(for id: ObjectID) -> Int32 {
        index.node(for: id, ids: { nodes[Int($0)].id }, make: {
            let n = Int32(nodes.count)
            nodes.append(Node(id: id))
            if !handsMessagesOn { messages.append("") }
            flags.append(0)
            return n
        })
    }

    /// Reads and parses a commit once. Returns false when the object is missing.
    private func parse(_ n: Int32) throws(GitError) -> Bool {
        let i = Int(n)
        if nodes[i].parsed { return true }
        if nodes[i].missing { return false }
        let id = nodes[i].id
        if let graph, let position = graph.position(of: id) {
            let start = Int32(parentStorage.count)
            var parentCount: Int32 = 0
            guard let time = graph.commit(at: position, parents: { parent in
                parentStorage.append(node(for: graph.id(at: parent)))
                parentCount += 1
            }) else {
                // A damaged entry: the graph is not used again, and this commit is read from its object.
                self.graph = nil
                return try parse(n)
            }
            nodes[i].parentStart = start
            nodes[i].parentCount = parentCount
            nodes[i].time = time
            nodes[i].fromGraph = true
            nodes[i].parsed = true
            return true
        }
        var oid = id.gitOID
        var object: OpaquePointer?
        let code = git_odb_read(&object, try repository.odb(), &oid)
        if code == GIT_ENOTFOUND.rawValue {
            nodes[i].missing = true
            return false
        }
        try check(code, "read commit \(id.hex)")
        // With `handsMessagesOn` the object is kept for the batch it goes to, else freed here.
        var keepsObject = false
        defer { if !keepsObject { git_odb_object_free(object) } }
        objectsRead += 1
        guard git_odb_object_type(object) == GIT_OBJECT_COMMIT else {
            throw GitError(kind: .other, operation: "read commit \(id.hex)", message: "object is not a commit")
        }
        // `bytes` points into `object`: parents are copied into ObjectIDs and node indexes, and the message either
        // decoded into a String or left in the object, which goes to the batch.
        let size = git_odb_object_size(object)
        let bytes = UnsafeBufferPointer(start: git_odb_object_data(object)!.assumingMemoryBound(to: UInt8.self), count: size)

        let start = Int32(parentStorage.count)
        var parentCount: Int32 = 0
        var time: Int64 = 0
        var pos = 0
        var messageStart = size
        // Header lines until the first empty line; continuation lines (gpgsig) start with a space.
        while pos < size {
            var end = pos
            while end < size && bytes[end] != 0x0A { end += 1 }
            if end == pos { messageStart = min(size, end + 1); break }
            if startsWith(bytes, pos, "parent ") {
                guard let parent = ObjectID(hexBytes: bytes, at: pos + 7) else {
                    throw GitError(kind: .other, operation: "read commit \(id.hex)", message: "malformed parent line")
                }
                parentStorage.append(node(for: parent))
                parentCount += 1
            } else if startsWith(bytes, pos, "committer ") {
                time = committerTime(bytes, pos, end)
            }
            pos = end + 1
        }

        nodes[i].parentStart = start
        nodes[i].parentCount = parentCount
        nodes[i].time = time
        if handsMessagesOn {
            waiting[n] = (object!, Int32(messageStart))
            keepsObject = true
        } else if messageStart < size {
            messages[i] = String(decoding: UnsafeBufferPointer(rebasing: bytes[messageStart..<size]), as: UTF8.self)
        }
        nodes[i].parsed = true
        return true
    }

    /// Where a commit's parents sit in `parentStorage`. An index range, not a slice: a slice would share the
    /// buffer, and the next append (parsing a parent) would then copy the whole storage.
    private func parentRange(of n: Int32) -> Range<Int> {
        let node = nodes[Int(n)]
        return Int(node.parentStart)..<Int(node.parentStart + node.parentCount)
    }

    private func markUninteresting(startingAt start: Int32) {
        var stack: [Int32] = [start]
        while let n = stack.popLast() {
            if flags[Int(n)] & Self.uninteresting != 0 { continue }
            flags[Int(n)] |= Self.uninteresting
            // Parents are known only for parsed commits; unparsed ones pass the flag on when they are parsed.
            for k in parentRange(of: n) { stack.append(parentStorage[k]) }
        }
    }

    /// The commits in `base..head`. With `base` nil, the whole history of `head`.
    /// Throws `.shallowHistory` when the range crosses the edge of a shallow clone, `.missingObject` when an
    /// object is missing in a complete repository.
    ///
    /// `onCommit` sees each commit as the walk finds it, before the walk ends: a caller can start on them at once
    /// (on another thread). A commit seen there may still drop out of the final range (clock skew: a later commit
    /// proves it an ancestor of the base); the returned range is the truth.
    ///
    /// With `handsMessagesOn`, `onBatch` gets the same commits with their messages, `batchSize` at a time and the
    /// rest when the walk ends (and `onCommit` gets records without messages). A walk that throws hands on nothing
    /// more. `handing` false: a walker that hands messages on records the range without handing anything on (the
    /// messages were streamed by an earlier walk of a larger range).
    package func walk(from head: ObjectID, hiding base: ObjectID?,
                     onCommit: ((CommitRecord) -> Void)? = nil,
                     onBatch: ((HandedCommits) -> Void)? = nil, handing: Bool = true) throws(GitError) -> RangeWalk {
        for i in flags.indices { flags[i] = 0 }
        batch = nil
        if !graphLoaded {
            graphLoaded = true
            graph = usesCommitGraph ? CommitGraph.load(repository) : nil
        }
        defer {
            // What the walk parsed and did not record (the base's side, the frontier): its objects go now.
            for n in Array(waiting.keys) { dropWaiting(n) }
            batch = nil
        }
        var queue = DateQueue()
        var sequence = 0

        let headNode = node(for: head)
        guard try parse(headNode) else {
            throw GitError(kind: .missingObject, operation: "walk history", message: "HEAD commit \(head.hex) is missing")
        }
        flags[Int(headNode)] |= Self.seen
        queue.push(time: nodes[Int(headNode)].time, sequence: sequence, node: headNode); sequence += 1

        var baseNode: Int32 = -1
        if let base {
            baseNode = node(for: base)
            if try parse(baseNode) {
                flags[Int(baseNode)] |= Self.seen | Self.uninteresting
                queue.push(time: nodes[Int(baseNode)].time, sequence: sequence, node: baseNode); sequence += 1
            }
        }
        if headNode == baseNode { return RangeWalk(commits: [], reachedBase: true) }
        var reachedBase = false
        var missing: [Int32] = []
        // Node numbers only while walking: the records are made once the range is known, in an array of exactly
        // its size (a growing array of records would double past the range and copy itself on the way).
        var recordNodes: [Int32] = []
        var lastDate = Int64.max
        var slop = 5

        while let c = queue.pop() {
            let isUninteresting = flags[Int(c)] & Self.uninteresting != 0
            for k in parentRange(of: c) {
                let p = parentStorage[k]
                if isUninteresting {
                    markUninteresting(startingAt: p)
                } else if p == baseNode {
                    reachedBase = true
                }
                guard try parse(p) else {
                    if flags[Int(p)] & Self.seen == 0 { missing.append(p) }
                    flags[Int(p)] |= Self.seen
                    continue
                }
                if flags[Int(p)] & Self.uninteresting != 0 {
                    // Reached another way before: pass the flag on to what is already parsed.
                    for k in parentRange(of: p) { markUninteresting(startingAt: parentStorage[k]) }
                    if handsMessagesOn { dropWaiting(p) }   // never recorded by this walk
                }
                if flags[Int(p)] & Self.seen == 0 {
                    flags[Int(p)] |= Self.seen
                    queue.push(time: nodes[Int(p)].time, sequence: sequence, node: p); sequence += 1
                }
            }
            if isUninteresting {
                slop = stillInteresting(queue, lastDate: lastDate, slop: slop)
                if slop > 0 { continue }
                break
            }
            lastDate = nodes[Int(c)].time
            if handsMessagesOn {
                if handing { try handOn(c, onBatch: onBatch) }
            } else if nodes[Int(c)].fromGraph && !nodes[Int(c)].messageGone {
                messages[Int(c)] = try repository.commitMessage(nodes[Int(c)].id)
                nodes[Int(c)].messageGone = true
            }
            if let onCommit { onCommit(record(c)) }
            recordNodes.append(c)
        }
        if let last = batch, last.count > 0 {
            batch = nil
            onBatch?(last)
        }

        if let stuck = missing.first(where: { flags[Int($0)] & Self.uninteresting == 0 }) {
            if repository.isShallow {
                throw GitError(kind: .shallowHistory, operation: "walk history",
                               message: "the clone is shallow and its history ends at \(nodes[Int(stuck)].id.hex.prefix(12)) before the range does")
            }
            throw GitError(kind: .missingObject, operation: "walk history",
                           message: "commit \(nodes[Int(stuck)].id.hex) is missing from the object database")
        }

        // What turned out to be reachable from the base (clock skew) is left out.
        var commits: [CommitRecord] = []
        commits.reserveCapacity(recordNodes.lazy.filter { self.flags[Int($0)] & Self.uninteresting == 0 }.count)
        for n in recordNodes where flags[Int(n)] & Self.uninteresting == 0 { commits.append(record(n)) }
        recordNodes = []
        return RangeWalk(commits: commits, reachedBase: reachedBase)
    }

    /// Adds a commit's object to the batch (reading it again when an earlier walk handed it on), handing the batch
    /// on when it is full.
    private func handOn(_ n: Int32, onBatch: ((HandedCommits) -> Void)?) throws(GitError) {
        let node = nodes[Int(n)]
        let entry: (object: OpaquePointer?, messageStart: Int32)
        if let waitingEntry = waiting.removeValue(forKey: n) {
            entry = (waitingEntry.object, waitingEntry.messageStart)
        } else if node.fromGraph {
            entry = (nil, 0)   // read by whoever takes the batch
        } else {
            let again = try readAgain(node.id)
            entry = (again.object, again.messageStart)
        }
        nodes[Int(n)].messageGone = true
        let current = batch ?? HandedCommits(capacity: batchSize)
        current.append(node.id, object: entry.object, messageStart: Int(entry.messageStart),
                       parentCount: node.parentCount)
        if current.count >= batchSize {
            batch = nil
            onBatch?(current)
        } else {
            batch = current
        }
    }

    /// A commit's object and where its message starts, read again for a second walk.
    private func readAgain(_ id: ObjectID) throws(GitError) -> (object: OpaquePointer, messageStart: Int32) {
        var oid = id.gitOID
        var object: OpaquePointer?
        try check(git_odb_read(&object, try repository.odb(), &oid), "read commit \(id.hex)")
        objectsRead += 1
        let size = git_odb_object_size(object)
        let data = git_odb_object_data(object)!.assumingMemoryBound(to: UInt8.self)
        let bytes = UnsafeBufferPointer(start: data, count: size)
        var pos = 0
        while pos < size {
            var end = pos
            while end < size && bytes[end] != 0x0A { end += 1 }
            if end == pos { return (object!, Int32(min(size, end + 1))) }
            pos = end + 1
        }
        return (object!, Int32(size))
    }

    /// The record of a parsed commit; with `handsMessagesOn` its message is empty (it went to the batch).
    private func record(_ n: Int32) -> CommitRecord {
        let node = nodes[Int(n)]
        let range = parentRange(of: n)
        let first = range.isEmpty ? nil : nodes[Int(parentStorage[range.lowerBound])].id
        let others = range.count > 1 ? range.dropFirst().map { nodes[Int(parentStorage[$0])].id } : []
        return CommitRecord(id: node.id, firstParent: first, otherParents: others, time: node.time,
                            message: handsMessagesOn ? "" : messages[Int(n)])
    }

    private func stillInteresting(_ queue: DateQueue, lastDate: Int64, slop: Int) -> Int {
        guard let newest = queue.peekTime else { return 0 }
        if lastDate <= newest { return 5 }
        if queue.contains(where: { flags[Int($0)] & Self.uninteresting == 0 }) { return 5 }
        return slop - 1
    }
}

@inline(__always)
private func startsWith(_ bytes: UnsafeBufferPointer<UInt8>, _ pos: Int, _ prefix: StaticString) -> Bool {
    let count = prefix.utf8CodeUnitCount
    guard pos + count <= bytes.count else { return false }
    let p = prefix.utf8Start
    for k in 0..<count where bytes[pos + k] != p[k] { return false }
    return true
}

/// The timestamp of a `committer Name <email> 1700000000 +0000` line.
private func committerTime(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int64 {
    var gt = end - 1
    while gt > start && bytes[gt] != UInt8(ascii: ">") { gt -= 1 }
    var pos = gt + 1
    while pos < end && bytes[pos] == UInt8(ascii: " ") { pos += 1 }
    var value: Int64 = 0
    while pos < end, bytes[pos] >= UInt8(ascii: "0"), bytes[pos] <= UInt8(ascii: "9") {
        value = value &* 10 &+ Int64(bytes[pos] - UInt8(ascii: "0"))
        pos += 1
    }
    return value
}
