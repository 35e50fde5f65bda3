import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// The whole output of every command, compared with the files under `Golden/` (see GoldenTranscript.swift):
// help texts, the release dry run, every JSON document, the `current` text, and the errors whose wording is
// part of the contract. Record again with `RELCTL_RECORD_GOLDEN=1 swift test --filter GoldenOutput`.

/// Runs relctl in-process in the repository with the golden environment; returns the result and its transcript.
func goldenRun(_ repo: TestRepository, _ arguments: [String], environment: [String: String] = [:]) -> (result: CLIResult, transcript: String) {
    let result = relctl(arguments, in: repo.path, environment: repo.goldenEnvironment(environment))
    return (result, GoldenTranscript(arguments, result, placeholders: [(repo.path, "<repo>")]).rendered)
}

/// Sections added to a transcript: what a run left behind (a file it wrote, the objects a release made).
func goldenSections(_ sections: [(title: String, text: String)]) -> String {
    sections.map { title, body in
        "--- \(title)\n" + body + (body.hasSuffix("\n") || body.isEmpty ? "" : "\n[no newline at end]\n")
    }.joined()
}

/// Runs relctl in-process in the repository and compares the transcript with `Golden/<name>`.
func expectGoldenRun(_ repo: TestRepository, _ arguments: [String], _ name: String, environment: [String: String] = [:],
                     sourceLocation: SourceLocation = #_sourceLocation) {
    Golden.expect(goldenRun(repo, arguments, environment: environment).transcript, matches: name, sourceLocation: sourceLocation)
}

@Suite("GoldenOutput: help")
struct GoldenOutputHelpTests {
    /// Help needs no repository: it is run from a folder that is none.
    static let folder = NSTemporaryDirectory()

    @Test func mainHelp() {
        let arguments = ["--help"]
        Golden.expect(GoldenTranscript(arguments, relctl(arguments, in: Self.folder)).rendered, matches: "help/relctl--help.txt")
    }

    @Test func helpCommandWithoutACommandIsTheMainHelp() {
        let arguments = ["help"]
        let result = relctl(arguments, in: Self.folder)
        #expect(result.code == 0)
        #expect(result.stdout == relctl(["--help"], in: Self.folder).stdout)
        #expect(result.stderr.isEmpty)
    }

    @Test func noArgumentsPrintTheHelpOnStderr() {
        Golden.expect(GoldenTranscript([], relctl([], in: Self.folder)).rendered, matches: "help/relctl.txt")
    }

    @Test(arguments: RelctlCLI.commands.map(\.name))
    func commandHelp(_ command: String) {
        let arguments = ["help", command]
        Golden.expect(GoldenTranscript(arguments, relctl(arguments, in: Self.folder)).rendered, matches: "help/\(command).txt")
        // `relctl <command> --help` and `-h` print the same help.
        for flag in ["--help", "-h"] {
            let other = relctl([command, flag], in: Self.folder)
            #expect(other.code == 0)
            #expect(other.stdout == relctl(arguments, in: Self.folder).stdout, "relctl \(command) \(flag)")
            #expect(other.stderr.isEmpty)
        }
    }

    /// The completion scripts and the man page, generated from the command table: any change to the table shows
    /// here as a diff to review.
    @Test(arguments: [(["completions", "bash"], "help/completions-bash.txt"), (["completions", "zsh"], "help/completions-zsh.txt"),
                      (["completions", "fish"], "help/completions-fish.txt"), (["help", "--man"], "help/relctl.1.txt")])
    func generatedFromTheTable(_ arguments: [String], _ name: String) {
        Golden.expect(GoldenTranscript(arguments, relctl(arguments, in: Self.folder)).rendered, matches: name)
    }

    /// Every subcommand of the `hooks` group has its own help (the gate's are in GateGoldenOutputTests).
    @Test(arguments: ["install", "uninstall"])
    func hooksSubcommandHelp(_ subcommand: String) {
        let arguments = ["help", "hooks", subcommand]
        Golden.expect(GoldenTranscript(arguments, relctl(arguments, in: Self.folder)).rendered, matches: "help/hooks-\(subcommand).txt")
        #expect(relctl(["hooks", subcommand, "--help"], in: Self.folder).stdout == relctl(arguments, in: Self.folder).stdout)
    }

    /// The built binary prints exactly what the in-process run prints: `main` adds nothing.
    @Test func theExecutablePrintsTheSameHelp() throws {
        let arguments = ["--help"]
        let process = try runRelctl(arguments, in: Self.folder)
        let result = CLIResult(code: process.status, stdout: process.stdout, stderr: process.stderr)
        Golden.expect(GoldenTranscript(arguments, result).rendered, matches: "help/relctl--help.txt")
    }

    @Test func version() {
        let result = relctl(["--version"], in: Self.folder)
        #expect(result.code == 0)
        #expect(result.stdout == relctlVersion + "\n")
        #expect(result.stderr.isEmpty)
    }
}

@Suite("GoldenOutput: usage errors")
struct GoldenOutputUsageTests {
    @Test(arguments: [
        (["bogus"], "usage/unknown-command.txt"),
        (["--bogus"], "usage/unknown-main-option.txt"),
        (["release", "--bogus"], "usage/unknown-option.txt"),
        (["sync"], "usage/missing-argument.txt"),
        (["release", "--remote", "upstream"], "usage/remote-without-push.txt"),
        (["help", "bogus"], "usage/help-unknown-command.txt"),
    ])
    func usageError(_ arguments: [String], _ name: String) throws {
        let repo = try GoldenApp.harbor()
        expectGoldenRun(repo, arguments, name)
    }
}

@Suite("GoldenOutput: Harbor, a bare Expo app with Xcode and Gradle files, released as v2.4.1 with work since")
struct GoldenOutputHarborTests {
    @Test(arguments: [
        (["release", "--dry-run"], "harbor/release--dry-run.txt"),
        (["release", "--dry-run", "--json"], "harbor/release--dry-run--json.txt"),
        (["next"], "harbor/next.txt"),
        (["next", "--json"], "harbor/next--json.txt"),
        (["changelog"], "harbor/changelog.txt"),
        (["changelog", "--json"], "harbor/changelog--json.txt"),
        (["changelog", "--unreleased"], "harbor/changelog--unreleased.txt"),
        (["status"], "harbor/status.txt"),
        (["status", "--json"], "harbor/status--json.txt"),
        (["current"], "harbor/current.txt"),
        (["current", "--json"], "harbor/current--json.txt"),
        (["sync", "2.4.2", "--dry-run"], "harbor/sync--dry-run.txt"),
        (["sync", "2.4.2", "--dry-run", "--json"], "harbor/sync--dry-run--json.txt"),
        (["adopt", "--dry-run"], "harbor/adopt--dry-run.txt"),
        (["adopt", "--dry-run", "--json"], "harbor/adopt--dry-run--json.txt"),
    ])
    func readOnly(_ arguments: [String], _ name: String) throws {
        let repo = try GoldenApp.harbor()
        let before = try repo.snapshot()
        expectGoldenRun(repo, arguments, name)
        #expect(try repo.snapshot() == before, "relctl \(arguments.joined(separator: " ")) changed the repository")
    }

    /// The release, and what it made: the release commit and the annotated tag, object by object, and the changelog.
    @Test(arguments: [(["release"], "harbor/release.txt"), (["release", "--json"], "harbor/release--json.txt")])
    func release(_ arguments: [String], _ name: String) throws {
        let repo = try GoldenApp.harbor()
        let run = goldenRun(repo, arguments)
        #expect(run.result.code == 0, "\(run.result.stderr)")
        let made = goldenSections([("git cat-file -p HEAD", try repo.git(["cat-file", "-p", "HEAD"])),
                                   ("git cat-file -p v2.5.0", try repo.git(["cat-file", "-p", "v2.5.0"])),
                                   ("CHANGELOG.md", try repo.read("CHANGELOG.md"))])
        Golden.expect(run.transcript + made, matches: name)
    }

    /// A real sync, and the bytes it wrote (`git diff`).
    @Test(arguments: [(["sync", "2.4.2"], "harbor/sync.txt"), (["sync", "2.4.2", "--json"], "harbor/sync--json.txt")])
    func sync(_ arguments: [String], _ name: String) throws {
        let repo = try GoldenApp.harbor()
        let run = goldenRun(repo, arguments)
        #expect(run.result.code == 0, "\(run.result.stderr)")
        Golden.expect(run.transcript + goldenSections([("git diff", try repo.git(["diff"]))]), matches: name)
    }
}

@Suite("GoldenOutput: init, adopt and major releases")
struct GoldenOutputLifecycleTests {
    @Test func initWritesTheStarterConfig() throws {
        let repo = try GoldenApp.harbor(config: false)
        let run = goldenRun(repo, ["init"])
        #expect(run.result.code == 0, "\(run.result.stderr)")
        Golden.expect(run.transcript + goldenSections([(".relctl.json", try repo.read(".relctl.json"))]), matches: "lifecycle/init.txt")
    }

    @Test func initJSON() throws {
        let repo = try GoldenApp.harbor(config: false)
        let run = goldenRun(repo, ["init", "--json"])
        #expect(run.result.code == 0, "\(run.result.stderr)")
        Golden.expect(run.transcript, matches: "lifecycle/init--json.txt")
    }

    @Test(arguments: [
        (["next"], "lifecycle/untagged-next.txt"),
        (["status", "--json"], "lifecycle/untagged-status--json.txt"),
        (["adopt", "--dry-run"], "lifecycle/adopt--dry-run.txt"),
        (["adopt", "--dry-run", "--json"], "lifecycle/adopt--dry-run--json.txt"),
    ])
    func untaggedApp(_ arguments: [String], _ name: String) throws {
        let repo = try GoldenApp.harborUntagged()
        expectGoldenRun(repo, arguments, name)
    }

    @Test func adoptTagsTheVersionTheFilesHold() throws {
        let repo = try GoldenApp.harborUntagged()
        let run = goldenRun(repo, ["adopt"])
        #expect(run.result.code == 0, "\(run.result.stderr)")
        let tag = try repo.git(["cat-file", "-p", "v2.4.1"])
        Golden.expect(run.transcript + goldenSections([("git cat-file -p v2.4.1", tag)]), matches: "lifecycle/adopt.txt")
    }

    /// A dry run of a major release: the halt the real run makes (exit 3), and with --confirm-major the release.
    @Test(arguments: [
        (["release", "--dry-run"], "lifecycle/major-release-halt--dry-run.txt"),
        (["release", "--dry-run", "--json"], "lifecycle/major-release-halt--dry-run--json.txt"),
        (["release", "--dry-run", "--confirm-major"], "lifecycle/major-release--dry-run--confirm-major.txt"),
        (["release", "--dry-run", "--json", "--confirm-major"], "lifecycle/major-release--dry-run--json--confirm-major.txt"),
        (["status"], "lifecycle/major-status.txt"),
    ])
    func majorRelease(_ arguments: [String], _ name: String) throws {
        let repo = try GoldenApp.harborMajor()
        let before = try repo.snapshot()
        expectGoldenRun(repo, arguments, name)
        #expect(try repo.snapshot() == before, "relctl \(arguments.joined(separator: " ")) changed the repository")
    }

    /// The default halt: the marker it writes, and nothing else (git status); then what `status` says.
    @Test(arguments: [(["release"], "lifecycle/major-release-halt.txt"), (["release", "--json"], "lifecycle/major-release-halt--json.txt")])
    func majorReleaseHaltsUntilConfirmed(_ arguments: [String], _ name: String) throws {
        let repo = try GoldenApp.harborMajor()
        let run = goldenRun(repo, arguments)
        #expect(run.result.code == 3, "\(run.result.stderr)")
        let left = goldenSections([("git status --porcelain", try repo.git(["status", "--porcelain"])),
                                   (".major-release-pending", try repo.read(".major-release-pending"))])
        Golden.expect(run.transcript + left, matches: name)
        if arguments == ["release"] { expectGoldenRun(repo, ["status"], "lifecycle/major-halted-status.txt") }
    }

    /// The major release confirmed after the halt, the marker it commits, and the reminder a later command prints.
    @Test func majorReleaseLeavesTheMarker() throws {
        let repo = try GoldenApp.harborMajor()
        #expect(goldenRun(repo, ["release"]).result.code == 3)
        let run = goldenRun(repo, ["release", "--confirm-major"])
        #expect(run.result.code == 0, "\(run.result.stderr)")
        let made = goldenSections([("git show --stat --format= HEAD", try repo.git(["show", "--stat", "--format=", "HEAD"])),
                                   ("git status --porcelain", try repo.git(["status", "--porcelain"])),
                                   (".major-release-pending", try repo.read(".major-release-pending"))])
        Golden.expect(run.transcript + made, matches: "lifecycle/major-release.txt")
        expectGoldenRun(repo, ["status", "--json"], "lifecycle/major-pending-status--json.txt")
    }
}

@Suite("GoldenOutput: GitHub Actions")
struct GoldenOutputGitHubActionsTests {
    /// Under GitHub Actions: the annotations on stderr, the step outputs and the job summary the workflow reads.
    @Test(arguments: [
        ("minor", ["release"], "github-actions/release.txt"),
        ("major", ["release"], "github-actions/major-release.txt"),
        ("major", ["release", "--confirm-major"], "github-actions/major-release--confirm-major.txt"),
        ("major", ["release", "--dry-run"], "github-actions/major-release--dry-run.txt"),
        ("minor", ["next"], "github-actions/next.txt"),
        ("major released", ["status"], "github-actions/major-pending-status.txt"),
    ])
    func underGitHubActions(_ app: String, _ arguments: [String], _ name: String) throws {
        let repo = app == "minor" ? try GoldenApp.harbor() : try GoldenApp.harborMajor()
        if app == "major released" {
            let release = relctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment())
            #expect(release.code == 0, "\(release.stderr)")
        }
        let folder = try makeTempDirectory(prefix: "relctl-github")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = ["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": folder + "/output", "GITHUB_STEP_SUMMARY": folder + "/summary"]
        let result = relctl(arguments, in: repo.path, environment: repo.goldenEnvironment(environment))
        let transcript = GoldenTranscript(arguments, result, placeholders: [(repo.path, "<repo>"), (folder, "<github>")]).rendered
        func written(_ file: String) -> String { (try? String(contentsOfFile: folder + "/" + file, encoding: .utf8)) ?? "(not written)\n" }
        let files = goldenSections([("$GITHUB_OUTPUT", written("output")), ("$GITHUB_STEP_SUMMARY", written("summary"))])
        Golden.expect(transcript + files, matches: name)
    }
}

@Suite("GoldenOutput: pushing")
struct GoldenOutputPushTests {
    /// Harbor whose `origin` is a bare repository in a temp folder (`<remote>` in the transcripts), pushed to.
    static func harborWithRemote() throws -> (repo: TestRepository, remote: TestRepository) {
        let repo = try GoldenApp.harbor()
        let remote = try TestRepository(bare: true)
        try repo.git(["remote", "set-url", "origin", remote.path])
        try repo.git(["push", "-q", "origin", "main", "v2.4.1"])
        return (repo, remote)
    }

    @Test(arguments: [(["release", "--push"], "push/release--push.txt"), (["release", "--push", "--json"], "push/release--push--json.txt")])
    func push(_ arguments: [String], _ name: String) throws {
        let (repo, remote) = try Self.harborWithRemote()
        let result = relctl(arguments, in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 0, "\(result.stderr)")
        let transcript = GoldenTranscript(arguments, result, placeholders: [(repo.path, "<repo>"), (remote.path, "<remote>")]).rendered
        let refs = try remote.git(["for-each-ref", "--format=%(refname) %(objectname) %(objecttype)"])
        Golden.expect(transcript + goldenSections([("git for-each-ref (remote)", refs)]), matches: name)
    }

    /// The remote cannot be reached: the real run stops before any write, the dry run only warns.
    @Test(arguments: [(["release", "--push"], "push/unreachable.txt"), (["release", "--push", "--dry-run"], "push/unreachable--dry-run.txt")])
    func unreachableRemote(_ arguments: [String], _ name: String) throws {
        let repo = try GoldenApp.harbor()
        let missing = try makeTempDirectory(prefix: "relctl-gone")
        try FileManager.default.removeItem(atPath: missing)
        try repo.git(["remote", "set-url", "origin", missing])
        let before = try repo.snapshot()
        let result = relctl(arguments, in: repo.path, environment: repo.goldenEnvironment())
        let transcript = GoldenTranscript(arguments, result, placeholders: [(repo.path, "<repo>"), (missing, "<missing>")]).rendered
        Golden.expect(transcript, matches: name)
        #expect(try repo.snapshot() == before)
    }
}

@Suite("GoldenOutput: errors")
struct GoldenOutputErrorTests {
    @Test(arguments: [
        ("{\n  \"tagFromat\": \"v{version}\"\n}\n", "errors/config-unknown-key.txt"),
        ("{\n  \"files\": [\n    { \"path\": \"app.json\", \"format\": \"expoo\" }\n  ]\n}\n", "errors/config-unknown-format.txt"),
        ("{\n  \"files\": [\n    { \"path\": \"app.json\", \"format\": \"expo\" },\n  ]\n", "errors/config-not-json.txt"),
    ])
    func configError(_ config: String, _ name: String) throws {
        let repo = try GoldenApp.harbor()
        try repo.write(".relctl.json", config)
        try repo.commitAll("chore: break the config")
        let before = try repo.snapshot()
        expectGoldenRun(repo, ["release", "--dry-run"], name)
        #expect(try repo.snapshot() == before)
    }

    /// Every preflight problem at once, each with its fix; the dry run fails exactly as the real run.
    @Test(arguments: [(["release"], "errors/preflight.txt"), (["release", "--dry-run"], "errors/preflight--dry-run.txt")])
    func preflight(_ arguments: [String], _ name: String) throws {
        let repo = try GoldenApp.harbor()
        try repo.git(["checkout", "-q", "-b", "feature/berths"])
        try repo.write("notes.txt", "to do\n")
        try repo.write("package.json", try repo.read("package.json").replacingOccurrences(of: "\"private\": true", with: "\"private\": false"))
        let before = try repo.snapshot()
        expectGoldenRun(repo, arguments, name)
        #expect(try repo.snapshot() == before)
    }

    /// Planning's problems are a list, not the first one found: a version file relctl cannot write (a computed
    /// versionName), a changelog that is not UTF-8 and a committer date that is no date are three lines in one run,
    /// with the dry run failing the same way, and nothing written.
    @Test(arguments: [(["release"], "errors/planning-problems.txt"), (["release", "--dry-run"], "errors/planning-problems--dry-run.txt")])
    func planningProblemsAllAtOnce(_ arguments: [String], _ name: String) throws {
        let repo = try GoldenApp.harbor()
        try repo.write("android/app/build.gradle", try repo.read("android/app/build.gradle")
            .replacingOccurrences(of: "versionName \"2.4.1\"", with: "versionName computeVersionName()"))
        // "Café" in Latin-1: the é is the one byte 0xE9.
        try Data(Array("# Changelog\n\nCaf".utf8) + [0xE9] + Array("\n".utf8)).write(to: URL(fileURLWithPath: repo.path + "/CHANGELOG.md"))
        try repo.commitAll("chore: a computed versionName and a Latin-1 changelog")
        let before = try repo.snapshot()
        expectGoldenRun(repo, arguments, name, environment: ["GIT_COMMITTER_DATE": "not a date"])
        #expect(try repo.snapshot() == before)
    }

    @Test func versionBackwards() throws {
        let repo = try GoldenApp.harbor()
        let before = try repo.snapshot()
        expectGoldenRun(repo, ["sync", "2.4.0"], "errors/sync-backwards.txt")
        #expect(try repo.snapshot() == before)
    }

    @Test func computedVersionInAFile() throws {
        let repo = try GoldenApp.harbor()
        try repo.write("android/app/build.gradle", try repo.read("android/app/build.gradle")
            .replacingOccurrences(of: "versionName \"2.4.1\"", with: "versionName computeVersionName()"))
        try repo.commitAll("build(android): compute the version name")
        let before = try repo.snapshot()
        expectGoldenRun(repo, ["sync", "2.4.2"], "errors/sync-computed-value.txt")
        #expect(try repo.snapshot() == before)
    }

    @Test(arguments: [(["current"], "errors/current-drift.txt"), (["current", "--json"], "errors/current-drift--json.txt")])
    func drift(_ arguments: [String], _ name: String) throws {
        let repo = try GoldenApp.harbor()
        try repo.write("package.json", try repo.read("package.json").replacingOccurrences(of: "\"version\": \"2.4.1\"", with: "\"version\": \"2.4.0\""))
        try repo.commitAll("chore: package.json left behind")
        expectGoldenRun(repo, arguments, name)
    }
}
