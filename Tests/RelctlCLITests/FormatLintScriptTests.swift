import Foundation
import Testing
import RelctlTestSupport

// scripts/format-lint, the ratchet `make format-lint` runs: on a small copy of the layout (the script, the house
// .swift-format, Sources/Tests/Package.swift), a recorded baseline passes, a new finding fails naming its line, and
// fixing the line as the message says passes again.

@Suite("make format-lint's ratchet")
struct FormatLintScriptTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    func run(_ folder: String, _ arguments: [String] = []) throws -> ProcessResult {
        try runProcess("/bin/sh", [folder + "/scripts/format-lint"] + arguments, in: folder)
    }

    @Test func aNewFindingFailsAndItsFixPasses() throws {
        let folder = try makeTempDirectory(prefix: "relctl-format-lint")
        for sub in ["scripts", "Sources/App", "Tests", ".ci"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(atPath: Self.root + "/scripts/format-lint", toPath: folder + "/scripts/format-lint")
        try FileManager.default.copyItem(atPath: Self.root + "/.swift-format", toPath: folder + "/.swift-format")
        try "// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(name: \"App\")\n"
            .write(toFile: folder + "/Package.swift", atomically: true, encoding: .utf8)
        let clean = "/// The answer.\npublic let answer = 42\n"
        try clean.write(toFile: folder + "/Sources/App/App.swift", atomically: true, encoding: .utf8)
        let recorded = try run(folder, ["--record"])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(try run(folder).stdout == "format-lint: 0 findings, as the baseline allows\n")

        try (clean + "let  question=\"?\"\n").write(toFile: folder + "/Sources/App/App.swift", atomically: true, encoding: .utf8)
        let failed = try run(folder)
        #expect(failed.status == 1)
        let lines = failed.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "format-lint: Sources/App/App.swift: 3 findings, baseline 0", "\(failed.stderr)")
        #expect(lines.dropFirst().first?.hasPrefix("Sources/App/App.swift:3:") == true, "\(failed.stderr)")
        let advice =
            "format-lint: the files above have more formatter findings than .ci/format-lint-baseline allows; "
            + "fix the lines listed above that you wrote (swift format lint <file> lists them again), then rerun make format-lint"
        #expect(lines.last == advice)

        // Following the advice: the line fixed, the check passes.
        try (clean + "let question = \"?\"\n").write(toFile: folder + "/Sources/App/App.swift", atomically: true, encoding: .utf8)
        let fixed = try run(folder)
        #expect(fixed.status == 0, "\(fixed.stderr)")
    }
}
