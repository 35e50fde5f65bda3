import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// The whole output of `relctl gate`: its help, each subcommand's help, and the transcripts of the commands on
// Tidewater (see GateApps.swift). Record again with `RELCTL_RECORD_GOLDEN=1 swift test --filter GoldenOutput`.

@Suite("GoldenOutput: gate")
struct GateGoldenOutputTests {
    static let folder = NSTemporaryDirectory()

    @Test(arguments: GateCommand.spec.subcommands.map { String($0.name.dropFirst("gate ".count)) })
    func subcommandHelp(_ subcommand: String) {
        let arguments = ["help", "gate", subcommand]
        let help = relctl(arguments, in: Self.folder)
        Golden.expect(GoldenTranscript(arguments, help).rendered, matches: "help/gate-\(subcommand).txt")
        for flag in ["--help", "-h"] {
            let other = relctl(["gate", subcommand, flag], in: Self.folder)
            #expect(other.code == 0)
            #expect(other.stdout == help.stdout, "relctl gate \(subcommand) \(flag)")
        }
    }

    @Test func theGroupWithoutASubcommandOrWithAnUnknownOneIsAUsageError() {
        for arguments in [["gate"], ["gate", "raise"], ["gate", "--json"]] {
            Golden.expect(GoldenTranscript(arguments, relctl(arguments, in: Self.folder)).rendered,
                          matches: "usage/\(arguments.joined(separator: "-")).txt")
        }
        #expect(relctl(["help", "gate", "nope"], in: Self.folder).code == 64)
    }

    @Test func plan() throws {
        let repo = try GateApp.firebase()
        let before = try repo.snapshot()
        expectGoldenRun(repo, ["gate", "plan"], "gate/plan.txt")
        expectGoldenRun(repo, ["gate", "plan", "--min", "3.0.0", "--latest", "3.0.0"], "gate/plan--min--latest.txt")
        expectGoldenRun(repo, ["gate", "plan", "--min", "2.5.0", "--platform", "ios", "--json"], "gate/plan--platform--json.txt")
        #expect(try repo.snapshot() == before, "plan writes nothing")
    }

    @Test func checkWithProblems() throws {
        let template = try GateApp.input("remoteconfig.template.json")
            .replacingOccurrences(of: "\"vendor_latest_version\"", with: "\"vendor_latest_versoin\"")
            .replacingOccurrences(of: "https://apps.apple.com", with: "http://apps.apple.com")
            .replacingOccurrences(of: "\"value\": \"2.3.1\"", with: "\"value\": \"2.3.1-hotfix\"")
        let repo = try GateApp.firebase(template: template)
        expectGoldenRun(repo, ["gate", "check"], "gate/check-problems.txt")
        expectGoldenRun(repo, ["gate", "check", "--json"], "gate/check-problems--json.txt")
    }

    @Test func evaluate() throws {
        let repo = try GateApp.plain()
        expectGoldenRun(repo, ["gate", "evaluate", "2.4.0", "--platform", "ios"], "gate/evaluate.txt")
        expectGoldenRun(repo, ["gate", "evaluate", "2.3.0", "--platform", "ios", "--json"], "gate/evaluate--json.txt")
    }

    @Test func raiseMinDryRunAndRun() throws {
        let repo = try GateApp.firebase()
        expectGoldenRun(repo, ["gate", "raise-min", "2.5.0", "--dry-run"], "gate/raise-min--dry-run.txt")
        let (_, transcript) = goldenRun(repo, ["gate", "raise-min", "2.5.0", "--confirm-live"])
        let commit = try repo.git(["log", "-1", "--format=%H%n%an <%ae>%n%n%B", "--stat"])
        Golden.expect(transcript + goldenSections([("the commit", commit)]), matches: "gate/raise-min.txt")
    }

    @Test func decisionsAsJSON() throws {
        let repo = try GateApp.firebase()
        expectGoldenRun(repo, ["gate", "raise-min", "2.5.0", "--dry-run", "--json"], "gate/raise-min--dry-run--json.txt")
        expectGoldenRun(try GateApp.plain(), ["gate", "set-latest", "3.0.0", "--dry-run", "--json"], "gate/set-latest--dry-run--json.txt")
        expectGoldenRun(repo, ["gate", "keep-min", "--reason", "the v1 harbour API stays up until March", "--dry-run", "--json"],
                        "gate/keep-min--dry-run--json.txt")
    }

    @Test func keepMin() throws {
        let repo = try GateApp.firebase()
        let (_, transcript) = goldenRun(repo, ["gate", "keep-min", "--reason", "the v1 harbour API stays up until March"])
        let commit = try repo.git(["log", "-1", "--format=%H%n%n%B", "--stat"])
        Golden.expect(transcript + goldenSections([("the commit", commit)]), matches: "gate/keep-min.txt")
    }

    @Test func status() throws {
        let repo = try GateApp.firebase()
        expectGoldenRun(repo, ["status"], "gate/status.txt")
        expectGoldenRun(repo, ["status", "--json"], "gate/status--json.txt")
    }
}
