import Testing
@testable import RelctlCore

import Foundation

/// `UnifiedDiff.myers` runs on raw buffers with one flat array for its rounds; it must keep giving exactly the edits
/// it gave when it replaced the plain implementation (checked then against that implementation, edit for edit), or
/// the dry runs' diffs would change. Those edits are recorded in `Fixtures/myers-edits.txt`, one line per text pair
/// and cost limit; `RELCTL_RECORD_GOLDEN=1` writes the file again (review the diff like code).
@Suite struct UnifiedDiffMyersReferenceTests {
    static let recording = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/myers-edits.txt")

    /// One line: the case, then each change as `old>new` line ranges.
    static func line(_ name: String, _ changes: [UnifiedDiff.Change]) -> String {
        name + ":" + changes.map { " \($0.old.lowerBound)-\($0.old.upperBound)>\($0.new.lowerBound)-\($0.new.upperBound)" }.joined()
    }

    /// 400 generated text pairs (insertions of a changelog section, deletions and replacements, repeated lines), each
    /// diffed whole with two cost limits and over its changed window.
    static func edits() -> [String] {
        var lines: [String] = []
        var generator = SplitMix(seed: 0x5EED)
        for round in 0..<400 {
            let alphabet = ["a", "b", "c", "", "x y", "## 1.0.0", "* entry"]
            func text(_ count: Int) -> [UInt8] {
                let lines = (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] + "\n" }
                return Array(lines.joined().utf8)
            }
            let old = text(Int(generator.next() % 30))
            var new = old
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
                lines.append(line("\(round) cost \(cost)", UnifiedDiff.myers(a, 0..<a.count, b, 0..<b.count, maxCost: cost)))
            }
            let (wa, wb) = UnifiedDiff.changedWindow(old, new)
            lines.append(line("\(round) window", UnifiedDiff.myers(wa, 0..<wa.count, wb, 0..<wb.count)))
        }
        return lines
    }

    @Test func sameEditsAsRecordedOnManyTexts() throws {
        let actual = Self.edits()
        if ProcessInfo.processInfo.environment["RELCTL_RECORD_GOLDEN"] != nil {
            try (actual.joined(separator: "\n") + "\n").write(to: Self.recording, atomically: true, encoding: .utf8)
        }
        let recorded = try String(contentsOf: Self.recording, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(recorded.count == 1_200)
        for (index, (now, then)) in zip(actual, recorded).enumerated() where now != then {
            Issue.record("line \(index + 1): \(now)\n  recorded: \(then)")
        }
        #expect(actual.count == recorded.count)
    }

    /// Small cases read by hand, so the recording is anchored to edits one can check.
    @Test func editsOfSmallTextsAreTheMinimalOnes() {
        func diff(_ old: String, _ new: String) -> String {
            let a = UnifiedDiff.Lines(Array(old.utf8)), b = UnifiedDiff.Lines(Array(new.utf8))
            return Self.line("", UnifiedDiff.myers(a, 0..<a.count, b, 0..<b.count))
        }
        #expect(diff("a\nb\nc\n", "a\nb\nc\n") == ":")
        #expect(diff("a\nb\nc\n", "a\nx\nc\n") == ": 1-2>1-2")
        #expect(diff("a\nc\n", "a\nb\nc\n") == ": 1-1>1-2")
        #expect(diff("a\nb\nc\n", "b\nc\n") == ": 0-1>0-0")
        #expect(diff("", "a\nb\n") == ": 0-0>0-2")
        #expect(diff("## 1.0.0\n* a\n", "## 1.1.0\n* b\n\n## 1.0.0\n* a\n") == ": 0-0>0-3")
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
}
