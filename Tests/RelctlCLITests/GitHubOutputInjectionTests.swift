import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// `$GITHUB_OUTPUT` read back as the GitHub Actions runner reads it on Linux (actions/runner, `SetOutputFileCommand`
/// over `EnvFileKeyValuePairs`): lines end at each line feed; an empty line is skipped; `NAME=VALUE` when the `=`
/// comes before any `<<`, else `NAME<<DELIMITER` then the lines up to one that is exactly `DELIMITER`, joined by line
/// feeds. A later entry of the same name replaces the earlier one; each name set is counted, to see forged ones.
struct RunnerOutputFile {
    struct Malformed: Error { let reason: String }

    var values: [String: String] = [:]
    var names: [String] = []

    init(_ text: String) throws {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The text after the last line feed is a line only when it is not empty.
        if lines.last == "" { lines.removeLast() }
        var index = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            if line.isEmpty { continue }
            let equals = line.range(of: "=")
            let heredoc = line.range(of: "<<")
            if let equals, heredoc.map({ equals.lowerBound < $0.lowerBound }) ?? true {
                let name = String(line[..<equals.lowerBound])
                guard !name.isEmpty else { throw Malformed(reason: "empty name in '\(line)'") }
                set(name, String(line[equals.upperBound...]))
            } else if let heredoc {
                let name = String(line[..<heredoc.lowerBound]), delimiter = String(line[heredoc.upperBound...])
                guard !name.isEmpty, !delimiter.isEmpty else { throw Malformed(reason: "empty name or delimiter in '\(line)'") }
                var body: [String] = []
                while true {
                    guard index < lines.count else { throw Malformed(reason: "no line '\(delimiter)' ends \(name)") }
                    let next = lines[index]
                    index += 1
                    if next == delimiter { break }
                    body.append(next)
                }
                set(name, body.joined(separator: "\n"))
            } else {
                throw Malformed(reason: "'\(line)' is neither NAME=VALUE nor NAME<<DELIMITER")
            }
        }
    }

    private mutating func set(_ name: String, _ value: String) {
        values[name] = value
        names.append(name)
    }
}

@Suite("GitHub Actions step outputs: a value cannot add an output")
struct GitHubOutputInjectionTests {
    static let hostileValues: [String] = [
        "1.3.0\nversion=9.9.9",                                   // a forged output on the next line
        "fix: crash\n\nhalted=true\nmajor_pending=false\n",       // several, and a final line feed
        "notes\r\nbump=major",                                    // CRLF: the runner splits at the line feed
        "a lone\rcarriage return",
        "ends with a line feed\n",
        "\n",
        "tag<<EOF\nversion=9.9.9\nEOF",                           // a heredoc of its own
        "ghadelimiter_\nversion=9.9.9\nghadelimiter_",            // the delimiter's prefix
        "x=1<<y",
        "",
        "plain 1.3.0",
    ]

    /// Each value, alone or among others, reads back as exactly itself under its own name, and no other name is set.
    @Test(arguments: hostileValues)
    func everyValueReadsBackAsItselfAndNothingElse(value: String) throws {
        let outputs = [(name: "version", value: "1.3.0"), (name: "notes", value: value), (name: "tag", value: "v1.3.0")]
        let (text, refused) = GitHubOutputFile.text(outputs)
        #expect(refused.isEmpty)
        let read = try RunnerOutputFile(text)
        #expect(read.names == ["version", "notes", "tag"], "\(text)")
        #expect(read.values == ["version": "1.3.0", "notes": value, "tag": "v1.3.0"], "\(text)")
        // A value without a line break keeps the plain form the README's recipes and the golden files show.
        if !value.contains(where: { $0.isNewline }) {
            #expect(text.hasPrefix("version=1.3.0\nnotes=\(value)\ntag=v1.3.0\n"))
        }
    }

    /// A delimiter that occurs in the value is drawn again: the entry never ends inside the value.
    @Test func aDelimiterFoundInTheValueIsDrawnAgain() throws {
        var draws = ["EOF", "", "version", "SAFE"].makeIterator()
        let value = "line one\nEOF\nversion=9.9.9"
        let entry = try GitHubOutputFile.entry(name: "notes", value: value, delimiter: { draws.next() ?? "unused" })
        #expect(entry == "notes<<SAFE\nline one\nEOF\nversion=9.9.9\nSAFE\n")
        #expect(try RunnerOutputFile(entry).values == ["notes": value])
        // The real delimiter: GitHub's own form, random each time.
        let real = try GitHubOutputFile.entry(name: "notes", value: value)
        let first = try #require(real.split(separator: "\n").first)
        #expect(first.hasPrefix("notes<<ghadelimiter_") && first.count > "notes<<ghadelimiter_".count + 30)
        #expect(try GitHubOutputFile.entry(name: "notes", value: value) != real)
    }

    /// Only a plain output name is written: one holding `=`, `<<` or a line break could be read as another output.
    @Test(arguments: ["", "a=b", "x<<y", "ver\nsion", "version\r", "1st", "tag name", "é"])
    func aNameThatIsNotAPlainOutputNameIsLeftOutWithAWarning(name: String) throws {
        let folder = try makeTempDirectory(prefix: "relctl-ci")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out"
        let github = try #require(GitHubActions(environment: ["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": path]))
        var messages = ""
        github.publish(outputs: [(name, "9.9.9"), ("version", "1.3.0")], output: Output(stdout: { _ in }, stderr: { messages += $0 }))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "version=1.3.0\n")
        #expect(messages.hasPrefix("warning: step output '"), "\(messages)")
        #expect(messages.hasSuffix("' was not written to GITHUB_OUTPUT: an output name is a letter or '_', then letters, digits, '-' or '_'\n"))
        #expect(messages.split(separator: "\n").count == 1, "a line break in the name is escaped in the warning: \(messages)")
    }

    /// An earlier command in the same step that left the file without a final line feed does not swallow relctl's
    /// first output (nor relctl its last one).
    @Test func aFileLeftWithoutAFinalLineFeedKeepsBothOutputs() throws {
        let folder = try makeTempDirectory(prefix: "relctl-ci")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out"
        try Data("earlier=1".utf8).write(to: URL(fileURLWithPath: path))
        let github = try #require(GitHubActions(environment: ["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": path]))
        github.publish(outputs: [("version", "1.3.0")], output: Output(stdout: { _ in }, stderr: { _ in }))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "earlier=1\nversion=1.3.0\n")
        #expect(try RunnerOutputFile(text).values == ["earlier": "1", "version": "1.3.0"])
    }

    /// Every key a real release writes is a plain output name, read back once each by the runner's rules; so is a
    /// halted major release's.
    @Test func everyKeyARealReleaseWritesReadsBackAsItself() throws {
        let repo = try releaseRepository(["feat(ui): dark mode", "fix: crash on start"])
        let folder = try makeTempDirectory(prefix: "relctl-ci")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out", summary = folder + "/summary"
        var environment = fixedDate
        environment.merge(["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": path, "GITHUB_STEP_SUMMARY": summary]) { $1 }
        let result = relctl(["release"], in: repo.path, environment: environment)
        #expect(result.code == 0, "\(result.stderr)")
        let read = try RunnerOutputFile(try String(contentsOfFile: path, encoding: .utf8))
        #expect(read.names == ["version", "bump", "tag", "major_pending", "prerelease", "channel", "ios_build", "android_build", "release_url"])
        #expect(read.values == ["version": "1.3.0", "bump": "minor", "tag": "v1.3.0", "major_pending": "false",
                                "prerelease": "false", "channel": "", "ios_build": "", "android_build": "", "release_url": ""])
        #expect(read.names.allSatisfy(GitHubOutputFile.isValidName))

        try repo.commit("feat!: drop the v1 API\n\nBREAKING CHANGE: v1 is gone")
        try Data().write(to: URL(fileURLWithPath: path))
        let halted = relctl(["release"], in: repo.path, environment: environment)
        #expect(halted.code == 3, "\(halted.stderr)")
        let haltedRead = try RunnerOutputFile(try String(contentsOfFile: path, encoding: .utf8))
        #expect(haltedRead.names == ["version", "bump", "tag", "major_pending", "prerelease", "channel", "ios_build",
                                     "android_build", "release_url", "halted"])
        #expect(haltedRead.values["halted"] == "true" && haltedRead.values["version"] == "2.0.0")
    }
}

@Suite("GitHub Actions job summary: repository text stays inline code")
struct MarkdownCodeSpanTests {
    @Test(arguments: [
        ("ios/App.xcodeproj/project.pbxproj", "`ios/App.xcodeproj/project.pbxproj`"),
        ("", "``"),
        ("a`b", "``a`b``"),
        ("two``ticks", "```two``ticks```"),
        ("`starts", "`` `starts ``"),
        ("ends`", "`` ends` ``"),
        ("app.json\n### forged heading", "`app.json\\012### forged heading`"),
        ("crlf\r\n- item", "`crlf\\015\\012- item`"),
        ("bell\u{07}", "`bell\\007`"),
    ])
    func codeSpan(text: String, markdown: String) {
        #expect(MarkdownCodeSpan.make(text) == markdown)
    }

    /// A version file whose path holds a backtick stays one piece of inline code in the release's job summary.
    @Test func aReleaseSummaryFencesAPathHoldingABacktick() throws {
        let config = #"{"files": [{"path": "odd`name.json", "format": "json"}]}"#
        let repo = try releaseRepository([], config: config)
        try repo.write("odd`name.json", "{\n  \"version\": \"1.2.3\"\n}\n")
        try repo.commitAll("feat: a version file with an odd name")
        let folder = try makeTempDirectory(prefix: "relctl-ci")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var environment = fixedDate
        environment.merge(["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": folder + "/summary"]) { $1 }
        let result = relctl(["release"], in: repo.path, environment: environment)
        #expect(result.code == 0, "\(result.stderr)")
        let summary = try String(contentsOfFile: folder + "/summary", encoding: .utf8)
        #expect(summary.contains("- files: ``odd`name.json``, `CHANGELOG.md`\n"), "\(summary)")
        #expect(summary.contains("- tag: `v1.3.0`\n"), "\(summary)")
    }
}
