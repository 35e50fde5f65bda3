import Foundation
import Testing
import RelctlTestSupport
import VersionGate

/// The gate's ladder against the seed's own code: the seed's TypeScript `compareVersions` and three-bucket ladder
/// (`Golden/Inputs/gate/seed-ladder.js`, run by node as written) and VersionGate's `GateLadder` (and, on a share of
/// the cases, `relctl gate evaluate --json` on a real document) must give the same verdict for the same installed
/// version and document values, on generated values a person might type into the Remote Config console.
@Suite("The gate ladder against the seed's reference code")
struct GateSeedDifferentialTests {
    struct Case: Codable, CustomStringConvertible {
        let installed: String
        let min: String
        let latest: String
        var description: String { "installed \(String(reflecting: installed)), min \(String(reflecting: min)), latest \(String(reflecting: latest))" }
    }

    /// A small deterministic generator (SplitMix64), so a failure names a case that comes back on every run.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

        /// One dot-separated part as a person types it.
        mutating func number() -> String {
            switch below(12) {
            case 0: return String(repeating: "0", count: 1 + below(3)) + String(below(40))       // leading zeros
            case 1: return pick(["9007199254740992", "9007199254740993", "18446744073709551615", "18446744073709551616"])
            case 2: return String(1 + below(9)) + String((0..<(18 + below(8))).map { _ in Character(String(below(10))) })
            case 3: return ""
            case 4: return pick(["x", "beta", "rc1", "*"])
            default: return String(below(25))
            }
        }

        /// A document value or an installed version: 1 to 4 parts and the decorations people add.
        mutating func version() -> String {
            var parts = (0..<(1 + below(4))).map { _ in number() }
            if chance(8) { parts[below(parts.count)] = pick([" ", "  ", "\t", "\u{A0}", "\u{3000}", "\n"]) + parts[below(parts.count)] }
            if chance(5) { parts[below(parts.count)] = pick(["-", "+"]) + parts[below(parts.count)] }
            if chance(4) { parts[below(parts.count)] += pick([" ", "a", "\u{A0}1"]) }
            var text = parts.joined(separator: ".")
            if chance(10) { text = pick(["v", "V", "version "]) + text }
            if chance(15) { text += pick(["-beta.1", "-rc.2", "-alpha", "rc2", " (283)", "+45", "+build.7", "-SNAPSHOT", ".0"]) }
            if chance(10) { text = pick([" ", "\t"]) + text + pick(["", " ", "\n"]) }
            return text
        }

        /// What an app reports as its own version: mostly plain, sometimes a prerelease or a build.
        mutating func installed() -> String {
            let plain = (0..<(2 + below(2))).map { _ in String(below(12)) }.joined(separator: ".")
            switch below(10) {
            case 0, 1: return plain + pick(["-beta.1", "-rc.2", "-alpha", "-canary.17", "-SNAPSHOT"])
            case 2: return plain + pick(["+283", " (283)", "+build.7"])
            case 3: return version()
            default: return plain
            }
        }
    }

    static func cases(_ count: Int, seed: UInt64) -> [Case] {
        var generator = Generator(state: seed)
        return (0..<count).map { _ in
            // Near values often, so the comparisons are close calls rather than obvious ones.
            let installed = generator.installed()
            let min = generator.chance(30) ? installed : generator.version()
            let latest = generator.chance(20) ? min : generator.version()
            return Case(installed: installed, min: min, latest: latest)
        }
    }

    /// The seed's verdicts, named as VersionGate names them.
    static func seedVerdicts(_ cases: [Case]) throws -> [String] {
        let script = GateApp.inputs.appendingPathComponent("seed-ladder.js").path
        let input = String(decoding: try JSONEncoder().encode(cases), as: UTF8.self)
        let run = try runProcess("/usr/bin/env", ["node", script], input: input)
        try #require(run.status == 0, "node (Debian's nodejs) runs the seed's code: \(run.stderr)")
        let verdicts = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String])
        try #require(verdicts.count == cases.count)
        return verdicts.map { ["blocked": "blocked", "update_available": "updateAvailable", "ok": "ok"][$0] ?? $0 }
    }

    @Test func theLibraryGivesTheSeedsVerdictOnTwoThousandGeneratedCases() throws {
        let cases = Self.cases(2_000, seed: 0x5EED_2026)
        let seed = try Self.seedVerdicts(cases)
        var disagreements: [String] = []
        for (index, item) in cases.enumerated() {
            let config = GateConfig(minimumSupportedVersion: GateVersion(item.min), latestVersion: GateVersion(item.latest))
            let verdict = GateLadder.evaluate(installed: GateVersion(item.installed), config: config).status.rawValue
            if verdict != seed[index] { disagreements.append("\(item): seed \(seed[index]), VersionGate \(verdict)") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(cases.count):\n\(disagreements.prefix(20).joined(separator: "\n"))")
        // The cases reach every bucket, so agreement is not agreement on one answer.
        for status in ["blocked", "updateAvailable", "ok"] { #expect(seed.filter { $0 == status }.count > 100, "\(status)") }
    }

    /// The same through the command a release engineer runs: the values written into a real document, the
    /// installed version on the command line as the app reports it (a prerelease suffix included: never a usage
    /// error when it has a number).
    @Test func gateEvaluateGivesTheSeedsVerdictOnADocumentWithTypedValues() throws {
        let cases = Self.cases(150, seed: 0x0C0F_FEE5)
        let seed = try Self.seedVerdicts(cases)
        let repo = try GateApp.plain()
        var disagreements: [String] = []
        for (index, item) in cases.enumerated() {
            let document = try JSONSerialization.data(withJSONObject: ["minimumSupportedVersion": item.min, "latestVersion": item.latest])
            try repo.write(GateApp.plainPath, String(decoding: document, as: UTF8.self))
            let result = relctl(["gate", "evaluate", "--json", "--", item.installed], in: repo.path)
            let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let verdict = object?["status"] as? String ?? "exit \(result.code): \(result.stderr)"
            if verdict != seed[index] { disagreements.append("\(item): seed \(seed[index]), relctl \(verdict)") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(cases.count):\n\(disagreements.prefix(20).joined(separator: "\n"))")
    }
}
