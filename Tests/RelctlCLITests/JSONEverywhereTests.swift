import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// Every command that prints results takes `--json` and prints one object with a top-level `schemaVersion`.
@Suite("JSON output of every command")
struct JSONEverywhereTests {
    /// The one JSON object on stdout, parsed.
    func object(_ result: CLIResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(result.stdout.hasSuffix("}\n") && result.stdout.filter { $0 == "\n" }.count == 1,
                "one line of JSON: \(result.stdout)", sourceLocation: sourceLocation)
        let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        let object = try #require(parsed as? [String: Any], sourceLocation: sourceLocation)
        #expect(object["schemaVersion"] as? Int == 1, sourceLocation: sourceLocation)
        #expect(result.stdout.hasPrefix("{\"schemaVersion\":1,"), "schemaVersion first", sourceLocation: sourceLocation)
        return object
    }

    /// The table: every command that prints results has --json; the completion script is not a result.
    @Test func everyResultCommandOfTheTableTakesJSON() {
        let withoutResults: Set<String> = ["completions"]
        for command in RelctlCLI.commands {
            for spec in command.subcommands.isEmpty ? [command] : command.subcommands where !withoutResults.contains(spec.name) {
                #expect(spec.options.contains { $0.name == "--json" }, "relctl \(spec.name) has no --json")
                #expect(spec.help.contains("--json"), "relctl \(spec.name)'s help says nothing of --json")
            }
        }
    }

    @Test func initPrintsTheFilesItWrote() throws {
        let (repo, _) = try storeApp()
        let (result, transcript) = goldenRun(repo, ["init", "--json"])
        #expect(result.code == 0, "\(result.stderr)")
        let json = try object(result)
        #expect(json["config"] as? String == ".relctl.json")
        #expect(json["tagFormat"] as? String == "v{version}")
        let files = try #require(json["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == storeAppFiles.map(\.0))
        #expect(files.map { $0["format"] as? String } == storeAppFiles.map(\.1))
        #expect(files.map { $0["marketing"] as? String } == ["2.43.0", "2.43.0", "2.43.0"])
        #expect(files[2]["androidBuild"] as? String == "241")
        #expect(files[0]["iosBuild"] is NSNull)
        #expect(FileManager.default.fileExists(atPath: repo.path + "/.relctl.json"))
        // The whole document, and stderr saying what was written.
        Golden.expect(transcript, matches: "json/init.txt")
    }

    @Test func adoptPrintsTheTagAndTheCommit() throws {
        let (repo, bump) = try storeApp()
        #expect(relctl(["init"], in: repo.path).code == 0)
        try repo.commitAll("chore: add relctl config")
        let (dry, dryTranscript) = goldenRun(repo, ["adopt", "--dry-run", "--json"])
        #expect(dry.code == 0, "\(dry.stderr)")
        let planned = try object(dry)
        #expect(planned["tag"] as? String == "v2.43.0")
        #expect(planned["commit"] as? String == bump)
        #expect(planned["path"] as? String == "package.json")
        #expect(planned["commitsAfter"] as? Int == 3)
        #expect(planned["next"] as? String == "2.44.0")
        #expect(planned["bump"] as? String == "minor")
        #expect(planned["created"] as? Bool == false)
        #expect(planned["dryRun"] as? Bool == true)
        // The plan on stderr (tag:      v2.43.0 (annotated) …) beside the document.
        Golden.expect(dryTranscript, matches: "json/adopt--dry-run.txt")
        #expect((try? repo.git(["rev-parse", "-q", "--verify", "refs/tags/v2.43.0"])) == nil)

        let made = relctl(["adopt", "--json"], in: repo.path)
        #expect(made.code == 0, "\(made.stderr)")
        let adopted = try object(made)
        #expect(adopted["created"] as? Bool == true)
        #expect(adopted["dryRun"] as? Bool == false)
        #expect(try repo.git(["rev-parse", "v2.43.0^{commit}"]).hasPrefix(bump))

        let again = relctl(["adopt", "--json"], in: repo.path)
        #expect(again.code == 0)
        let nothing = try object(again)
        #expect(nothing["tag"] is NSNull)
        #expect(nothing["created"] as? Bool == false)
        #expect((nothing["reason"] as? String)?.hasPrefix("v2.43.0 (2.43.0) is already the last release") == true)
    }

    @Test func gateRaiseMinDryRunAndRealRun() throws {
        let repo = try GateApp.plain()
        let before = try repo.snapshot()
        let dry = relctl(["gate", "raise-min", "2.5.0", "--dry-run", "--json"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(dry.code == 0, "\(dry.stderr)")
        let planned = try object(dry)
        #expect(planned["decision"] as? String == "raise-min")
        #expect(planned["document"] as? String == GateApp.plainPath)
        #expect(planned["from"] as? String == "2.3.0")
        #expect(planned["to"] as? String == "2.5.0")
        #expect(planned["commit"] is NSNull)
        #expect(planned["dryRun"] as? Bool == true)
        // The whole document: its diff adds "minimumSupportedVersion": "2.5.0".
        expectTranscript(["gate", "raise-min", "2.5.0", "--dry-run", "--json"], dry, matches: "json/gate-raise-min--dry-run.txt", repo: repo)
        #expect((planned["message"] as? String)?.hasPrefix("chore(gate): raise the minimum supported version to 2.5.0\n") == true)
        #expect(try repo.snapshot() == before)

        let made = relctl(["gate", "raise-min", "2.5.0", "--confirm-live", "--json"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(made.code == 0, "\(made.stderr)")
        let raised = try object(made)
        #expect(raised["commit"] as? String == (try repo.head()))
        #expect(raised["paths"] as? [String] == [GateApp.plainPath])
        #expect(raised["resolvesMajorRelease"] as? Bool == false)
        #expect(raised["diff"] is NSNull)
        expectTranscript(["gate", "raise-min", "2.5.0", "--confirm-live", "--json"], made, matches: "json/gate-raise-min.txt", repo: repo)
    }

    @Test func gateSetLatestAndKeepMin() throws {
        let repo = try GateApp.plain()
        let set = relctl(["gate", "set-latest", "3.0.0", "--json"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(set.code == 0, "\(set.stderr)")
        let moved = try object(set)
        #expect(moved["decision"] as? String == "set-latest")
        #expect(moved["to"] as? String == "3.0.0")
        #expect(moved["changed"] as? Bool == true)
        #expect(moved["commit"] as? String == (try repo.head()))

        let same = relctl(["gate", "set-latest", "3.0.0", "--json"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(same.code == 0, "\(same.stderr)")
        let unchanged = try object(same)
        #expect(unchanged["changed"] as? Bool == false)
        #expect(unchanged["from"] as? String == "3.0.0")
        #expect(unchanged["commit"] is NSNull)

        let keep = relctl(["gate", "keep-min", "--reason", "old builds still sync", "--json"], in: repo.path,
                          environment: repo.goldenEnvironment())
        #expect(keep.code == 0, "\(keep.stderr)")
        let kept = try object(keep)
        #expect(kept["decision"] as? String == "keep-min")
        #expect(kept["majorRelease"] as? String == "3.0.0")
        #expect(kept["reason"] as? String == "old builds still sync")
        #expect(kept["paths"] as? [String] == [".major-release-pending"])
        #expect(kept["commit"] as? String == (try repo.head()))
    }

    @Test func hooksInstallAndUninstall() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        let install = relctl(["hooks", "install", "--json"], in: repo.path)
        #expect(install.code == 0, "\(install.stderr)")
        let installed = try object(install)
        #expect(installed["hook"] as? String == ".git/hooks/commit-msg")
        #expect(installed["action"] as? String == "installed")
        #expect((installed["executable"] as? String)?.hasPrefix("/") == true)
        #expect(try object(relctl(["hooks", "install", "--json"], in: repo.path))["action"] as? String == "updated")
        let removed = try object(relctl(["hooks", "uninstall", "--json"], in: repo.path))
        #expect(removed["action"] as? String == "removed")
        #expect(removed["executable"] is NSNull)
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.git/hooks/commit-msg"))
        #expect(try object(relctl(["hooks", "uninstall", "--json"], in: repo.path))["action"] as? String == "none")
    }
}
