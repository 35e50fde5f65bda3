import Foundation
import Testing
import RelctlTestSupport

/// What a rerun after a crash does with what it finds beside the journal: git lock files, a file someone changed.
@Suite("relctl release after a crash: locks, changed files")
struct ReleaseRecoveryTests {
    func killed(at step: String, _ scenario: CrashScenario = .changelogOff) throws -> TestRepository {
        let (repo, _) = try scenario.make()
        let killed = try runRelctl(scenario.arguments, in: repo.path,
                                   environment: crashEnvironment.merging(["RELCTL_TEST_CRASH": step]) { a, _ in a })
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
        let rerun = try runRelctl(["release"], in: repo.path, environment: crashEnvironment)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stderr.contains("note: removed \(lock), git's lock file left by the killed relctl (pid "), "\(rerun.stderr)")
        #expect(rerun.stderr.contains("note: finished the interrupted release 1.3.0"))
        try expectOneCleanRelease(repo, remote: nil, scenario: .changelogOff)
    }

    /// A lock file with no journal to prove whose it is: never exit 0 in silence. `release` names it with its removal.
    @Test func aTagLockWithoutAJournalIsNamedWithItsRemoval() throws {
        let (repo, _) = try CrashScenario.changelogOff.make()
        #expect(try runRelctl(["release"], in: repo.path).status == 0)
        let lock = repo.path + "/.git/refs/tags/v1.3.0.lock"
        try "".write(toFile: lock, atomically: false, encoding: .utf8)
        let rerun = try runRelctl(["release"], in: repo.path)
        #expect(rerun.status == 0)
        #expect(rerun.stderr.contains("warning: git's lock file \(lock) is in the way"), "\(rerun.stderr)")
        #expect(rerun.stderr.contains("remove it (rm '\(lock)')"))
        // Before a release, the branch's lock blocks it with the same fix, and nothing changes.
        try FileManager.default.removeItem(atPath: lock)
        try repo.commit("fix: another")
        let branchLock = repo.path + "/.git/refs/heads/main.lock"
        try "".write(toFile: branchLock, atomically: false, encoding: .utf8)
        let before = try repo.snapshot()
        let blocked = try runRelctl(["release"], in: repo.path)
        #expect(blocked.status == 1)
        #expect(blocked.stderr.contains("error: git's lock file \(branchLock) is in the way"), "\(blocked.stderr)")
        #expect(try repo.snapshot() == before)
    }

    /// A file the killed run wrote, changed by hand since: the rerun rolls nothing back over it and says what to do.
    @Test func aFileChangedSinceTheCrashIsNeverOverwritten() throws {
        let repo = try killed(at: "write-1")
        try repo.write("package.json", "{\n  \"name\": \"harbor\",\n  \"version\": \"9.9.9\"\n}\n")
        let before = try repo.snapshot()
        let rerun = try runRelctl(["release"], in: repo.path)
        #expect(rerun.status == 1)
        #expect(rerun.stderr == "error: cannot roll back the interrupted release 1.3.0 (pid \(try journalPID(repo)), stopped after step 'planned'): package.json holds neither the bytes from before the release nor the ones it wrote (changed by hand since?); keep or discard that change (git checkout -- package.json), then rerun 'relctl release'\n")
        #expect(try repo.snapshot() == before)
        // Following the advice ends in one clean release.
        try repo.git(["checkout", "--", "package.json"])
        let again = try runRelctl(["release"], in: repo.path, environment: crashEnvironment)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("note: rolled back the interrupted release 1.3.0"))
        try expectOneCleanRelease(repo, remote: nil, scenario: .changelogOff)
    }

    func journalPID(_ repo: TestRepository) throws -> String {
        let text = try repo.read(".git/relctl-release.json")
        let range = try #require(text.range(of: #""pid":[0-9]+"#, options: .regularExpression))
        return String(text[range].dropFirst(6))
    }
}

@Suite("other commands after a killed release")
struct InterruptedReleaseGuardTests {
    /// `adopt` would tag the half-written version files, `sync` write over them: both refuse until the release is
    /// finished or rolled back.
    @Test func adoptAndSyncRefuseToBuildOnHalfARelease() throws {
        let (repo, _) = try CrashScenario.changelogOff.make()
        let killed = try runRelctl(["release"], in: repo.path,
                                   environment: crashEnvironment.merging(["RELCTL_TEST_CRASH": "commit"]) { a, _ in a })
        #expect(killed.status == SIGKILL)
        let before = try repo.snapshot()
        let adopt = try runRelctl(["adopt"], in: repo.path)
        #expect(adopt.status == 1)
        #expect(adopt.stderr.contains("error: release 1.3.0 was interrupted ("), "\(adopt.stderr)")
        #expect(adopt.stderr.contains("rerun 'relctl release' to finish or roll it back first"))
        #expect(try repo.snapshot() == before)
        // sync would write over the half-written files: refused the same way.
        let sync = try runRelctl(["sync", "1.4.0"], in: repo.path)
        #expect(sync.status == 1)
        #expect(sync.stderr.contains("error: release 1.3.0 was interrupted ("), "\(sync.stderr)")
        #expect(sync.stderr.contains("rerun 'relctl release' to finish or roll it back before syncing; nothing was written"))
        #expect(try repo.snapshot() == before)
        #expect(try runRelctl(["release"], in: repo.path, environment: crashEnvironment).status == 0)
        try expectOneCleanRelease(repo, remote: nil, scenario: .changelogOff)
    }
}

@Suite("relctl status of a release in progress")
struct ReleaseInProgressStatusTests {
    /// A journal whose release still holds the lock is a release being made, not an interrupted one.
    @Test func aJournalWhoseLockIsHeldIsShownInProgress() throws {
        let (repo, _) = try CrashScenario.changelogOff.make()
        let killed = try runRelctl(["release"], in: repo.path,
                                   environment: crashEnvironment.merging(["RELCTL_TEST_CRASH": "journal"]) { a, _ in a })
        #expect(killed.status == SIGKILL)
        // This test process holds the lock, as the running release would.
        let fd = open(repo.path + "/.git/relctl.lock", O_RDWR | O_CREAT, 0o644)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        let status = try runRelctl(["status"], in: repo.path)
        #expect(status.stdout.contains("release:       1.3.0 (v1.3.0) in progress, after step 'planned'"), "\(status.stdout)")
        #expect(status.stdout.contains("a relctl release (pid "))
        let json = try runRelctl(["status", "--json"], in: repo.path)
        #expect(json.stdout.contains(#""running":true"#), "\(json.stdout)")
        // A dry run may run beside a real release: it is not refused for the journal.
        let dry = try runRelctl(["release", "--dry-run"], in: repo.path)
        #expect(!dry.stderr.contains("was interrupted"), "\(dry.stderr)")
        // A real run waits for the lock. The file names the killed run (its pid is gone), not this holder, which
        // wrote nothing: the holder is only "another relctl command".
        let real = try runRelctl(["release"], in: repo.path)
        #expect(real.status == 1)
        #expect(real.stderr.contains("another relctl command is running on this repository; wait for it to finish"), "\(real.stderr)")
    }
}

@Suite("relctl release after a crash, on another branch")
struct ReleaseRecoveryBranchTests {
    /// The files to put back are the work tree's: with another branch checked out, the rerun names the branch to
    /// check out and touches nothing; back on it, the rerun finishes.
    @Test func theRerunWaitsForTheReleaseBranch() throws {
        let (repo, _) = try CrashScenario.changelogOff.make()
        let killed = try runRelctl(["release"], in: repo.path,
                                   environment: crashEnvironment.merging(["RELCTL_TEST_CRASH": "commit"]) { a, _ in a })
        #expect(killed.status == SIGKILL)
        try repo.git(["checkout", "-q", "-b", "release/next", "v1.2.3"])
        let before = try repo.snapshot()
        let rerun = try runRelctl(["release"], in: repo.path)
        #expect(rerun.status == 1)
        #expect(rerun.stderr.contains("was made on main, but HEAD is now release/next; check out main (git checkout main) and rerun 'relctl release'"), "\(rerun.stderr)")
        #expect(try repo.snapshot() == before)
        try repo.git(["checkout", "-q", "main"])
        let back = try runRelctl(["release"], in: repo.path, environment: crashEnvironment)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stderr.contains("note: finished the interrupted release 1.3.0"))
        try expectOneCleanRelease(repo, remote: nil, scenario: .changelogOff)
    }
}
