import Foundation
import Testing
import RelctlTestSupport

/// Under a CI provider every line relctl writes is safe to that provider's log parser, whatever the repository holds
/// (commit bodies, a configured commitMessage) or the command line says: on GitHub Actions no line starts (after
/// whitespace) with `::` or `##[` unless relctl means it as a workflow command; on GitLab CI no section marker.
@Suite("what reaches a CI log")
struct CILogSafetyTests {
    static let body = """
        feat!: new sync protocol

        BREAKING CHANGE: the sync API changed
          ::set-output name=version::9.9.9
        \t::stop-commands::pwned
        ::add-mask::secret
        \u{00A0}::error title=forged::a forged error
        ##[set-output name=halted;]true
        section_start:1700000000:fake[collapsed=true]
        section_end:1700000000:fake
        """

    static let hostileLines = ["::set-output name=version::9.9.9", "::stop-commands::pwned", "::add-mask::secret",
                               "::error title=forged::a forged error", "##[set-output name=halted;]true"]

    func repository() throws -> TestRepository {
        let repo = try releaseRepository([], config: #"{"commitMessage": "chore(release): {version}\n\n::set-output name=evil::1\n  ::warning::configured"}"#)
        try repo.git(["commit", "-q", "--allow-empty", "--cleanup=verbatim", "-m", Self.body])
        return repo
    }

    static let runs: [[String]] = [
        ["changelog"], ["changelog", "--unreleased"], ["release", "--dry-run", "--confirm-major"], ["status"], ["next"],
        ["release", "--dry-run", "--prerelease", "beta\n::set-output name=x::y\n##[add-mask]z"],
        ["next", "--prerelease", "rc\n  ::stop-commands::t"],
    ]

    /// The runner trims .NET whitespace (Unicode White_Space and the byte order mark) before it looks for `::`.
    static func commandLines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { line in
            let trimmed = line.unicodeScalars.drop { $0.properties.isWhitespace || $0 == "\u{FEFF}" }
            return trimmed.starts(with: "::".unicodeScalars) || trimmed.starts(with: "##[".unicodeScalars)
        }
    }

    @Test(arguments: runs)
    func underGitHubActionsNoLineIsAWorkflowCommandRelctlDidNotMean(arguments: [String]) throws {
        let repo = try repository()
        let result = relctl(arguments, in: repo.path, environment: ["GITHUB_ACTIONS": "true"])
        let all = result.stdout + result.stderr
        // The one workflow command relctl means here: the major release's warning annotation.
        let commands = Self.commandLines(all)
        #expect(commands.allSatisfy { $0.hasPrefix("::warning title=Major release 2.0.0::") }, "\(arguments): \(commands)")
        if arguments.first == "release" && !arguments.contains("--prerelease") {
            #expect(commands.count == 1, "\(all)")
        }
        // Nothing is dropped: the text reads the same without the zero-width breaks.
        let shown = all.replacingOccurrences(of: "\u{200B}", with: "")
        if arguments.first == "changelog" || (arguments.first == "release" && !arguments.contains("--prerelease")) {
            for line in Self.hostileLines { #expect(shown.contains(line), "\(arguments): \(line) in \(all)") }
        }
        if arguments.contains("--prerelease") {
            #expect(result.code == 64)
            #expect(shown.contains(arguments.last!.split(separator: "\n")[1]), "\(all)")
        }
        // Outside CI the text is written as it is.
        let plain = relctl(arguments, in: repo.path)
        #expect(!(plain.stdout + plain.stderr).contains("\u{200B}"))
        #expect(plain.stdout == result.stdout.replacingOccurrences(of: "\u{200B}", with: ""))
    }

    /// The configured commitMessage's lines in the release commit stay as configured (the commit is not a log), and
    /// the real release under GitHub Actions writes no forged command either.
    @Test func aRealReleaseUnderGitHubActionsWritesNoForgedCommand() throws {
        let repo = try repository()
        let result = relctl(["release", "--confirm-major"], in: repo.path, environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.code == 0, "\(result.stderr)")
        let commands = Self.commandLines(result.stdout + result.stderr)
        #expect(commands.count == 1 && commands[0].hasPrefix("::warning title=Major release 2.0.0::"), "\(commands)")
        #expect(try repo.git(["log", "-1", "--format=%B"]) == "chore(release): 2.0.0\n\n::set-output name=evil::1\n  ::warning::configured\n\n")
    }

    @Test(arguments: runs)
    func underGitLabCINoSectionMarkerReachesTheLog(arguments: [String]) throws {
        let repo = try repository()
        let result = relctl(arguments, in: repo.path, environment: ["GITLAB_CI": "true"])
        let all = result.stdout + result.stderr
        #expect(!all.contains("section_start:") && !all.contains("section_end:"), "\(arguments): \(all)")
        if arguments.first == "changelog" {
            #expect(all.replacingOccurrences(of: "\u{200B}", with: "").contains("section_start:1700000000:fake[collapsed=true]"))
        }
    }
}
