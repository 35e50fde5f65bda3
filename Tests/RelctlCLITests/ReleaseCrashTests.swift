import Foundation
import Testing
import RelctlTestSupport

/// A release killed (SIGKILL) at each of its write-like steps in turn, then rerun: the rerun finishes that same
/// release or rolls it back and releases again, and either way ends in one clean release. The steps are the ones
/// the real run reports (`RELCTL_TEST_STEPS`), so a new step cannot be left out without a test failing.
enum CrashScenario: String, CaseIterable, Sendable {
    /// A version file and a changelog in a folder the release creates.
    case changelogInNewFolder
    /// `"changelog": false`: the release commit holds the version file alone.
    case changelogOff
    /// `--push` to a bare remote.
    case push

    var config: String {
        switch self {
        case .changelogInNewFolder:
            return #"{"files": [{"path": "package.json", "format": "json"}], "changelog": {"path": "docs/CHANGES.md"}}"#
        case .changelogOff:
            return #"{"files": [{"path": "package.json", "format": "json"}], "changelog": false}"#
        case .push:
            return #"{"files": [{"path": "package.json", "format": "json"}]}"#
        }
    }

    var arguments: [String] { self == .push ? ["release", "--push"] : ["release"] }

    /// The release's files, as `git diff --name-only` lists them.
    var releaseFiles: String {
        switch self {
        case .changelogInNewFolder: return "docs/CHANGES.md\npackage.json\n"
        case .changelogOff: return "package.json\n"
        case .push: return "CHANGELOG.md\npackage.json\n"
        }
    }

    /// Every write-like step of the release, in order.
    var steps: [String] {
        let commitAndTag = ["journal-written", "index", "commit", "journal-committed", "tag"]
        switch self {
        case .changelogInNewFolder:
            return ["journal", "mkdir-1", "temp-1", "write-1", "temp-2", "write-2"] + commitAndTag
        case .changelogOff:
            return ["journal", "temp-1", "write-1"] + commitAndTag
        case .push:
            return ["journal", "temp-1", "write-1", "temp-2", "write-2"] + commitAndTag
                + ["push-objects-branch", "push-branch", "push-objects-tag-1", "push-tag-1"]
        }
    }

    /// A release-ready app: package.json at 1.2.3, tagged, then a feature and a fix; with a bare remote for `.push`.
    func make() throws -> (TestRepository, TestRepository?) {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write("package.json", "{\n  \"name\": \"harbor\",\n  \"version\": \"1.2.3\",\n  \"private\": true\n}\n")
        try repo.write(".relctl.json", config)
        if self == .push { try repo.write("CHANGELOG.md", "# Changelog\n\n## 1.2.3 (2026-01-01)\n\n* first\n") }
        try repo.commitAll("chore: initial commit")
        try repo.tag("v1.2.3")
        try repo.commit("feat(sync): offline mode")
        try repo.commit("fix: crash on start")
        guard self == .push else { return (repo, nil) }
        let remote = try TestRepository(bare: true)
        try repo.git(["remote", "add", "origin", remote.path])
        try repo.git(["push", "-q", "origin", "main", "v1.2.3"])
        return (repo, remote)
    }
}

struct CrashCase: Sendable, CustomTestStringConvertible {
    let scenario: CrashScenario
    let step: String
    var testDescription: String { "\(scenario.rawValue) killed at \(step)" }

    static let all: [CrashCase] = CrashScenario.allCases.flatMap { scenario in
        scenario.steps.map { CrashCase(scenario: scenario, step: $0) }
    }
}

let crashEnvironment = ["SOURCE_DATE_EPOCH": "1790000000"]

/// The repository holds exactly one release 1.3.0, complete and clean (and on the remote with `--push`).
func expectOneCleanRelease(_ repo: TestRepository, remote: TestRepository?, scenario: CrashScenario,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(try repo.git(["log", "--format=%s", "v1.2.3..HEAD"])
            == "chore(release): 1.3.0\nfix: crash on start\nfeat(sync): offline mode\n", sourceLocation: sourceLocation)
    #expect(try repo.git(["cat-file", "-t", "v1.3.0"]) == "tag\n", sourceLocation: sourceLocation)
    #expect(try repo.git(["rev-parse", "v1.3.0^{commit}"]) == (try repo.git(["rev-parse", "HEAD"])), sourceLocation: sourceLocation)
    #expect(try repo.git(["diff", "--name-only", "HEAD~1", "HEAD"]) == scenario.releaseFiles, sourceLocation: sourceLocation)
    #expect(try repo.git(["status", "--porcelain", "--untracked-files=all"]).isEmpty, sourceLocation: sourceLocation)
    #expect(try repo.read("package.json").contains("\"version\": \"1.3.0\""), sourceLocation: sourceLocation)
    if scenario != .changelogOff {
        let changelog = try repo.read(scenario == .push ? "CHANGELOG.md" : "docs/CHANGES.md")
        #expect(changelog.components(separatedBy: "## 1.3.0").count == 2, "\(changelog)", sourceLocation: sourceLocation)
    }
    let gitDir = repo.path + "/.git"
    for leftover in ["relctl-release.json", "index.lock", "refs/heads/main.lock", "refs/tags/v1.3.0.lock"] {
        #expect(!FileManager.default.fileExists(atPath: gitDir + "/" + leftover), "\(leftover)", sourceLocation: sourceLocation)
    }
    if let remote {
        #expect(try remote.git(["rev-parse", "main"]) == (try repo.git(["rev-parse", "HEAD"])), sourceLocation: sourceLocation)
        #expect(try remote.git(["rev-parse", "v1.3.0"]) == (try repo.git(["rev-parse", "v1.3.0"])), sourceLocation: sourceLocation)
        // Only the branch and the tags: no temporary reference of a killed push is left.
        #expect(try remote.git(["for-each-ref", "--format=%(refname)"]) == "refs/heads/main\nrefs/tags/v1.2.3\nrefs/tags/v1.3.0\n",
                sourceLocation: sourceLocation)
    }
}

@Suite("relctl release killed at every step")
struct ReleaseCrashTests {
    @Test(arguments: CrashScenario.allCases)
    func theCrashTestsKillEveryStepTheReleaseTakes(scenario: CrashScenario) throws {
        let (repo, remote) = try scenario.make()
        let log = try makeTempDirectory(prefix: "relctl-steps") + "/steps"
        defer { try? FileManager.default.removeItem(atPath: (log as NSString).deletingLastPathComponent) }
        let result = try runRelctl(scenario.arguments, in: repo.path,
                                   environment: crashEnvironment.merging(["RELCTL_TEST_STEPS": log]) { a, _ in a })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == scenario.steps.map { $0 + "\n" }.joined())
        try expectOneCleanRelease(repo, remote: remote, scenario: scenario)
    }

    @Test(arguments: CrashCase.all)
    func aRerunFinishesOrRollsBack(_ crash: CrashCase) throws {
        let scenario = crash.scenario
        let (repo, remote) = try scenario.make()
        let before = try repo.snapshot()
        let remoteBefore = try remote?.git(["for-each-ref"])
        let killed = RunningProcessResult(try RunningProcess(try relctlExecutable(), scenario.arguments, in: repo.path,
            environment: crashEnvironment.merging(["RELCTL_TEST_CRASH": crash.step, "NO_COLOR": "1"]) { a, _ in a }))
        #expect(killed.bySignal && killed.result.status == SIGKILL, "\(killed.result.stderr)")

        // Right after the kill: an interrupted release that status names, or nothing done, or all of it done locally.
        let journal = FileManager.default.fileExists(atPath: repo.path + "/.git/relctl-release.json")
        if journal {
            let status = try runRelctl(["status"], in: repo.path)
            #expect(status.stdout.contains("release:       1.3.0 (v1.3.0) interrupted, after step"), "\(status.stdout)")
            #expect(status.stdout.contains("rerun 'relctl release' to finish or roll it back"))
            let json = try runRelctl(["status", "--json"], in: repo.path)
            #expect(json.stdout.contains(#""interruptedRelease":{"version":"1.3.0","tag":"v1.3.0","branch":"main","step":"#), "\(json.stdout)")
            // A dry run meanwhile names it with the same advice, and changes nothing.
            let dry = try runRelctl(["release", "--dry-run"], in: repo.path)
            #expect(dry.status == 1)
            #expect(dry.stderr.contains("release 1.3.0 was interrupted"), "\(dry.stderr)")
            #expect(!dry.stderr.contains("commit or stash"))
        } else {
            // Only the push steps come after the journal is gone: the release is complete locally.
            #expect(crash.step.hasPrefix("push-"), "no journal after \(crash.step)")
            #expect(try repo.git(["rev-parse", "v1.3.0^{commit}"]) == (try repo.git(["rev-parse", "HEAD"])))
            #expect(try repo.snapshot() != before)
        }
        if let remote, !crash.step.hasPrefix("push-") {
            #expect(try remote.git(["for-each-ref"]) == remoteBefore, "nothing is pushed before the release is made")
        }

        let rerun = try runRelctl(scenario.arguments, in: repo.path, environment: crashEnvironment)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        if journal {
            let said = rerun.stderr.contains("note: finished the interrupted release 1.3.0")
                || rerun.stderr.contains("note: rolled back the interrupted release 1.3.0")
            #expect(said, "\(rerun.stderr)")
            // Finished once the commit is on the branch; rolled back before.
            let committed = scenario.steps.firstIndex(of: crash.step)! >= scenario.steps.firstIndex(of: "commit")!
            #expect(rerun.stderr.contains(committed ? "finished" : "rolled back"), "\(rerun.stderr)")
        }
        if crash.step.hasPrefix("temp-") {
            #expect(rerun.stderr.contains("note: removed 1 temporary file a killed relctl left behind: "), "\(rerun.stderr)")
            #expect(rerun.stderr.contains(".relctl-"))
        }
        try expectOneCleanRelease(repo, remote: remote, scenario: scenario)
        // And it stays released.
        let again = try runRelctl(scenario.arguments, in: repo.path, environment: crashEnvironment)
        #expect(again.status == 0)
        #expect(again.stderr.contains("HEAD is already released as v1.3.0"), "\(again.stderr)")
    }
}

/// A finished `RunningProcess`: its result and whether a signal ended it.
struct RunningProcessResult {
    let result: ProcessResult
    let bySignal: Bool

    init(_ process: RunningProcess) {
        result = process.wait()
        bySignal = process.endedBySignal
    }
}
