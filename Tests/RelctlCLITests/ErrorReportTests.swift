import Testing
import RelctlCore
import RelctlFiles
import RelctlGit
@testable import RelctlCLI

@Suite("Error report: every error one way, exit codes in one place")
struct ErrorReportTests {
    /// What `ErrorReport` writes for `error` and the code it returns.
    func report(_ error: any Error, root: String? = "/srv/checkout/app") -> (stderr: String, code: Int32) {
        var stderr = ""
        var stdout = ""
        let output = Output(stdout: { stdout += $0 }, stderr: { stderr += $0 })
        let code = ErrorReport.report(error, output: output, root: root).rawValue
        #expect(stdout.isEmpty)
        return (stderr, code)
    }

    @Test func aFileErrorIsShownRelativeToTheRepositoryRoot() {
        let error = FileEditError(path: "/srv/checkout/app/ios/App/Info.plist", line: 12, message: "CFBundleVersion is empty",
                                  hint: "write a build number such as 1")
        let result = report(error)
        #expect(result.stderr == "error: ios/App/Info.plist:12: CFBundleVersion is empty (write a build number such as 1)\n")
        #expect(result.code == 1)
        #expect(report(error, root: nil).stderr == "error: /srv/checkout/app/ios/App/Info.plist:12: CFBundleVersion is empty (write a build number such as 1)\n")
    }

    @Test func configAndStoreRuleErrorsAreDiagnosticsToo() {
        #expect(report(Problem("unknown key 'tagFromat'; did you mean 'tagFormat'?", at: DiagnosticLocation(path: ".relctl.json", line: 3)))
            == ("error: .relctl.json:3: unknown key 'tagFromat'; did you mean 'tagFormat'?\n", 1))
        #expect(report(StoreRuleViolation(message: "m", rule: "r", fix: "f")) == ("error: m (rule: r; fix: f)\n", 1))
        #expect(report(Problem("the repository has no commits yet")) == ("error: the repository has no commits yet\n", 1))
    }

    /// Each diagnostic is printed with its severity's label; a preflight prints every problem with its own
    /// severity, then the count, and exits by its property (1).
    @Test func severitiesGetTheirLabels() {
        let problems = [Problem("no version file holds 2.0.0", at: DiagnosticLocation(path: "/srv/checkout/app/app.json", line: 4), hint: "run relctl sync"),
                        Problem("the changelog has no Unreleased heading", severity: .warning),
                        Problem("the tag v2.0.0 will be pushed to origin", severity: .note)]
        #expect(report(PreflightFailure(problems: problems)) == ("""
            error: app.json:4: no version file holds 2.0.0 (run relctl sync)
            warning: the changelog has no Unreleased heading
            note: the tag v2.0.0 will be pushed to origin
            nothing was changed (3 preflight problems)

            """, 1))
        #expect(Problem(Problem("m", at: DiagnosticLocation(path: ".relctl.json", line: 3))).severity == .error)
        #expect(Problem(Problem("w", severity: .warning)).severity == .warning)
    }

    @Test func libgit2ErrorsSayTheFixWhereTheirKindHasOne() {
        #expect(report(GitError(kind: .shallowHistory, operation: "walk history", message: "object not found"))
            == ("error: walk history: object not found (the clone is shallow; fetch the whole history (git fetch --unshallow, or fetch-depth: 0 in actions/checkout))\n", 1))
        #expect(report(GitError(kind: .other, operation: "read tag v1.0.0", message: "corrupt")) == ("error: read tag v1.0.0: corrupt\n", 1))
    }

    @Test func exitCodesAreThrownValues() {
        #expect(report(ExitCode.drift) == ("", 2))
        #expect(report(ExitCode.failure) == ("", 1))
        #expect(report(UsageError(message: "--remote goes with --push", usage: "relctl release [--push]"))
            == ("error: --remote goes with --push\nusage: relctl release [--push]\n", 64))
        let halted =
            "error: halted before major release 2.0.0 (onMajor is \"halt\"): nothing is released; "
            + "review the breaking changes in .major-release-pending, then rerun with --confirm-major\n"
        #expect(report(Problem.majorReleaseHalted(version: "2.0.0")) == (halted, 3))
    }

    @Test func preflightProblemsAreCounted() {
        let one = report(PreflightFailure(problems: [Problem("HEAD is detached; check out a release branch (main)")]))
        #expect(one == ("error: HEAD is detached; check out a release branch (main)\nnothing was changed (1 preflight problem)\n", 1))
        let two = report(PreflightFailure(problems: [Problem("a"), Problem("b")]))
        #expect(two == ("error: a\nerror: b\nnothing was changed (2 preflight problems)\n", 1))
    }

    @Test func anInternalErrorProblemSaysItIsABug() {
        let result = report(Problem.internalError("the release commit was made but not recorded"))
        #expect(result.code == 1)
        #expect(result.stderr == "error: internal error: the release commit was made but not recorded (this is a bug in relctl; please report it with the command that was run and this message)\n")
    }
}
