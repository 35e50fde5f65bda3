/// A max-heap by committer date; among equal dates, the earlier inserted comes first.
struct DateQueue {
    private struct Entry { let time: Int64; let sequence: Int; let node: Int32 }
    private var heap: [Entry] = []

    private static func before(_ x: Entry, _ y: Entry) -> Bool {
        x.time != y.time ? x.time > y.time : x.sequence < y.sequence
    }

    var peekTime: Int64? { heap.first?.time }

    func contains(where predicate: (Int32) -> Bool) -> Bool { heap.contains { predicate($0.node) } }

    mutating func push(time: Int64, sequence: Int, node: Int32) {
        heap.append(Entry(time: time, sequence: sequence, node: node))
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard Self.before(heap[i], heap[parent]) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> Int32? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var best = i
                if l < heap.count && Self.before(heap[l], heap[best]) { best = l }
                if r < heap.count && Self.before(heap[r], heap[best]) { best = r }
                if best == i { break }
                heap.swapAt(i, best)
                i = best
            }
        }
        return top.node
    }
}
