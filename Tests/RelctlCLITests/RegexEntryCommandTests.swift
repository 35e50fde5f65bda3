import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// A `regex` entry with a catastrophic pattern fails with the line of its pattern, and writes nothing.
@Suite("regex entries through the command line")
struct RegexEntryCommandTests {
    @Test func aNestedRepetitionIsRefusedAtConfigLoad() throws {
        let repo = try releaseRepository(["feat: a"])
        try repo.write("version.txt", "v=1.2.3\n")
        try repo.write(".relctl.json", "{\n  \"files\": [\n    {\"path\": \"version.txt\", \"format\": \"regex\",\n     \"pattern\": \"^v=(?<version>([0-9.]+)+)$\"}\n  ]\n}\n")
        let before = try repo.snapshot()
        let result = relctl(["sync", "1.3.0"], in: repo.path)
        #expect(result.code == 1)
        #expect(result.stderr == "error: .relctl.json:4: 'files': regex pattern repeats a group that holds only a repetition, ([0-9.]+)+: matching it can take time exponential in the line's length (drop the outer repetition: the repeated item alone matches the same text)\n")
        #expect(try repo.snapshot() == before)
    }

    @Test func anOverlappingAlternationIsStoppedByTheBudget() throws {
        let repo = try releaseRepository(["feat: a"])
        try repo.write("version.txt", "v=1.2.3" + String(repeating: "a", count: 60) + "!\n")
        try repo.write(".relctl.json", "{\n  \"files\": [\n    {\"path\": \"version.txt\", \"format\": \"regex\",\n     \"pattern\": \"^v=(?<version>[0-9.]+)(a|aa)+$\"}\n  ]\n}\n")
        let before = try repo.snapshot()
        for arguments in [["sync", "1.3.0"], ["current"], ["release", "--dry-run"]] {
            let result = relctl(arguments, in: repo.path)
            #expect(result.code == 1, "\(arguments)")
            #expect(result.stderr.contains("error: .relctl.json:4: regex pattern ^v=(?<version>[0-9.]+)(a|aa)+$ ran over its step budget on version.txt"), "\(arguments): \(result.stderr)")
        }
        #expect(try repo.snapshot() == before)
    }
}
