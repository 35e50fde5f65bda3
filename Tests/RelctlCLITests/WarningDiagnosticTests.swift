import Foundation
import Testing
import RelctlCore
import RelctlTestSupport
@testable import RelctlCLI

/// Warnings are diagnostics: `warning: path:line: message (hint)` on stderr and, under GitHub Actions, the same
/// warning as one annotation the provider makes (`::warning file=…,line=…,title=relctl::…`), from one place
/// (`Output.emit`). Outside CI and under GitLab (no annotation syntax) only the line.
@Suite("Warnings as diagnostics")
struct WarningDiagnosticTests {
    static let github = ["GITHUB_ACTIONS": "true"]

    /// A release with `commit.gpgsign` set: a warning with no file (the dry run goes on).
    func signingRepository() throws -> TestRepository {
        let repo = try releaseRepository(["fix(sync): retry on timeout"])
        try repo.git(["config", "commit.gpgsign", "true"])
        return repo
    }

    @Test func aWarningIsAnAnnotationUnderGitHubActions() throws {
        let repo = try signingRepository()
        let arguments = ["release", "--dry-run"]
        expectTranscript([(arguments, relctl(arguments, in: repo.path, environment: fixedDate)),
                          (arguments, relctl(arguments, in: repo.path, environment: fixedDate.merging(Self.github) { $1 })),
                          (arguments, relctl(arguments, in: repo.path, environment: fixedDate.merging(["GITLAB_CI": "true"]) { $1 }))],
                         matches: "github-actions/warning-annotation.txt", repo: repo)
    }

    /// A warning about a file names it in the annotation (`file=`), relative to the repository.
    @Test func aWarningAboutAFileIsAnnotatedOnTheFile() throws {
        let repo = try releaseRepository(["feat(api)!: v2 tokens only"])
        try repo.write(".major-release-pending", "remember to raise the floor\n")
        let result = relctl(["status"], in: repo.path, environment: Self.github)
        expectTranscript(["status"], result, matches: "github-actions/warning-annotation-on-a-file.txt", repo: repo)
    }

    @Test func theAnnotationEscapesItsFileAndLine() throws {
        let github = try #require(GitHubActions(environment: Self.github))
        let location = DiagnosticLocation(path: "ios/App,1:2%.plist", line: 7)
        #expect(github.annotation(.warning, title: "relctl", location: location, message: "50% done\nnext")
            == "::warning file=ios/App%2C1%3A2%25.plist,line=7,title=relctl::50%25 done%0Anext")
        #expect(github.annotation(.note, title: nil, location: nil, message: "m") == "::notice::m")
        #expect(github.annotation(.error, title: nil, location: DiagnosticLocation(path: "a"), message: "m") == "::error file=a::m")
        let gitlab = try #require(GitLabCI(environment: ["GITLAB_CI": "true"]))
        #expect(gitlab.annotation(.warning, title: "relctl", location: location, message: "m") == nil)
    }

    /// `Output.emit` makes the annotation of a warning only: an error fails the job anyway, a note is not worth one.
    @Test func onlyWarningsAreAnnotated() throws {
        let capture = Capture()
        let output = Output(stdout: { capture.out += $0 }, stderr: { capture.err += $0 })
        output.ci = GitHubActions(environment: Self.github)
        output.emit(Problem("an error", at: DiagnosticLocation(path: "/r/a.txt", line: 2)), root: "/r")
        output.emit(Problem("a note", severity: .note))
        output.emit(Problem("a warning", at: DiagnosticLocation(path: "/r/a.txt", line: 2), hint: "fix it", severity: .warning), root: "/r")
        #expect(capture.err == """
            error: a.txt:2: an error
            note: a note
            warning: a.txt:2: a warning (fix it)
            ::warning file=a.txt,line=2,title=relctl::a warning (fix it)

            """)
        #expect(capture.out.isEmpty)
    }
}
