/// The walker's map from object id to node number: an open-addressing table of node numbers only.
///
/// The ids live once, in the walker's nodes; the table holds 4 bytes a slot (a load of at most one half), where a
/// `[ObjectID: Int32]` holds the 20-byte id again beside each value and at 100,000 commits took 11 MB, the
/// largest thing the walk kept. Object ids are SHA-1 digests, so their first word is already a good hash.
struct NodeIndex {
    private var slots: [Int32]
    private var mask: Int
    private(set) var count = 0

    init() {
        slots = [Int32](repeating: -1, count: 64)
        mask = 63
    }

    /// The node number of `id`, else inserts `make()` (the number of the node the caller appends for it).
    mutating func node(for id: ObjectID, ids: (Int32) -> ObjectID, make: () -> Int32) -> Int32 {
        var slot = Int(truncatingIfNeeded: id.a) & mask
        while true {
            let n = slots[slot]
            if n < 0 { break }
            if ids(n) == id { return n }
            slot = (slot + 1) & mask
        }
        let n = make()
        slots[slot] = n
        count += 1
        if count * 2 > slots.count { grow(ids: ids) }
        return n
    }

    private mutating func grow(ids: (Int32) -> ObjectID) {
        let old = slots
        slots = [Int32](repeating: -1, count: old.count * 2)
        mask = slots.count - 1
        for n in old where n >= 0 {
            var slot = Int(truncatingIfNeeded: ids(n).a) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = n
        }
    }
}
