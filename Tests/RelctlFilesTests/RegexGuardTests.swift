import Foundation
import Testing
import RelctlCore
import RelctlJSON
@testable import RelctlFiles

/// A `regex` entry never runs without end: a redundant nested repetition is refused at config load, and any other
/// pattern that backtracks catastrophically is stopped by the step budget, naming the line of its pattern.
@Suite("regex entries: bounded matching")
struct RegexGuardTests {
    @Test(arguments: [
        ("(a+)+$", "(a+)+"),
        ("^V=(?<version>(?:[0-9.]*)*)$", "(?:[0-9.]*)*"),
        (#"x(\d+){2,}"#, #"(\d+){2,}"#),
        (#"(?<version>([0-9]+?)+)"#, "([0-9]+?)+"),
        (#"(?<version>(\.+)*)"#, #"(\.+)*"#),
    ])
    func nestedRepetitionsAreFound(pattern: String, nested: String) {
        #expect(RegexGuard.nestedRepetition(in: pattern) == nested)
    }

    @Test(arguments: [
        #"VERSION = "(?<version>[0-9.]+)""#,
        #"(?<version>(\d+\.)+\d+)"#,
        #"(?<version>[0-9]+(\.[0-9]+)*)"#,
        #"Version (?<version>[0-9]+\.[0-9]+\.[0-9]+) \((?<build>[0-9]+)\)"#,
        #"(?<version>(a+b)+)"#,
        #"\(a+\)+(?<version>x)"#,
    ])
    func linearPatternsAreAccepted(pattern: String) {
        #expect(RegexGuard.nestedRepetition(in: pattern) == nil)
    }

    @Test func theConfigEntryNamesItsPatternLine() throws {
        let config = "{\n  \"files\": [\n    {\"path\": \"v.txt\", \"format\": \"regex\",\n     \"pattern\": \"^v=(?<version>(a+)+)$\"}\n  ]\n}\n"
        let root = try JSONDocument.parse(config, allowJSON5: false)
        let item = try #require(root.member("files")?.arrayValue?.first)
        #expect(throws: FileEditError.self) { try FileEntry(from: item, configPath: ".relctl.json") }
        do { _ = try FileEntry(from: item, configPath: ".relctl.json") } catch {
            #expect(error.path == ".relctl.json")
            #expect(error.line == 4)
            #expect(error.message == "regex pattern repeats a group that holds only a repetition, (a+)+: matching it can take time exponential in the line's length")
        }
    }

    /// `(a|aa)+` overlaps without nesting: no check at load can see it, the budget stops it.
    @Test func catastrophicBacktrackingStopsWithinTheBudget() throws {
        let editor = RegexEditor(pattern: #"^v=(?<version>[0-9.]+)(a|aa)+$"#, source: DiagnosticLocation(path: ".relctl.json", line: 7))
        let text = "name=x\nv=1.2.3" + String(repeating: "a", count: 60) + "!\n"
        let clock = ContinuousClock()
        let started = clock.now
        #expect(throws: FileEditError.self) { _ = try editor.parse(text, path: "version.txt") }
        do { _ = try editor.parse(text, path: "version.txt") } catch {
            #expect(error.path == ".relctl.json")
            #expect(error.line == 7)
            #expect(error.message.contains("ran over its step budget on version.txt"))
        }
        // Unbounded, 60 characters would take longer than the universe has existed; bounded, it is about a second.
        #expect(clock.now - started < .seconds(60))
    }

    /// The budget grows with the text: a linear pattern over a large file is never stopped.
    @Test func aLinearPatternOverALargeFileIsNotStopped() throws {
        let editor = RegexEditor(pattern: #"^.*VERSION = "(?<version>[0-9.]+)".*$"#)
        let text = String(repeating: "let value = 1.2.3 // some long line of code here\n", count: 40_000) + "VERSION = \"4.5.6\"\n"
        let parsed = try editor.parse(text, path: "big.txt")
        #expect(parsed.locations.map(\.value) == ["4.5.6"])
    }
}
