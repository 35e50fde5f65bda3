import Testing
@testable import RelctlCore

/// `UnifiedDiff.myers` runs on raw buffers with one flat array for its rounds; it must give exactly the edits of the
/// plain implementation it replaced (kept here as the reference), or the dry runs' diffs would change.
@Suite struct UnifiedDiffMyersReferenceTests {
    @Test func sameEditsAsThePlainImplementationOnManyTexts() {
        var generator = SplitMix(seed: 0x5EED)
        for round in 0..<400 {
            let alphabet = ["a", "b", "c", "", "x y", "## 1.0.0", "* entry"]
            func text(_ count: Int) -> [UInt8] {
                let lines = (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] + "\n" }
                return Array(lines.joined().utf8)
            }
            let old = text(Int(generator.next() % 30))
            var new = old
            // Insertions (a changelog section), deletions and replacements, some repeating nearby lines.
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let lines = new.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
                var edited = Array(lines.dropLast())
                let at = edited.isEmpty ? 0 : Int(generator.next() % UInt64(edited.count + 1))
                switch generator.next() % 3 {
                case 0:
                    let count = Int(generator.next() % (round % 20 == 0 ? 120 : 8))
                    edited.insert(contentsOf: (0..<count).map { _ in Array(text(1).dropLast()) }, at: at)
                case 1: if at < edited.count { edited.remove(at: at) }
                default: if at < edited.count { edited[at] = Array("changed \(round)".utf8) }
                }
                new = Array(edited.map { $0 + [0x0A] }.joined())
            }
            let a = UnifiedDiff.Lines(old), b = UnifiedDiff.Lines(new)
            for cost in [4_000, 3] {
                #expect(UnifiedDiff.myers(a, 0..<a.count, b, 0..<b.count, maxCost: cost)
                        == Self.referenceMyers(a, 0..<a.count, b, 0..<b.count, maxCost: cost), "round \(round)")
            }
            let (wa, wb) = UnifiedDiff.changedWindow(old, new)
            #expect(UnifiedDiff.myers(wa, 0..<wa.count, wb, 0..<wb.count)
                    == Self.referenceMyers(wa, 0..<wa.count, wb, 0..<wb.count))
        }
    }

    /// A small deterministic generator (SplitMix64), so a failure repeats.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E3779B97F4A7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
            return z ^ (z >> 31)
        }
    }

    /// The implementation before the buffers: a new array per round.
    static func referenceMyers(_ a: UnifiedDiff.Lines, _ ra: Range<Int>, _ b: UnifiedDiff.Lines, _ rb: Range<Int>,
                               maxCost: Int = 4_000) -> [UnifiedDiff.Change] {
        let n = ra.count, m = rb.count
        if n == 0 && m == 0 { return [] }
        if n == 0 || m == 0 { return [UnifiedDiff.Change(old: ra, new: rb)] }
        // Hash each line once so most comparisons are integer compares.
        let ha = UnifiedDiff.hashes(a, ra), hb = UnifiedDiff.hashes(b, rb)
        func same(_ x: Int, _ y: Int) -> Bool { ha[x] == hb[y] && a.equal(ra.lowerBound + x, b, rb.lowerBound + y) }

        let maxD = min(n + m, maxCost)
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * maxD + 3)
        var trace: [[Int]] = []
        var found = false
        outer: for d in 0...maxD {
            // Keep only the diagonals this round can reach, to bound the memory by D².
            trace.append(Array(v[(offset - d - 1)...(offset + d + 1)]))
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n && y < m && same(x, y) { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n && y >= m { found = true; break outer }
            }
        }
        guard found else { return [UnifiedDiff.Change(old: ra, new: rb)] }

        // Walk back through the saved rounds, collecting the edits (deletions and insertions), newest first.
        var x = n, y = m
        var deletions: [Int] = [], insertions: [Int] = []
        for d in stride(from: trace.count - 1, through: 1, by: -1) {
            let saved = trace[d]
            func vAt(_ k: Int) -> Int { saved[k + d + 1] }
            let k = x - y
            let previousK = (k == -d || (k != d && vAt(k - 1) < vAt(k + 1))) ? k + 1 : k - 1
            let previousX = vAt(previousK), previousY = previousX - previousK
            while x > previousX && y > previousY { x -= 1; y -= 1 }
            if previousK == k + 1 { insertions.append(previousY) } else { deletions.append(previousX) }
            x = previousX; y = previousY
        }
        // Group the single-line edits into regions, in order.
        deletions.reverse(); insertions.reverse()
        var changes: [UnifiedDiff.Change] = []
        var i = 0, j = 0
        // Replay: positions in old (x) and new (y) advance together over common lines.
        var px = 0, py = 0
        while i < deletions.count || j < insertions.count {
            // Skip common lines up to the next edit.
            let nextDelete = i < deletions.count ? deletions[i] : Int.max
            let nextInsert = j < insertions.count ? insertions[j] : Int.max
            let skip = min(nextDelete - px, nextInsert - py)
            px += skip; py += skip
            let oldStart = px, newStart = py
            while (i < deletions.count && deletions[i] == px) || (j < insertions.count && insertions[j] == py) {
                if i < deletions.count && deletions[i] == px { px += 1; i += 1 }
                if j < insertions.count && insertions[j] == py { py += 1; j += 1 }
            }
            changes.append(UnifiedDiff.Change(old: (ra.lowerBound + oldStart)..<(ra.lowerBound + px),
                                  new: (rb.lowerBound + newStart)..<(rb.lowerBound + py)))
        }
        return changes
    }

}
