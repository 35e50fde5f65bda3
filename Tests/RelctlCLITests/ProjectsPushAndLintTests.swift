import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// Projects mode: `release --push` with nothing due pushes the releases made locally and never pushed (as for one
// app), and `lint --project X` checks only the commits that count for X.

private let twoApps = """
{
  "projects": [
    {"name": "consumer", "path": "apps/consumer", "files": [{"path": "apps/consumer/package.json", "format": "json"}], "dependsOn": ["ui"]},
    {"name": "driver", "path": "apps/driver", "files": [{"path": "apps/driver/package.json", "format": "json"}], "scopes": ["driver"]},
    {"name": "ui", "path": "packages/ui"}
  ]
}

"""

/// consumer 1.0.0 and driver 2.0.0, each tagged, with an `origin` (bare) holding them.
private func twoAppsWithOrigin() throws -> (repo: TestRepository, origin: TestRepository) {
    let origin = try TestRepository(bare: true)
    let repo = try TestRepository()
    try repo.write(".relctl.json", twoApps)
    try repo.write("apps/consumer/package.json", "{\n  \"name\": \"consumer\",\n  \"version\": \"1.0.0\"\n}\n")
    try repo.write("apps/driver/package.json", "{\n  \"name\": \"driver\",\n  \"version\": \"2.0.0\"\n}\n")
    try repo.write("packages/ui/index.js", "export {}\n")
    try repo.commitAll("chore: two apps")
    try repo.tag("consumer-v1.0.0")
    try repo.tag("driver-v2.0.0")
    try repo.tag("ui-v0.1.0")
    try repo.git(["remote", "add", "origin", origin.path])
    try repo.git(["push", "--quiet", "origin", "main", "--tags"])
    return (repo, origin)
}

@Suite("projects: push of earlier releases, lint per project")
struct ProjectsPushAndLintTests {
    func run(_ repo: TestRepository, _ arguments: [String]) -> CLIResult {
        relctl(arguments, in: repo.path, environment: repo.gitEnvironment())
    }

    @Test func pushWithNothingDuePushesTheReleaseMadeLocally() throws {
        let (repo, origin) = try twoAppsWithOrigin()
        try repo.commit("feat: a new screen", file: "apps/consumer/screen.js")
        let local = run(repo, ["release", "--all"])
        #expect(local.code == 0, "\(local.stderr)")
        #expect(try origin.git(["tag", "--list", "consumer-v1.1.0"]) == "")

        // Nothing due now: the dry run says what the push would do, and changes nothing.
        let dry = run(repo, ["release", "--all", "--push", "--dry-run"])
        #expect(dry.code == 0, "\(dry.stderr)")
        #expect(dry.stderr.contains("consumer-v1.1.0 is released locally but not on 'origin'; 'relctl release --push' would push main and the tag\n"), "\(dry.stderr)")
        #expect(try origin.git(["tag", "--list", "consumer-v1.1.0"]) == "")

        let push = run(repo, ["release", "--all", "--push"])
        #expect(push.code == 0, "\(push.stderr)")
        #expect(push.stderr == """
        consumer-v1.1.0 is released locally but not on 'origin': pushing it
        pushed main and consumer-v1.1.0 to 'origin'
        driver: no commit since driver-v2.0.0 changes apps/driver (2 commits changed other folders); driver-v2.0.0 is already on 'origin'
        ui: no commit since ui-v0.1.0 changes packages/ui (2 commits changed other folders); ui-v0.1.0 is already on 'origin'

        """ , "\(push.stderr)")
        #expect(try origin.git(["tag", "--list", "consumer-v1.1.0"]) == "consumer-v1.1.0\n")
        #expect(try origin.git(["rev-parse", "main"]) == (try repo.git(["rev-parse", "main"])))

        // Once pushed, a rerun finds everything on the remote.
        let again = run(repo, ["release", "--all", "--push"])
        #expect(again.code == 0, "\(again.stderr)")
        #expect(again.stderr.contains("consumer-v1.1.0 is already on 'origin'"), "\(again.stderr)")
    }

    @Test func lintChecksOnlyTheCommitsThatCountForTheProject() throws {
        let (repo, _) = try twoAppsWithOrigin()
        try repo.commit("feat: consumer screen", file: "apps/consumer/screen.js")
        try repo.commit("bad message in driver", file: "apps/driver/x.js")
        try repo.commit("fix: shared button", file: "packages/ui/button.js")
        try repo.commit("feat(driver): by scope only", file: "docs/driver.md")
        try repo.commit("also not conventional", file: "README.md")

        let consumer = run(repo, ["lint", "--project", "consumer"])
        #expect(consumer.code == 0, "\(consumer.stderr)")
        #expect(consumer.stderr == "checked 2 commits in consumer-v1.0.0..HEAD: no problems\n", "\(consumer.stderr)")

        let driver = run(repo, ["lint", "--project", "driver"])
        #expect(driver.code != 0)
        #expect(driver.stderr.contains("checked 2 commits in driver-v2.0.0..HEAD: 1 error"), "\(driver.stderr)")
        #expect(!driver.stderr.contains("also not conventional"), "\(driver.stderr)")
    }
}
