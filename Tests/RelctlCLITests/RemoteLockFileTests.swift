import Foundation
import Testing
import RelctlTestSupport

/// git's lock files a killed push leaves in a local bare remote (`refs/heads/main.lock`, `refs/tags/v1.3.0.lock`):
/// the push names the stale lock file and the command that removes it, and following that ends in the release on
/// the remote. Lock files of relctl's own temporary references whose process is gone are removed.
@Suite("lock files left in the remote")
struct RemoteLockFileTests {
    @Test(arguments: ["refs/heads/main", "refs/tags/v1.3.0"])
    func aStaleLockInTheRemoteIsNamedWithItsRemoval(ref: String) throws {
        let (repo, remoteRepository) = try CrashScenario.push.make()
        let remote = try #require(remoteRepository)
        let lock = remote.path + "/" + ref + ".lock"
        try FileManager.default.createDirectory(atPath: (lock as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "".write(toFile: lock, atomically: false, encoding: .utf8)
        let remoteBefore = try remote.git(["for-each-ref", "--format=%(refname) %(objectname)"])
        let run = try runRelctl(["release", "--push"], in: repo.path, environment: crashEnvironment)
        #expect(run.status == 1)
        let rerun = "rerun 'relctl release --push', which finds the release made locally and only pushes"
        let fix = "if no push to 'origin' is running, remove it (rm '\(lock)') and \(rerun)"
        if ref == "refs/heads/main" {
            #expect(run.stderr.contains("\nerror: the push of main to 'origin' is blocked by git's lock file \(lock) in the remote, left by a push that was stopped; nothing was published, and the release v1.3.0 is committed and tagged locally: \(fix)\n"), "\(run.stderr)")
            #expect(try remote.git(["for-each-ref", "--format=%(refname) %(objectname)"]) == remoteBefore)
        } else {
            #expect(run.stderr.contains("\nerror: main is on 'origin' but the push of v1.3.0 to 'origin' is blocked by git's lock file \(lock) in the remote, left by a push that was stopped: \(fix)\n"), "\(run.stderr)")
            #expect(try remote.git(["rev-parse", "main"]) == (try repo.git(["rev-parse", "HEAD"])))
            #expect(try remote.git(["tag", "-l"]) == "v1.2.3\n")
        }
        // The advice, followed literally.
        #expect(unlink(lock) == 0)
        let again = try runRelctl(["release", "--push"], in: repo.path, environment: crashEnvironment)
        #expect(again.status == 0, "\(again.stderr)")
        try expectOneCleanRelease(repo, remote: remote, scenario: .push)
        #expect(try lockFiles(in: remote.path).isEmpty)
    }

    /// A push killed while libgit2 held the lock of relctl's temporary reference leaves `refs/relctl-incoming/<pid>-<n>.lock`:
    /// the next release's push removes it (its process is gone), and a successful release leaves no lock file.
    @Test func aKilledPushsTemporaryLockIsRemovedByTheNextRelease() throws {
        let (repo, remoteRepository) = try CrashScenario.push.make()
        let remote = try #require(remoteRepository)
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run()
        dead.waitUntilExit()
        let folder = remote.path + "/refs/relctl-incoming"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let stale = folder + "/\(dead.processIdentifier)-12345.lock"
        try "0123456789012345678901234567890123456789\n".write(toFile: stale, atomically: false, encoding: .utf8)
        let run = try runRelctl(["release", "--push"], in: repo.path, environment: crashEnvironment)
        #expect(run.status == 0, "\(run.stderr)")
        try expectOneCleanRelease(repo, remote: remote, scenario: .push)
        #expect(try lockFiles(in: remote.path).isEmpty)
    }

    /// Every `*.lock` file under the repository's `refs`.
    func lockFiles(in gitDir: String) throws -> [String] {
        let refs = gitDir + "/refs"
        let all = FileManager.default.enumerator(atPath: refs)?.allObjects as? [String] ?? []
        return all.filter { $0.hasSuffix(".lock") } + (FileManager.default.fileExists(atPath: gitDir + "/packed-refs.lock") ? ["packed-refs.lock"] : [])
    }
}
