import Foundation
import Testing
@testable import RelctlCore

@Suite struct UnifiedDiffTests {
    @Test func oneTokenChangedInTheMiddle() {
        let old = "a\nb\nc\nversion: 1.0.0\nd\ne\nf\ng\n"
        let new = "a\nb\nc\nversion: 1.1.0\nd\ne\nf\ng\n"
        #expect(UnifiedDiff.render(old: old, new: new, path: "pubspec.yaml") == """
            diff --git a/pubspec.yaml b/pubspec.yaml
            --- a/pubspec.yaml
            +++ b/pubspec.yaml
            @@ -1,7 +1,7 @@
             a
             b
             c
            -version: 1.0.0
            +version: 1.1.0
             d
             e
             f

            """)
    }

    @Test func equalTextsGiveNothing() {
        #expect(UnifiedDiff.render(old: "same\n", new: "same\n", path: "x").isEmpty)
        #expect(UnifiedDiff.render(old: "", new: "", path: "x").isEmpty)
    }

    @Test func hunkHeaderNamesTheEnclosingBlockAsGitDoes() {
        let old = "android {\n    defaultConfig {\n        minSdk 24\n        x 1\n        y 2\n        versionCode 12\n    }\n}\n"
        let new = old.replacingOccurrences(of: "versionCode 12", with: "versionCode 13")
        let diff = UnifiedDiff.render(old: old, new: new, path: "build.gradle")
        #expect(diff.contains("@@ -3,6 +3,6 @@ android {\n         minSdk 24\n"), "\(diff)")
    }

    @Test func changesFarApartAreSeparateHunksAndCloseOnesShareOne() {
        let lines = (1...40).map { "line \($0)" }
        var changed = lines
        changed[4] = "LINE 5"      // line 5
        changed[11] = "LINE 12"    // 6 common lines between: same hunk (git merges a gap of up to 6)
        changed[30] = "LINE 31"    // far: its own hunk
        let diff = UnifiedDiff.render(old: lines.joined(separator: "\n") + "\n",
                                      new: changed.joined(separator: "\n") + "\n", path: "f")
        let headers = diff.split(separator: "\n").filter { $0.hasPrefix("@@") }
        #expect(headers == ["@@ -2,14 +2,14 @@ line 1", "@@ -28,7 +28,7 @@ line 27"], "\(diff)")

        var seven = lines
        seven[4] = "LINE 5"
        seven[12] = "LINE 13"      // 7 common lines between: two hunks
        let split = UnifiedDiff.render(old: lines.joined(separator: "\n") + "\n",
                                       new: seven.joined(separator: "\n") + "\n", path: "f")
        #expect(split.split(separator: "\n").filter { $0.hasPrefix("@@") }.count == 2)
    }

    @Test func newFileIsAgainstDevNull() {
        #expect(UnifiedDiff.render(old: nil, new: "# Changelog\n\n## 1.0.0\n", path: "CHANGELOG.md") == """
            diff --git a/CHANGELOG.md b/CHANGELOG.md
            new file mode 100644
            --- /dev/null
            +++ b/CHANGELOG.md
            @@ -0,0 +1,3 @@
            +# Changelog
            +
            +## 1.0.0

            """)
    }

    @Test func missingFinalNewlineIsMarked() {
        let diff = UnifiedDiff.render(old: "a\nversion=1", new: "a\nversion=2", path: "v.properties")
        #expect(diff.hasSuffix("@@ -1,2 +1,2 @@\n a\n-version=1\n\\ No newline at end of file\n+version=2\n\\ No newline at end of file\n"), "\(diff)")
        // Adding the final newline changes the last line.
        let added = UnifiedDiff.render(old: "a\nb", new: "a\nb\n", path: "f")
        #expect(added.hasSuffix("@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"), "\(added)")
    }

    @Test func prependedSectionIsOnePureInsertion() {
        let old = "# Changelog\n\n## 1.0.0\n\n- first\n"
        let new = "# Changelog\n\n## 1.1.0\n\n- second\n\n## 1.0.0\n\n- first\n"
        let diff = UnifiedDiff.render(old: old, new: new, path: "CHANGELOG.md")
        #expect(diff == "diff --git a/CHANGELOG.md b/CHANGELOG.md\n--- a/CHANGELOG.md\n+++ b/CHANGELOG.md\n"
                + "@@ -1,5 +1,9 @@\n # Changelog\n \n+## 1.1.0\n+\n+- second\n+\n ## 1.0.0\n \n - first\n", "\(diff)")
    }

    @Test func crlfLinesKeepTheirCarriageReturns() {
        let diff = UnifiedDiff.render(old: "a\r\nv = 1\r\n", new: "a\r\nv = 2\r\n", path: "f")
        #expect(diff.hasSuffix("@@ -1,2 +1,2 @@\n a\r\n-v = 1\r\n+v = 2\r\n"), "\(diff)")
    }

    @Test func aHugeFileWithOneChangeIsCheap() {
        // Ten million newlines and one changed line: libgit2's xdiff took 16 s and 1.4 GB on this.
        var old = Array("version = 1.0.0\n".utf8)
        old.append(contentsOf: [UInt8](repeating: 0x0A, count: 10_000_000))
        var new = old
        new[12] = UInt8(ascii: "1")
        let diff = UnifiedDiff.render(old: old, new: new, path: "big.txt")
        #expect(diff == "diff --git a/big.txt b/big.txt\n--- a/big.txt\n+++ b/big.txt\n@@ -1,4 +1,4 @@\n-version = 1.0.0\n+version = 1.1.0\n \n \n \n")
    }

    @Test func lineMovesAndRepeatsAreStillACorrectScript() {
        // Many equal lines on both sides: the script must only be correct (checked by replaying it).
        let old = ["x", "a", "x", "b", "x", "c", "x"].map { $0 + "\n" }.joined()
        let new = ["a", "x", "x", "c", "b", "x", "d"].map { $0 + "\n" }.joined()
        let diff = UnifiedDiff.render(old: old, new: new, path: "f")
        #expect(replay(diff, on: old) == new, "\(diff)")
    }

    @Test(arguments: 0..<200)
    func randomEditsReplayExactly(seed: Int) {
        var rng = SplitMix(seed: UInt64(seed))
        let alphabet = ["a", "b", "c", "version 1", "", "  }", "x y z"]
        var lines = (0..<Int(rng.next() % 40)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
        let old = lines.joined(separator: "\n") + (rng.next() % 2 == 0 ? "\n" : "")
        for _ in 0..<Int(rng.next() % 6) {
            let action = rng.next() % 3
            let at = lines.isEmpty ? 0 : Int(rng.next() % UInt64(lines.count))
            switch action {
            case 0 where !lines.isEmpty: lines.remove(at: at)
            case 1: lines.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: at)
            default: if !lines.isEmpty { lines[at] += "!" }
            }
        }
        let new = lines.joined(separator: "\n") + (rng.next() % 2 == 0 ? "\n" : "")
        let diff = UnifiedDiff.render(old: old, new: new, path: "f")
        #expect(diff.isEmpty == (old == new))
        if old != new { #expect(replay(diff, on: old) == new, "old:\n\(old)\nnew:\n\(new)\ndiff:\n\(diff)") }
    }
}

/// Applies a unified diff of one file to `text`, checking every context and removed line (a strict `patch`).
func replay(_ diff: String, on text: String) -> String? {
    var oldLines = splitKeepingNewlines(text)
    var result: [String] = []
    var cursor = 0
    let lines = splitKeepingNewlines(diff)
    var i = 0
    while i < lines.count && !lines[i].hasPrefix("@@") { i += 1 }
    func strip(_ line: String) -> String { String(line.dropFirst()) }
    while i < lines.count {
        let header = lines[i]
        guard header.hasPrefix("@@ -") else { return nil }
        let spec = header.dropFirst(4).split(separator: " ")[0].split(separator: ",")
        var start = Int(spec[0]) ?? 0
        if spec.count > 1, spec[1] == "0" { start += 1 }   // an empty span names the line before
        guard start - 1 >= cursor else { return nil }
        result.append(contentsOf: oldLines[cursor..<(start - 1)])
        cursor = start - 1
        i += 1
        while i < lines.count && !lines[i].hasPrefix("@@") {
            var line = lines[i]
            if i + 1 < lines.count && lines[i + 1].hasPrefix("\\ No newline") {
                line = String(String.UnicodeScalarView(line.unicodeScalars.dropLast()))  // no newline of its own
                i += 1
            }
            switch line.first {
            case " ":
                guard cursor < oldLines.count, oldLines[cursor] == strip(line) else { return nil }
                result.append(oldLines[cursor]); cursor += 1
            case "-":
                guard cursor < oldLines.count, oldLines[cursor] == strip(line) else { return nil }
                cursor += 1
            case "+": result.append(strip(line))
            default: return nil
            }
            i += 1
        }
    }
    result.append(contentsOf: oldLines[cursor...])
    oldLines.removeAll()
    return result.joined()
}

func splitKeepingNewlines(_ text: String) -> [String] {
    var out: [String] = []
    var current = ""
    for scalar in text.unicodeScalars {
        current.unicodeScalars.append(scalar)
        if scalar == "\n" { out.append(current); current = "" }
    }
    if !current.isEmpty { out.append(current) }
    return out
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E3779B97F4A7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}
