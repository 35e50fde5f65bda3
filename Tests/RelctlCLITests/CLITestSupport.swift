import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// One in-process run of the command line, with stdout and stderr captured.
struct CLIResult {
    let code: Int32
    let stdout: String
    let stderr: String
}

final class Capture: @unchecked Sendable {
    var out = ""
    var err = ""
}

/// Runs `relctl` in-process in `directory` (the repository unless said otherwise).
func relctl(_ arguments: [String], in directory: String, environment: [String: String] = [:]) -> CLIResult {
    let capture = Capture()
    let output = Output(stdout: { capture.out += $0 }, stderr: { capture.err += $0 })
    var env = ["NO_COLOR": "1"]
    for (k, v) in environment { env[k] = v }
    let code = RelctlCLI.run(arguments, environment: env, output: output, currentDirectory: directory)
    return CLIResult(code: code, stdout: capture.out, stderr: capture.err)
}

extension TestRepository {
    /// A repository with a release `v<version>` and then the given commit messages; its `.relctl.json` (the
    /// defaults, `{}`) is in the first commit.
    static func released(_ version: String, then messages: [String]) throws -> TestRepository {
        let repo = try TestRepository()
        try repo.write(".relctl.json", "{}\n")
        try repo.commit("chore: initial commit")
        try repo.tag("v\(version)")
        for message in messages { try repo.commit(message) }
        return repo
    }
}

/// Compares a run's whole output with the golden file `Golden/<name>` (see GoldenTranscript.swift): the exit
/// status, stdout and stderr, then `sections` (what the run left behind: a file it wrote, a commit it made). The
/// repository's path reads `<repo>`, each of `placeholders` its placeholder. Record again with
/// `RELCTL_RECORD_GOLDEN=1 swift test --filter <suite>` and read the diff.
func expectTranscript(_ arguments: [String], _ result: CLIResult, matches name: String, repo: TestRepository? = nil,
                      placeholders: [(String, String)] = [], sections: [(title: String, text: String)] = [],
                      sourceLocation: SourceLocation = #_sourceLocation) {
    expectTranscript([(arguments, result)], matches: name, repo: repo, placeholders: placeholders, sections: sections,
                     sourceLocation: sourceLocation)
}

/// Several runs, one after the other, in one golden file (then `sections`).
func expectTranscript(_ runs: [([String], CLIResult)], matches name: String, repo: TestRepository? = nil,
                      placeholders: [(String, String)] = [], sections: [(title: String, text: String)] = [],
                      sourceLocation: SourceLocation = #_sourceLocation) {
    var placeholders = placeholders
    if let repo {
        placeholders.append((repo.path, "<repo>"))
        let resolved = URL(fileURLWithPath: repo.path).resolvingSymlinksInPath().path
        if resolved != repo.path { placeholders.append((resolved, "<repo>")) }
    }
    var transcript = runs.map { GoldenTranscript($0.0, $0.1, placeholders: placeholders).rendered }.joined(separator: "\n")
    transcript += goldenSections(sections.map { ($0.title, GoldenTranscript.replacing($0.text, placeholders)) })
    Golden.expect(transcript, matches: name, sourceLocation: sourceLocation)
}

extension CLIResult {
    /// The result of a real `relctl` process, to compare as an in-process run is.
    init(_ process: ProcessResult) {
        self.init(code: process.status, stdout: process.stdout, stderr: process.stderr)
    }
}
