import Foundation
import Testing
import RelctlCore
import RelctlTestSupport
@testable import RelctlCLI

// The gate decisions in a repository holding several apps: each project's own gate (its document in its folder) and
// its own major-release marker (`apps/consumer/.major-release-pending`). The marker and the banner name the project,
// and every command they print carries `--project NAME`, so it works when followed from the root.

/// consumer (with its own gate, released 2.3.0 … 2.5.0) and driver (no gate, at 1.0.0), then a breaking change in
/// consumer.
private func gatedMonorepo() throws -> TestRepository {
    let repo = try TestRepository()
    try repo.write(".relctl.json", """
    {
      "projects": [
        {"name": "consumer", "path": "apps/consumer", "files": [{"path": "apps/consumer/package.json", "format": "json"}],
         "gate": {"document": "apps/consumer/gate.json", "format": "json"}},
        {"name": "driver", "path": "apps/driver", "files": [{"path": "apps/driver/package.json", "format": "json"}]}
      ]
    }

    """)
    try repo.write("apps/consumer/package.json", "{\n  \"name\": \"consumer\",\n  \"version\": \"2.5.0\"\n}\n")
    try repo.write("apps/consumer/gate.json", "{\n  \"minimumSupportedVersion\": \"2.3.0\",\n  \"latestVersion\": \"2.5.0\"\n}\n")
    try repo.write("apps/driver/package.json", "{\n  \"name\": \"driver\",\n  \"version\": \"1.0.0\"\n}\n")
    try repo.commitAll("chore: two apps")
    for version in ["2.3.0", "2.4.0", "2.5.0"] { try repo.tag("consumer-v\(version)", at: "HEAD") }
    try repo.tag("driver-v1.0.0")
    try repo.commit("feat(consumer)!: harbour API v2\n\nBREAKING CHANGE: v2 only", file: "apps/consumer/api.js")
    return repo
}

@Suite("projects: gate decisions per project")
struct ProjectsGateTests {
    func run(_ repo: TestRepository, _ arguments: [String], in folder: String = "") -> CLIResult {
        relctl(arguments, in: folder.isEmpty ? repo.path : repo.path + "/" + folder, environment: repo.goldenEnvironment())
    }

    @Test func theMarkerNamesTheProjectAndItsCommandsWorkFromTheRoot() throws {
        let repo = try gatedMonorepo()
        let release = run(repo, ["release", "--all", "--confirm-major", "consumer"])
        #expect(release.code == 0, "\(release.stderr)")
        // The banner names the project (MAJOR RELEASE 3.0.0 OF consumer), and the marker is written in its folder.
        let written = try repo.read("apps/consumer/.major-release-pending")
        let arguments = ["release", "--all", "--confirm-major", "consumer"]
        expectTranscript(arguments, release, matches: "projects/gate-major-release.txt", repo: repo, sections: [("apps/consumer/.major-release-pending", written)])
        #expect(!repo.exists(".major-release-pending"))
        let marker = try #require(MajorReleaseNotice.parse(try repo.read("apps/consumer/.major-release-pending")))
        #expect(marker.floor.project == "consumer")
        #expect(marker.commands.release == "relctl release --project consumer --confirm-major")
        #expect(marker.commands.setLatest == "relctl gate set-latest 3.0.0 --project consumer")
        #expect(marker.commands.raiseMin == "relctl gate raise-min 3.0.0 --confirm-live --project consumer")
        #expect(marker.commands.keepMin == "relctl gate keep-min --project consumer --reason \"<why>\"")
        #expect(marker.instruction.hasPrefix("Major release 3.0.0 of consumer: min_supported_version was NOT changed; "))

        // status names the project's pending decision with the commands as the marker has them.
        let status = run(repo, ["status"])
        expectTranscript(["status"], status, matches: "projects/gate-status-major-pending.txt", repo: repo)

        // At the root without --project: the list, exit 64, nothing written.
        let before = try repo.snapshot()
        let ask = run(repo, ["gate", "raise-min", "3.0.0", "--confirm-live"])
        #expect(ask.code == 64, "\(ask.stderr)")
        #expect(ask.stderr.hasPrefix("error: .relctl.json lists 2 projects (consumer (apps/consumer), driver (apps/driver)); name the ones to act on with --project NAME"), "\(ask.stderr)")
        #expect(try repo.snapshot() == before)

        // The marker's commands, followed as written from the root: set-latest, then raise-min resolves the marker.
        for command in [marker.commands.setLatest!, marker.commands.raiseMin!] {
            let result = run(repo, command.split(separator: " ").dropFirst().map(String.init))
            #expect(result.code == 0, "\(command): \(result.stderr)")
        }
        #expect(!repo.exists("apps/consumer/.major-release-pending"))
        #expect(try repo.git(["diff", "--name-only", "HEAD~1", "HEAD"]) == "apps/consumer/.major-release-pending\napps/consumer/gate.json\n")
        // The commit says the marker was removed; the document's minimum is 3.0.0.
        let message = try repo.git(["log", "-1", "--format=%B"])
        let document = try repo.read("apps/consumer/gate.json")
        let resolved = goldenSections([("commit message", message), ("apps/consumer/gate.json", document)])
        Golden.expect(resolved, matches: "projects/gate-raise-min-resolves-the-marker.txt")
        #expect(try repo.git(["status", "--porcelain"]) == "")
    }

    @Test func keepMinInsideTheProjectsFolderUsesItsMarker() throws {
        let repo = try gatedMonorepo()
        let release = run(repo, ["release", "--project", "consumer", "--confirm-major"])
        #expect(release.code == 0, "\(release.stderr)")
        // driver has no marker: nothing to keep.
        let none = run(repo, ["gate", "keep-min", "--reason", "x", "--project", "driver"])
        #expect(none.code == 1)
        #expect(none.stderr == "error: no major release decision is pending: there is no apps/driver/.major-release-pending (project \"driver\"), so there is nothing to keep\n", "\(none.stderr)")
        // Inside consumer's folder, --project is inferred.
        let kept = run(repo, ["gate", "keep-min", "--reason", "the v1 API stays up"], in: "apps/consumer")
        #expect(kept.code == 0, "\(kept.stderr)")
        #expect(!repo.exists("apps/consumer/.major-release-pending"))
        #expect(try repo.git(["diff", "--name-only", "HEAD~1", "HEAD"]) == "apps/consumer/.major-release-pending\n")
        #expect(try repo.git(["status", "--porcelain"]) == "")
    }
}
