/// A unified diff of two versions of one file, in the form `git diff` prints (`diff --git a/path b/path`,
/// `--- a/path`, `+++ b/path`, hunks with three lines of context, git's default hunk-header context,
/// `\ No newline at end of file`); a new file is `new file mode 100644` against `/dev/null`.
///
/// relctl's dry runs print it. It is computed here, in pure Swift, rather than with libgit2's
/// `git_patch_from_buffers`, whose xdiff classifies every line of the file: on a file of ten million equal
/// lines that took 16 s and 1.4 GB for a one-line change, while the real write costs a few milliseconds. Here
/// the common prefix and suffix are skipped byte-wise first, so the work is proportional to the file size
/// once and to the changed region times the number of changes (Myers' O(ND) on the middle), and the memory to
/// the changed region.
public enum UnifiedDiff {
    /// Lines of context around each change (git's default).
    public static let context = 3

    /// The diff from `old` (nil: the file does not exist yet) to `new`; empty when they are equal.
    public static func render(old: [UInt8]?, new: [UInt8], path: String) -> String {
        let before = old ?? []
        if let old, old == new { return "" }
        var out = "diff --git a/\(path) b/\(path)\n"
        if old == nil {
            out += "new file mode 100644\n--- /dev/null\n"
        } else {
            out += "--- a/\(path)\n"
        }
        out += "+++ b/\(path)\n"
        if old == nil && new.isEmpty { return out }
        let (a, b) = changedWindow(before, new)
        // The window's context lines are common to both sides: the edit script is computed between them only, so a
        // pure insertion (a new changelog section) costs its length, not its length squared.
        var low = 0, highA = a.count, highB = b.count
        while low < highA && low < highB && a.equal(low, b, low) { low += 1 }
        while highA > low && highB > low && a.equal(highA - 1, b, highB - 1) { highA -= 1; highB -= 1 }
        let changes = myers(a, low..<highA, b, low..<highB)
        for hunk in hunks(changes, oldCount: a.count, newCount: b.count) {
            out += render(hunk, a, b)
        }
        return out
    }

    /// Convenience for texts.
    public static func render(old: String?, new: String, path: String) -> String {
        render(old: old.map { Array($0.utf8) }, new: Array(new.utf8), path: path)
    }

    // MARK: - Lines

    /// The lines of a byte range of a buffer, each with its line feed (the file's last line may have none);
    /// `firstLine` is the 0-based number of the first one in the file.
    struct Lines {
        let bytes: [UInt8]
        /// Absolute start offset of each line, plus the end of the range.
        let starts: [Int]
        let firstLine: Int

        init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil, firstLine: Int = 0) {
            let end = end ?? bytes.count
            self.bytes = bytes
            self.firstLine = firstLine
            var starts = [start]
            bytes.withUnsafeBufferPointer { buffer in
                var i = start
                while i < end {
                    if buffer[i] == 0x0A { starts.append(i + 1) }
                    i += 1
                }
            }
            if starts.last != end { starts.append(end) }
            self.starts = starts
        }

        var count: Int { starts.count - 1 }

        func range(_ line: Int) -> Range<Int> { starts[line]..<starts[line + 1] }

        func equal(_ i: Int, _ other: Lines, _ j: Int) -> Bool {
            let r = range(i), s = other.range(j)
            guard r.count == s.count else { return false }
            return bytes.withUnsafeBufferPointer { x in
                other.bytes.withUnsafeBufferPointer { y in
                    memoryEqual(x, r.lowerBound, y, s.lowerBound, r.count)
                }
            }
        }
    }

    /// One changed region: old lines `old` are replaced by new lines `new` (either may be empty), numbered
    /// within the `Lines` they were found in.
    struct Change: Equatable {
        var old: Range<Int>
        var new: Range<Int>
    }

    /// The region around the change: the common prefix and suffix are skipped byte-wise (then widened to whole
    /// lines), and up to `context` common lines are kept on each side for the hunks.
    static func changedWindow(_ a: [UInt8], _ b: [UInt8]) -> (old: Lines, new: Lines) {
        let shortest = min(a.count, b.count)
        let (prefix, suffix) = a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y -> (Int, Int) in
                var p = 0
                while p < shortest && x[p] == y[p] { p += 1 }
                // Back to the start of the line holding the first difference: that line is not common.
                while p > 0 && x[p - 1] != 0x0A { p -= 1 }
                var s = 0
                while s < shortest - p && x[a.count - 1 - s] == y[b.count - 1 - s] { s += 1 }
                return (p, s)
            }
        }
        // Forward to a line start in both buffers: the line holding the last difference is not common.
        var qa = a.count - suffix, qb = b.count - suffix
        while qa < a.count && !((qa == prefix || a[qa - 1] == 0x0A) && (qb == prefix || b[qb - 1] == 0x0A)) {
            qa += 1; qb += 1
        }
        // Widen by up to `context` lines on each side (common to both buffers).
        var start = prefix, before = 0
        while before < context && start > 0 {
            start -= 1
            while start > 0 && a[start - 1] != 0x0A { start -= 1 }
            before += 1
        }
        var after = 0, extra = 0
        while after < context && qa + extra < a.count {
            while qa + extra < a.count && a[qa + extra] != 0x0A { extra += 1 }
            if qa + extra < a.count { extra += 1 }
            after += 1
        }
        let firstLine = a.withUnsafeBufferPointer { x in x[0..<start].reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } }
        return (Lines(a, from: start, to: qa + extra, firstLine: firstLine),
                Lines(b, from: start, to: qb + extra, firstLine: firstLine))
    }

    /// The shortest edit script between two line ranges (Myers 1986), as changed regions. Past `maxCost`
    /// edits the whole range is reported as one replacement: still a correct diff, only not minimal.
    static func myers(_ a: Lines, _ ra: Range<Int>, _ b: Lines, _ rb: Range<Int>, maxCost: Int = 4_000) -> [Change] {
        let n = ra.count, m = rb.count
        if n == 0 && m == 0 { return [] }
        if n == 0 || m == 0 { return [Change(old: ra, new: rb)] }
        // Hash each line once so most comparisons are integer compares.
        let ha = hashes(a, ra), hb = hashes(b, rb)

        let maxD = min(n + m, maxCost)
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * maxD + 3)
        // Round d keeps only the diagonals it can reach, v[offset - d - 1 ... offset + d + 1] (2d + 3 values, to
        // bound the memory by D²), each round in an array of its own (one growing array would be copied as it
        // doubles, faulting in twice the pages). A change inserting a 1,000-line changelog section takes 1,000
        // rounds: the loop runs on raw buffers.
        var trace: [[Int]] = []
        var found = false
        ha.withUnsafeBufferPointer { ha in
            hb.withUnsafeBufferPointer { hb in
                v.withUnsafeMutableBufferPointer { v in
                    outer: for d in 0...maxD {
                        trace.append(Array(UnsafeBufferPointer(rebasing: v[(offset - d - 1)...(offset + d + 1)])))
                        var k = -d
                        while k <= d {
                            var x: Int
                            if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                                x = v[offset + k + 1]
                            } else {
                                x = v[offset + k - 1] + 1
                            }
                            var y = x - k
                            while x < n && y < m && ha[x] == hb[y] && a.equal(ra.lowerBound + x, b, rb.lowerBound + y) {
                                x += 1; y += 1
                            }
                            v[offset + k] = x
                            if x >= n && y >= m { found = true; break outer }
                            k += 2
                        }
                    }
                }
            }
        }
        guard found else { return [Change(old: ra, new: rb)] }

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
        var changes: [Change] = []
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
            changes.append(Change(old: (ra.lowerBound + oldStart)..<(ra.lowerBound + px),
                                  new: (rb.lowerBound + newStart)..<(rb.lowerBound + py)))
        }
        return changes
    }

    static func hashes(_ lines: Lines, _ range: Range<Int>) -> [UInt64] {
        lines.bytes.withUnsafeBufferPointer { buffer in
            range.map { line in
                var h: UInt64 = 0xcbf29ce484222325   // FNV-1a
                for i in lines.range(line) { h = (h ^ UInt64(buffer[i])) &* 0x100000001b3 }
                return h
            }
        }
    }

    // MARK: - Hunks

    struct Hunk {
        var old: Range<Int>
        var new: Range<Int>
        var changes: [Change]
    }

    /// Changes grouped into hunks: two changes share a hunk when at most 2 × context lines lie between them.
    static func hunks(_ changes: [Change], oldCount: Int, newCount: Int) -> [Hunk] {
        var result: [Hunk] = []
        for change in changes {
            if var last = result.last, change.old.lowerBound - last.changes.last!.old.upperBound <= 2 * context {
                last.changes.append(change)
                result[result.count - 1] = last
            } else {
                result.append(Hunk(old: 0..<0, new: 0..<0, changes: [change]))
            }
        }
        for index in result.indices {
            let first = result[index].changes.first!, last = result[index].changes.last!
            let before = min(context, first.old.lowerBound, first.new.lowerBound)
            let after = min(context, oldCount - last.old.upperBound, newCount - last.new.upperBound)
            result[index].old = (first.old.lowerBound - before)..<(last.old.upperBound + after)
            result[index].new = (first.new.lowerBound - before)..<(last.new.upperBound + after)
        }
        return result
    }

    static func render(_ hunk: Hunk, _ a: Lines, _ b: Lines) -> String {
        func span(_ relative: Range<Int>) -> String {
            // git: a one-line span has no count; an empty one names the line before it.
            let r = (relative.lowerBound + a.firstLine)..<(relative.upperBound + a.firstLine)
            switch r.count {
            case 0: return "\(r.lowerBound),0"
            case 1: return "\(r.lowerBound + 1)"
            default: return "\(r.lowerBound + 1),\(r.count)"
            }
        }
        var out = "@@ -\(span(hunk.old)) +\(span(hunk.new)) @@"
        if let function = functionContext(before: a.starts[hunk.old.lowerBound], in: a.bytes) { out += " " + function }
        out += "\n"
        var bytes: [UInt8] = []
        func emit(_ marker: UInt8, _ lines: Lines, _ line: Int) {
            bytes.append(marker)
            let r = lines.range(line)
            bytes.append(contentsOf: lines.bytes[r])
            if r.isEmpty || lines.bytes[r.upperBound - 1] != 0x0A {
                bytes.append(contentsOf: Array("\n\\ No newline at end of file\n".utf8))
            }
        }
        var x = hunk.old.lowerBound
        for change in hunk.changes {
            while x < change.old.lowerBound { emit(0x20, a, x); x += 1 }
            for line in change.old { emit(0x2D, a, line) }
            for line in change.new { emit(0x2B, b, line) }
            x = change.old.upperBound
        }
        while x < hunk.old.upperBound { emit(0x20, a, x); x += 1 }
        return out + String(decoding: bytes, as: UTF8.self)
    }

    /// git's default hunk-header context: the nearest line above the hunk (which starts at byte `offset`) that
    /// starts with a letter, `_` or `$`, without its trailing white space, cut to 80 bytes.
    static func functionContext(before offset: Int, in bytes: [UInt8]) -> String? {
        var end = offset
        while end > 0 {
            var start = end - 1
            while start > 0 && bytes[start - 1] != 0x0A { start -= 1 }
            let first = bytes[start]
            if (first >= 0x41 && first <= 0x5A) || (first >= 0x61 && first <= 0x7A) || first == 0x5F || first == 0x24 {
                var stop = end
                while stop > start, [0x0A, 0x0D, 0x20, 0x09].contains(bytes[stop - 1]) { stop -= 1 }
                stop = min(stop, start + 80)
                return String(decoding: bytes[start..<stop], as: UTF8.self)
            }
            end = start
        }
        return nil
    }
}

@inline(__always)
private func memoryEqual(_ x: UnsafeBufferPointer<UInt8>, _ i: Int, _ y: UnsafeBufferPointer<UInt8>, _ j: Int, _ count: Int) -> Bool {
    var k = 0
    while k < count {
        if x[i + k] != y[j + k] { return false }
        k += 1
    }
    return true
}
