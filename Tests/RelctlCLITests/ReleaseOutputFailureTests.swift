import Foundation
import Testing
import RelctlTestSupport

/// stdout that cannot be written: a full device, a reader that went away, a closed descriptor. No crash: the release
/// is made as it would be, the lock is free for the next run, and the exit status says what happened.
@Suite("relctl release with output that cannot be written")
struct ReleaseOutputFailureTests {
    /// Runs `relctl release --push` through the shell with stdout redirected as `redirect` says.
    func release(_ repo: TestRepository, stdout redirect: String) throws -> ProcessResult {
        let command = "'\(try relctlExecutable())' release --push --repo '\(repo.path)' \(redirect)"
        return try runProcess("/bin/sh", ["-c", command], environment: ["NO_COLOR": "1"])
    }

    func pushedRepository() throws -> (TestRepository, TestRepository) {
        let remote = try TestRepository(bare: true)
        let repo = try releaseRepository(["feat: x"])
        try repo.git(["remote", "add", "origin", remote.path])
        try repo.git(["push", "-q", "origin", "main", "v1.2.3"])
        return (repo, remote)
    }

    func expectReleasedAndUnlocked(_ repo: TestRepository, _ remote: TestRepository) throws {
        #expect(try remote.git(["rev-parse", "v1.3.0^{commit}"]) == (try repo.git(["rev-parse", "HEAD"])))
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.git/relctl-release.json"))
        // The lock ended with the process: the next run takes it.
        let next = try runRelctl(["release", "--push"], in: repo.path)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("HEAD is already released as v1.3.0"))
    }

    @Test func aFullDeviceIsAnErrorAfterTheWorkIsDone() throws {
        let (repo, remote) = try pushedRepository()
        let result = try release(repo, stdout: ">/dev/full")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("pushed main and v1.3.0 to 'origin'"))
        // The last line relctl writes (LeakSanitizer may add its own summary after it in a sanitizer run).
        #expect(result.stderr.contains("pushed main and v1.3.0 to 'origin'\nerror: cannot write to stdout: No space left on device; the command's work is done (see the messages above), only its output is lost\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        try expectReleasedAndUnlocked(repo, remote)
    }

    /// A reader that exits before relctl writes (`| true`, or `head -0`): relctl ends as git does, by SIGPIPE, once
    /// the release is made and pushed.
    @Test func aReaderThatWentAwayEndsItBySIGPIPEAfterTheWork() throws {
        let (repo, remote) = try pushedRepository()
        // A fifo whose only reader is closed before relctl starts: every write to it fails with EPIPE.
        let script = "r=$(mktemp -u); mkfifo \"$r\"; exec 3<>\"$r\"; exec 4>\"$r\"; exec 3<&-; "
            + "'\(try relctlExecutable())' release --push --repo '\(repo.path)' >&4; echo \"status $?\" >&2; rm -f \"$r\""
        let result = try runProcess("/bin/sh", ["-c", script], environment: ["NO_COLOR": "1"])
        #expect(result.stderr.contains("pushed main and v1.3.0 to 'origin'"), "\(result.stderr)")
        #expect(result.stderr.contains("status 141"), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        try expectReleasedAndUnlocked(repo, remote)
    }

    /// stdout closed before relctl starts (`>&-`): no one wants the output; the release is made, exit 0, and no file
    /// relctl opens ever takes stdout's place.
    @Test func aClosedStdoutIsDropped() throws {
        let (repo, remote) = try pushedRepository()
        let result = try release(repo, stdout: ">&-")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("released 1.3.0"))
        // The lock file holds a pid and the command, and nothing relctl printed.
        #expect(try repo.read(".git/relctl.lock").range(of: "^[0-9]+\nrelease\n$", options: .regularExpression) != nil)
        try expectReleasedAndUnlocked(repo, remote)
    }

    /// stderr closed too (`>&- 2>&-`): nothing to say anything on, and still the release is made, exit 0.
    @Test func closedStdoutAndStderrStillRelease() throws {
        let (repo, remote) = try pushedRepository()
        let result = try release(repo, stdout: ">&- 2>&-")
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        try expectReleasedAndUnlocked(repo, remote)
    }
}
