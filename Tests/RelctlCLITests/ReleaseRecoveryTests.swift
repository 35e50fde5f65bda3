import Foundation
import Testing
import RelctlTestSupport

/// What a rerun after a crash does with what it finds beside the journal: git lock files, a file someone changed.
@Suite("relctl release after a crash: locks, changed files")
struct ReleaseRecoveryTests {
    func killed(at step: String, _ scenario: CrashScenario = .changelogOff) throws -> TestRepository {
        let (repo, _) = try scenario.make()
        let killed = try runRelctl(scenario.arguments, in: repo.path,
                                   environment: repo.goldenEnvironment(["RELCTL_TEST_CRASH": step]))
        #expect(killed.status == SIGKILL)
        #expect(FileManager.default.fileExists(atPath: repo.path + "/.git/relctl-release.json"))
        return repo
    }

    /// Killed while git's tag lock existed — before the tag was made, or after it was made and before its lock was
    /// gone: the rerun proves from the journal that the lock is relctl's own, removes it, says so, and finishes.
    @Test(arguments: ["journal-committed", "tag"])
    func aStaleTagLockOfTheKilledRunIsRemovedAndReported(step: String) throws {
        let repo = try killed(at: step)
        let lock = repo.path + "/.git/refs/tags/v1.3.0.lock"
        try "".write(toFile: lock, atomically: false, encoding: .utf8)
        let pid = try journalPID(repo)
        let rerun = try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], CLIResult(rerun), matches: "recovery/stale-tag-lock-removed-\(step).txt", repo: repo,
                         placeholders: [("pid \(pid)", "pid <killed pid>")])
        try expectOneCleanRelease(repo, remote: nil, scenario: .changelogOff)
    }

    /// A lock file with no journal to prove whose it is: never exit 0 in silence. `release` names it with its removal.
    @Test func aTagLockWithoutAJournalIsNamedWithItsRemoval() throws {
        let (repo, _) = try CrashScenario.changelogOff.make()
        #expect(try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment()).status == 0)
        let lock = repo.path + "/.git/refs/tags/v1.3.0.lock"
        try "".write(toFile: lock, atomically: false, encoding: .utf8)
        let rerun = try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], CLIResult(rerun), matches: "recovery/tag-lock-without-a-journal.txt", repo: repo)
        // Before a release, the branch's lock blocks it with the same fix, and nothing changes.
        try FileManager.default.removeItem(atPath: lock)
        try repo.commit("fix: another")
        let branchLock = repo.path + "/.git/refs/heads/main.lock"
        try "".write(toFile: branchLock, atomically: false, encoding: .utf8)
        let before = try repo.snapshot()
        let blocked = try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], CLIResult(blocked), matches: "recovery/branch-lock-blocks-the-release.txt", repo: repo)
        #expect(try repo.snapshot() == before)
    }

    /// A file the killed run wrote, changed by hand since: the rerun rolls nothing back over it and says what to do.
    @Test func aFileChangedSinceTheCrashIsNeverOverwritten() throws {
        let repo = try killed(at: "write-1")
        try repo.write("package.json", "{\n  \"name\": \"harbor\",\n  \"version\": \"9.9.9\"\n}\n")
        let before = try repo.snapshot()
        let rerun = try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(rerun.status == 1)
        #expect(rerun.stderr == "error: cannot roll back the interrupted release 1.3.0 (pid \(try journalPID(repo)), stopped after step 'planned'): package.json holds neither the bytes from before the release nor the ones it wrote (changed by hand since?); keep or discard that change (git checkout -- package.json), then rerun 'relctl release'\n")
        #expect(try repo.snapshot() == before)
        // Following the advice ends in one clean release.
        try repo.git(["checkout", "--", "package.json"])
        let pid = try journalPID(repo)
        let again = try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], CLIResult(again), matches: "recovery/rolled-back-after-the-advice.txt", repo: repo,
                         placeholders: [("pid \(pid)", "pid <killed pid>")])
        try expectOneCleanRelease(repo, remote: nil, scenario: .changelogOff)
    }

}

/// The pid of the killed release, from its journal (it differs from run to run: transcripts say `<killed pid>`).
func journalPID(_ repo: TestRepository) throws -> String {
    let text = try repo.read(".git/relctl-release.json")
    let range = try #require(text.range(of: #""pid":[0-9]+"#, options: .regularExpression))
    return String(text[range].dropFirst(6))
}

@Suite("other commands after a killed release")
struct InterruptedReleaseGuardTests {
    /// `adopt` would tag the half-written version files, `sync` write over them: both refuse until the release is
    /// finished or rolled back.
    @Test func adoptAndSyncRefuseToBuildOnHalfARelease() throws {
        let (repo, _) = try CrashScenario.changelogOff.make()
        let killed = try runRelctl(["release"], in: repo.path,
                                   environment: repo.goldenEnvironment(["RELCTL_TEST_CRASH": "commit"]))
        #expect(killed.status == SIGKILL)
        let before = try repo.snapshot()
        let pid = try journalPID(repo)
        let adopt = try runRelctl(["adopt"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(try repo.snapshot() == before)
        // sync would write over the half-written files: refused the same way.
        let sync = try runRelctl(["sync", "1.4.0"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript([(["adopt"], CLIResult(adopt)), (["sync", "1.4.0"], CLIResult(sync))], matches: "recovery/adopt-and-sync-refuse-half-a-release.txt",
                         repo: repo, placeholders: [("pid \(pid)", "pid <killed pid>")])
        #expect(try repo.snapshot() == before)
        #expect(try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment()).status == 0)
        try expectOneCleanRelease(repo, remote: nil, scenario: .changelogOff)
    }
}

@Suite("relctl status of a release in progress")
struct ReleaseInProgressStatusTests {
    /// A journal whose release still holds the lock is a release being made, not an interrupted one.
    @Test func aJournalWhoseLockIsHeldIsShownInProgress() throws {
        let (repo, _) = try CrashScenario.changelogOff.make()
        let killed = try runRelctl(["release"], in: repo.path,
                                   environment: repo.goldenEnvironment(["RELCTL_TEST_CRASH": "journal"]))
        #expect(killed.status == SIGKILL)
        // This test process holds the lock, as the running release would.
        let fd = open(repo.path + "/.git/relctl.lock", O_RDWR | O_CREAT, 0o644)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        let pid = try journalPID(repo)
        let env = repo.goldenEnvironment()
        let status = try runRelctl(["status"], in: repo.path, environment: env)
        let json = try runRelctl(["status", "--json"], in: repo.path, environment: env)
        expectTranscript([(["status"], CLIResult(status)), (["status", "--json"], CLIResult(json))], matches: "recovery/status-of-a-release-in-progress.txt",
                         repo: repo, placeholders: [("pid \(pid)", "pid <killed pid>"), ("\"pid\":\(pid)", "\"pid\":<killed pid>")])
        // A dry run may run beside a real release: it is not refused for the journal.
        let dry = try runRelctl(["release", "--dry-run"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(!dry.stderr.contains("was interrupted"), "\(dry.stderr)")
        // A real run waits for the lock. The file names the killed run (its pid is gone), not this holder, which
        // wrote nothing: the holder is only "another relctl command".
        let real = try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], CLIResult(real), matches: "recovery/real-run-waits-for-the-lock.txt", repo: repo,
                         placeholders: [("pid \(pid)", "pid <killed pid>")])
    }
}

@Suite("relctl release after a crash, on another branch")
struct ReleaseRecoveryBranchTests {
    /// The files to put back are the work tree's: with another branch checked out, the rerun names the branch to
    /// check out and touches nothing; back on it, the rerun finishes.
    @Test func theRerunWaitsForTheReleaseBranch() throws {
        let (repo, _) = try CrashScenario.changelogOff.make()
        let killed = try runRelctl(["release"], in: repo.path,
                                   environment: repo.goldenEnvironment(["RELCTL_TEST_CRASH": "commit"]))
        #expect(killed.status == SIGKILL)
        try repo.git(["checkout", "-q", "-b", "release/next", "v1.2.3"])
        let before = try repo.snapshot()
        let pid = try journalPID(repo)
        let rerun = try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(try repo.snapshot() == before)
        try repo.git(["checkout", "-q", "main"])
        let back = try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript([(["release"], CLIResult(rerun)), (["release"], CLIResult(back))], matches: "recovery/rerun-waits-for-the-release-branch.txt",
                         repo: repo, placeholders: [("pid \(pid)", "pid <killed pid>")])
        try expectOneCleanRelease(repo, remote: nil, scenario: .changelogOff)
    }
}
