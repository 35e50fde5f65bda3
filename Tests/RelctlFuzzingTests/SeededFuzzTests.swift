import Foundation
import Synchronization
import RelctlCore
import Testing
@testable import RelctlFuzzing

/// The short fuzzing pass of every test run: each harness over its committed seeds, a few thousand seeded mutations
/// of them (the same inputs every run), and every input that once broke a harness.
@Suite("Fuzzing: seeded pass")
struct SeededFuzzTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// Targets no input ever broke: no `Fuzz/regressions/<target>/` folder, and their regression test is skipped by
    /// name here. The first input that breaks one goes into that folder, and the target leaves this list.
    static let withoutRegressions: Set<FuzzTarget> = [.conventionalCommit, .semver, .editors, .config]

    /// Runs `body` with every broken property collected (the result) instead of stopping the process.
    static func brokenProperties(_ body: () throws -> Void) rethrows -> [String] {
        let broken = Mutex<[String]>([])
        try FuzzHarness.reportingBrokenProperties(to: { message in
            broken.withLock { $0.append(message) }
        }, body)
        return broken.withLock { $0 }
    }

    @Test(arguments: FuzzTarget.allCases)
    func everyTargetHasSeeds(target: FuzzTarget) throws {
        #expect(try FuzzCorpus.seeds(target, root: Self.root).count >= 2, "Fuzz/corpus/\(target.rawValue)")
    }

    @Test(arguments: FuzzTarget.allCases)
    func seededMutationsBreakNothing(target: FuzzTarget) throws {
        let driver = MutationDriver(target: target, seeds: try FuzzCorpus.seeds(target, root: Self.root), seed: 20_261_130)
        let broken = Self.brokenProperties { driver.run(iterations: 5_000) }
        #expect(broken == [], "\(target.rawValue): \(broken.count) broken properties")
    }

    @Test(arguments: FuzzTarget.allCases.filter { !withoutRegressions.contains($0) })
    func regressionsBreakNothing(target: FuzzTarget) throws {
        let inputs = try FuzzCorpus.regressions(target, root: Self.root)
        #expect(!inputs.isEmpty, "Fuzz/regressions/\(target.rawValue) is empty")
        for input in inputs {
            let broken = Self.brokenProperties { FuzzHarness.run(target, input.bytes) }
            #expect(broken == [], "Fuzz/regressions/\(target.rawValue)/\(input.name)")
        }
    }

    /// The skip list is the truth: a target listed there has no regression folder (else its inputs would be skipped
    /// silently), and every other target has one.
    @Test(arguments: FuzzTarget.allCases)
    func eachTargetHasRegressionsOrIsSkippedByName(target: FuzzTarget) {
        let exists = FileManager.default.fileExists(atPath: FuzzCorpus.regressionFolder(target, root: Self.root))
        #expect(exists != Self.withoutRegressions.contains(target), "\(target.rawValue)")
    }

    /// The corpus of a wrong root, or a target without a folder, is an error, not an empty list that passes.
    @Test func aMissingFolderIsAnError() {
        #expect(throws: Problem.self) { try FuzzCorpus.seeds(.json, root: Self.root + "/Fuzz/corpus") }
        #expect(throws: Problem.self) { try FuzzCorpus.regressions(.semver, root: Self.root) }
    }

    /// A broken property reaches the test as a failure, with its message (it used to stop the whole test process).
    @Test func aBrokenPropertyIsReported() {
        let broken = Self.brokenProperties { FuzzHarness.check(1 + 1 == 3, "arithmetic") }
        #expect(broken == ["fuzz property broken: arithmetic"])
        #expect(Self.brokenProperties { FuzzHarness.check(true, "holds") } == [])
    }

    @Test func inputsAreTheSameEveryRunAndDifferBySeed() throws {
        let seeds = try FuzzCorpus.seeds(.config, root: Self.root)
        let one = MutationDriver(target: .config, seeds: seeds, seed: 7)
        let again = MutationDriver(target: .config, seeds: seeds, seed: 7)
        let other = MutationDriver(target: .config, seeds: seeds, seed: 8)
        let range = seeds.count..<(seeds.count + 50)
        #expect(range.map(one.input) == range.map(again.input))
        #expect(range.map(one.input) != range.map(other.input))
        // The first inputs are the seeds themselves.
        #expect((0..<seeds.count).map(one.input) == seeds)
    }

    @Test func editorSeedsReachTheirFormat() throws {
        // A seed that no editor can read would fuzz nothing but the error path.
        for seed in try FuzzCorpus.inputs(in: Self.root + "/Fuzz/corpus/editors") {
            let format = FileFormatProbe.format(of: seed.bytes)
            #expect(FileFormatProbe.reads(seed.bytes), "\(seed.name) (\(format)) does not parse")
        }
    }
}
