import Foundation
import Testing
import RelctlCore
import RelctlGit
import RelctlTestSupport
@testable import RelctlCLI

@Suite("CI providers: detected once from the environment, one file each")
struct CIProviderTests {
    let notice = MajorReleaseNotice(version: "2.0.0", previousVersion: "1.4.2", tag: "v2.0.0", date: "2026-11-29T10:15:00Z",
                                    breakingChanges: [])

    @Test func detection() {
        #expect(CIProviders.detect([:]) == nil)
        #expect(CIProviders.detect(["GITHUB_ACTIONS": "false"]) == nil)
        #expect(CIProviders.detect(["GITHUB_ACTIONS": "true"]) is GitHubActions)
        #expect(CIProviders.detect(["GITLAB_CI": "true"]) is GitLabCI)
        #expect(CIProviders.detect(["GITLAB_CI": "1"]) == nil)
    }

    @Test func githubAnnotationEscapesWorkflowCommandData() throws {
        let github = try #require(GitHubActions(environment: ["GITHUB_ACTIONS": "true"]))
        #expect(github.majorReleaseWarning(notice) == "::warning title=Major release 2.0.0::" + notice.instruction)
        var odd = notice
        odd.version = "2.0.0:a,b%c\nd"
        odd.instruction = "50% done\r\nnext: a, b"
        #expect(github.majorReleaseWarning(odd)
            == "::warning title=Major release 2.0.0%3Aa%2Cb%25c%0Ad::50%25 done%0D%0Anext: a, b")
        #expect(github.majorReleaseWarning(odd)?.contains("\n") == false)
    }

    @Test func gitlabHasNoAnnotationButColoursItsLog() throws {
        let gitlab = try #require(GitLabCI(environment: ["GITLAB_CI": "true"]))
        #expect(gitlab.majorReleaseWarning(notice) == nil)
        #expect(gitlab.logShowsColor)
        #expect(GitHubActions(environment: ["GITHUB_ACTIONS": "true"])?.logShowsColor == false)
    }

    @Test func githubOutputsAndSummaryAreAppended() throws {
        let folder = try makeTempDirectory(prefix: "relctl-ci")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outputs = folder + "/out", summary = folder + "/summary"
        try Data("earlier=1\n".utf8).write(to: URL(fileURLWithPath: outputs))
        let github = try #require(GitHubActions(environment: ["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": outputs,
                                                               "GITHUB_STEP_SUMMARY": summary]))
        let output = Output(stdout: { _ in }, stderr: { _ in })
        github.publish(outputs: [("version", "1.3.0"), ("tag", "")], output: output)
        github.publish(summary: "### relctl\n", output: output)
        #expect(try String(contentsOfFile: outputs, encoding: .utf8) == "earlier=1\nversion=1.3.0\ntag=\n")
        #expect(try String(contentsOfFile: summary, encoding: .utf8) == "### relctl\n")
    }

    @Test func anUnwritableOutputFileIsAWarning() throws {
        var messages = ""
        let github = try #require(GitHubActions(environment: ["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": "/nonexistent/folder/out"]))
        github.publish(outputs: [("version", "1.3.0")], output: Output(stdout: { _ in }, stderr: { messages += $0 }))
        #expect(messages == "warning: cannot write GITHUB_OUTPUT file /nonexistent/folder/out\n")
    }

    /// The token variables each provider names are the ones RelctlGit's credentials read, for HTTPS pushes.
    @Test(arguments: CIProviders.all.map { String(describing: $0) })
    func tokenVariablesAreTheOnesPushesUse(provider: String) throws {
        let environment = provider == "GitHubActions" ? ["GITHUB_ACTIONS": "true"] : ["GITLAB_CI": "true"]
        let ci = try #require(CIProviders.detect(environment))
        #expect(String(describing: type(of: ci)) == provider)
        for variable in ci.tokenVariables {
            #expect(RemoteCredentials(environment: [variable: "secret-\(variable)"]).token == "secret-\(variable)")
        }
    }
}
