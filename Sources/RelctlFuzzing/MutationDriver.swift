/// A plain seeded mutation fuzzer, for machines without libFuzzer and for the test suite: input `i` of a run is the
/// seed corpus entry and the mutations a generator seeded with (`seed`, `i`) picks, so a run is the same every time
/// and any one input can be made again from its number (`relctl-fuzz <target> --dump N`). No coverage feedback:
/// it explores less than libFuzzer, but it needs nothing and finishes in a bounded number of inputs.
package struct MutationDriver: Sendable {
    package let target: FuzzTarget
    /// The seed corpus (never empty: an empty input is added when none is given).
    package let seeds: [[UInt8]]
    package let seed: UInt64
    /// The longest input made.
    package var maxLength = 16 * 1024

    package init(target: FuzzTarget, seeds: [[UInt8]], seed: UInt64) {
        self.target = target
        self.seeds = seeds.isEmpty ? [[]] : seeds
        self.seed = seed
    }

    /// Input number `iteration` of this run.
    package func input(_ iteration: Int) -> [UInt8] {
        var random = SplitMix64(seed: seed &+ UInt64(truncatingIfNeeded: iteration) &* 0x9E37_79B9_7F4A_7C15)
        // The first inputs are the seeds as they are.
        if iteration < seeds.count { return seeds[iteration] }
        var bytes = seeds[Int(random.next() % UInt64(seeds.count))]
        let tokens = target.tokens.map { Array($0.utf8) }
        for _ in 0..<(1 + Int(random.next() % 8)) {
            mutate(&bytes, tokens: tokens, random: &random)
        }
        if bytes.count > maxLength { bytes.removeLast(bytes.count - maxLength) }
        return bytes
    }

    /// Runs inputs `0..<iterations`, stopping early when `shouldStop` says so; returns how many ran.
    @discardableResult
    package func run(iterations: Int, shouldStop: () -> Bool = { false }) -> Int {
        var count = 0
        while count < iterations {
            if count % 64 == 0 && shouldStop() { break }
            FuzzHarness.run(target, input(count))
            count += 1
        }
        return count
    }

    private func mutate(_ bytes: inout [UInt8], tokens: [[UInt8]], random: inout SplitMix64) {
        func index(_ limit: Int) -> Int { limit <= 0 ? 0 : Int(random.next() % UInt64(limit)) }
        switch random.next() % 9 {
        case 0 where !bytes.isEmpty:
            let i = index(bytes.count)
            bytes[i] ^= UInt8(1 << index(8))
        case 1:
            bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: index(bytes.count + 1))
        case 2 where !bytes.isEmpty:
            let start = index(bytes.count)
            bytes.removeSubrange(start..<min(bytes.count, start + 1 + index(16)))
        case 3 where !bytes.isEmpty:
            let start = index(bytes.count)
            let piece = bytes[start..<min(bytes.count, start + 1 + index(64))]
            bytes.insert(contentsOf: piece, at: index(bytes.count + 1))
        case 4 where !tokens.isEmpty, 5 where !tokens.isEmpty:
            bytes.insert(contentsOf: tokens[index(tokens.count)], at: index(bytes.count + 1))
        case 6 where !bytes.isEmpty:
            let special: [UInt8] = [0x00, 0xFF, 0x7F, 0x0A, 0x0D, 0x22, 0x5C, 0x1B, 0xC2, 0x80, 0xEF]
            bytes[index(bytes.count)] = special[index(special.count)]
        case 7:
            let other = seeds[index(seeds.count)]
            guard !other.isEmpty else { return }
            let start = index(other.count)
            bytes.insert(contentsOf: other[start..<min(other.count, start + 1 + index(256))], at: index(bytes.count + 1))
        case 8 where bytes.count > 1:
            bytes.removeLast(index(bytes.count))
        default:
            bytes.append(UInt8(truncatingIfNeeded: random.next()))
        }
    }
}

/// SplitMix64: small, fast, and the same on every platform, unlike `SystemRandomNumberGenerator`.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
