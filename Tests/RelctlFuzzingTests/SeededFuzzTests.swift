import Foundation
import Testing
@testable import RelctlFuzzing

/// The short fuzzing pass of every test run: each harness over its committed seeds, a few thousand seeded mutations
/// of them (the same inputs every run), and every input that once broke a harness.
@Suite("Fuzzing: seeded pass")
struct SeededFuzzTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test(arguments: FuzzTarget.allCases)
    func everyTargetHasSeeds(target: FuzzTarget) {
        #expect(FuzzCorpus.seeds(target, root: Self.root).count >= 2, "Fuzz/corpus/\(target.rawValue)")
    }

    @Test(arguments: FuzzTarget.allCases)
    func seededMutationsBreakNothing(target: FuzzTarget) {
        let driver = MutationDriver(target: target, seeds: FuzzCorpus.seeds(target, root: Self.root), seed: 20_261_130)
        #expect(driver.run(iterations: 5_000) == 5_000)
    }

    @Test(arguments: FuzzTarget.allCases)
    func regressionsBreakNothing(target: FuzzTarget) {
        for input in FuzzCorpus.regressions(target, root: Self.root) {
            FuzzHarness.run(target, input.bytes)
        }
    }

    @Test func inputsAreTheSameEveryRunAndDifferBySeed() {
        let seeds = FuzzCorpus.seeds(.config, root: Self.root)
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
        for seed in FuzzCorpus.inputs(in: Self.root + "/Fuzz/corpus/editors") {
            let format = FileFormatProbe.format(of: seed.bytes)
            #expect(FileFormatProbe.reads(seed.bytes), "\(seed.name) (\(format)) does not parse")
        }
    }
}
