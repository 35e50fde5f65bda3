import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// Commit messages, config keys and file contents holding terminal escape sequences (`ESC ] 0;… BEL` sets the window
/// title, U+009B is a C1 CSI): every human output shows them escaped, `--json` as `\u001b`/`\u009b`, files keep the bytes.
@Suite("Control characters from the repository")
struct ControlCharacterOutputTests {
    static let title = "\u{1B}]0;pwned\u{07}"
    static let csi = "\u{9B}2J"
    static let subject = "feat: dark mode \(title) and \(csi)"
    static let message = subject + "\n\nBody with \(title) and \(csi) too.\n\nBREAKING CHANGE: \(csi)the token \(title) moved"

    /// A control character a terminal acts on: C0 but line feed and tab (and a CR before a line feed), DEL, C1.
    static func rawControls(_ text: String) -> [UInt32] {
        let scalars = Array(text.unicodeScalars)
        return scalars.indices.filter { i in
            let s = scalars[i]
            if s == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n" { return false }
            return s.value != 0x0A && s.value != 0x09 && (s.value < 0x20 || (0x7F...0x9F).contains(s.value))
        }.map { scalars[$0].value }
    }

    static func expectClean(_ result: CLIResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(rawControls(result.stdout).isEmpty, "stdout of \(what): \(result.stdout.debugDescription)", sourceLocation: sourceLocation)
        #expect(rawControls(result.stderr).isEmpty, "stderr of \(what): \(result.stderr.debugDescription)", sourceLocation: sourceLocation)
    }

    static let escapedTitle = #"\033]0;pwned\007"#
    static let escapedCSI = #"\302\2332J"#

    @Test func humanOutputsShowThemEscaped() throws {
        let repo = try releaseRepository([Self.message, "fix: \(Self.csi) crash"])
        for arguments in [["next"], ["changelog"], ["changelog", "--unreleased"], ["release", "--dry-run", "--confirm-major"],
                          ["status"], ["lint", "--range", "v1.2.3..HEAD"]] {
            let result = relctl(arguments, in: repo.path)
            Self.expectClean(result, arguments.joined(separator: " "))
        }
        // The whole output, with every sequence shown as octal escapes (\\033]0;pwned\\007, \\302\\2332J).
        expectGoldenRun(repo, ["changelog"], "control-characters/changelog.txt")
        expectGoldenRun(repo, ["release", "--dry-run", "--confirm-major"], "control-characters/release-dry-run.txt")
    }

    @Test func githubAnnotationsAreEscaped() throws {
        let repo = try TestRepository.released("1.2.3", then: ["feat dark mode \(Self.title)"])
        let (result, transcript) = goldenRun(repo, ["lint", "--range", "v1.2.3..HEAD"], environment: ["GITHUB_ACTIONS": "true"])
        Self.expectClean(result, "lint under GitHub Actions")
        Golden.expect(transcript, matches: "control-characters/lint-github-annotation.txt")
    }

    @Test func jsonStringsEscapeC0AndC1() throws {
        let repo = try releaseRepository([Self.message])
        for arguments in [["next", "--json"], ["changelog", "--json"], ["release", "--dry-run", "--json", "--confirm-major"],
                          ["lint", "--range", "v1.2.3..HEAD", "--json"]] {
            let (result, transcript) = goldenRun(repo, arguments)
            Self.expectClean(result, arguments.joined(separator: " "))
            // The sequences as \u001b]0;pwned\u0007 and \u009b2J in the whole document.
            Golden.expect(transcript, matches: "control-characters/\(arguments[0])-json.txt")
            // Still JSON, and the strings read back to the commit's text.
            let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
            #expect("\(parsed)".isEmpty == false)
        }
        let next = relctl(["next", "--json"], in: repo.path)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [String: Any])
        let commits = try #require(object["commits"] as? [[String: Any]])
        #expect(commits.first?["description"] as? String == "dark mode \(Self.title) and \(Self.csi)")
    }

    @Test func errorMessagesEscapeConfigKeysAndValues() throws {
        let repo = try TestRepository.released("1.2.3", then: ["feat: a"])
        try repo.write(".relctl.json", "{\n  \"tag\\u001b]0;pwned\\u0007Format\": \"v{version}\"\n}\n")
        let (unknownKey, unknownKeyTranscript) = goldenRun(repo, ["next"])
        #expect(unknownKey.code == 1)
        Self.expectClean(unknownKey, "an unknown key")
        Golden.expect(unknownKeyTranscript, matches: "control-characters/unknown-key.txt")

        try repo.write(".relctl.json", "{\"files\": [{\"path\": \"app.json\", \"format\": \"expo\"}]}\n")
        try repo.write("app.json", "{\"expo\": {\"version\": \"1.2.\(Self.csi)\"}}\n")
        for arguments in [["current"], ["sync", "1.3.0", "--dry-run"]] {
            let (badVersion, transcript) = goldenRun(repo, arguments)
            Self.expectClean(badVersion, "\(arguments) on a version with a CSI")
            Golden.expect(transcript, matches: "control-characters/version-with-a-csi-\(arguments[0]).txt")
        }
    }

    @Test func theChangelogFileKeepsTheBytesTheTerminalDoesNot() throws {
        let repo = try releaseRepository(["feat: dark mode \(Self.title)"])
        let result = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(result.code == 0, "\(result.stderr)")
        Self.expectClean(result, "release")
        // The whole file, the title's bytes (ESC ] 0;pwned BEL) as they were in the commit.
        Golden.expect(try repo.read("CHANGELOG.md"), matches: "control-characters/CHANGELOG.md")
    }

    @Test func colouredOutputKeepsItsOwnColoursAndEscapesTheRest() throws {
        let repo = try TestRepository.released("1.2.3", then: ["feat dark mode \(Self.title)"])
        let capture = Capture()
        let output = Output(stdout: { capture.out += $0 }, stderr: { capture.err += $0 }, colorErr: true)
        _ = RelctlCLI.run(["lint", "--range", "v1.2.3..HEAD"], environment: [:], output: output, currentDirectory: repo.path)
        // The plain output, each "error:" in red: the title stays escaped.
        let plain = relctl(["lint", "--range", "v1.2.3..HEAD"], in: repo.path, environment: [:])
        #expect(capture.err == plain.stderr.replacingOccurrences(of: "error:", with: "\u{1B}[31merror:\u{1B}[0m"), "\(capture.err.debugDescription)")
        expectTranscript(["lint", "--range", "v1.2.3..HEAD"], plain, matches: "control-characters/lint.txt", repo: repo)
        #expect(!capture.err.contains("\u{1B}]"))
    }
}
