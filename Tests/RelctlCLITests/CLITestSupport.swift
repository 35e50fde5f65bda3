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
