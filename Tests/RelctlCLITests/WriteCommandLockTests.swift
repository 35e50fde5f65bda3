import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// Another live process holding `.git/relctl.lock` as relctl does: `flock(1)` takes the `flock` and runs a shell
/// that writes its pid (and, when given, a command) into the file, says its pid, and waits on its stdin. Held in a
/// child, not in this process: a process this test suite forks meanwhile (git) would inherit a descriptor of ours
/// until it execs and keep the lock a moment after we close it. `release()` closes the child's stdin and waits
/// for its end, when the kernel has dropped the lock.
final class HeldRepositoryLock {
    let path: String
    let pid: Int32
    private let process = Process()
    private let input = Pipe()

    init(_ repo: TestRepository, command: String? = nil) throws {
        path = repo.path + "/.git/relctl.lock"
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        let script = #"printf '%s\n' "$$" > "$1"; if [ -n "$2" ]; then printf '%s\n' "$2" >> "$1"; fi; echo "$$"; exec cat"#
        process.arguments = ["-x", "-n", path, "/bin/sh", "-c", script, "sh", path, command ?? ""]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The pid line comes once the lock is held and the file written.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
            line.append(first)
        }
        pid = try #require(Int32(String(decoding: line, as: UTF8.self)), "flock(1) did not take the lock")
    }

    func release() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    deinit { release() }

    /// The one line a command refused by this lock prints.
    func message(holder: String = "command") -> String {
        "error: another relctl \(holder) is running on this repository (pid \(pid)); wait for it to finish (its lock on \(path) ends with that process)\n"
    }
}

/// `sync`, `adopt` and the gate's decisions take the repository lock before they read anything, as `release` does: a
/// second command while one holds it fails with the lock's message and changes nothing; a dry run takes no lock.
@Suite("the repository lock: sync, adopt and the gate's decisions")
struct WriteCommandLockTests {
    /// The app at 1.2.0 (build 12), tagged, then files set to 1.3.0 (build 13) and committed without a tag.
    static func app() throws -> ChannelApp {
        let app = try ChannelApp()
        try app.setVersion("1.3.0", build: 13)
        try app.repo.commitAll("chore: set 1.3.0 by hand")
        return app
    }

    /// Each write command, on the app it needs, refused while the lock is held: nothing in the repository moves
    /// (files, index, refs, tags), and once the lock is released the same command succeeds.
    static let commands: [(name: String, arguments: [String])] = [
        ("sync", ["sync", "1.4.0"]),
        ("adopt", ["adopt"]),
        ("gate raise-min", ["gate", "raise-min", "2.5.0", "--confirm-live"]),
        ("gate keep-min", ["gate", "keep-min", "--reason", "old builds still sync"]),
        ("gate set-latest", ["gate", "set-latest", "3.0.0"]),
    ]

    static func repository(for name: String) throws -> TestRepository {
        switch name {
        case "gate set-latest": try GateApp.plain()
        case "gate raise-min", "gate keep-min": try GateApp.firebase()
        default: try app().repo
        }
    }

    @Test(arguments: commands.map(\.name))
    func aWriteCommandWhileTheLockIsHeldFailsAndChangesNothing(name: String) throws {
        let arguments = try #require(Self.commands.first { $0.name == name }).arguments
        let repo = try Self.repository(for: name)
        let environment = repo.goldenEnvironment()
        let before = try repo.snapshot()
        let tags = try repo.git(["tag"])

        let lock = try HeldRepositoryLock(repo)
        let refused = relctl(arguments, in: repo.path, environment: environment)
        #expect(refused.code == 1)
        #expect(refused.stderr == lock.message(), "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
        #expect(try repo.snapshot() == before)
        #expect(try repo.git(["tag"]) == tags)

        // A dry run takes no lock: it runs beside the holder and writes nothing either.
        let dryRun = relctl(arguments + ["--dry-run"], in: repo.path, environment: environment)
        #expect(dryRun.code == 0, "\(dryRun.stderr)")
        #expect(try repo.snapshot() == before)

        lock.release()
        let done = relctl(arguments, in: repo.path, environment: environment)
        #expect(done.code == 0, "\(done.stderr)")
        let after = try repo.snapshot(), tagsAfter = try repo.git(["tag"])
        #expect(after != before || tagsAfter != tags, "the command did its work once the lock was free")
    }

    /// The lock comes before the config is read: with a config that does not even parse, the held lock is what the
    /// command reports (a command that read first would report the config).
    @Test(arguments: commands.map(\.name))
    func theLockIsTakenBeforeTheConfigIsRead(name: String) throws {
        let arguments = try #require(Self.commands.first { $0.name == name }).arguments
        let repo = try Self.repository(for: name)
        try repo.write(".relctl.json", "{ \"files\": [ this is not JSON\n")
        let lock = try HeldRepositoryLock(repo)
        let refused = relctl(arguments, in: repo.path, environment: repo.goldenEnvironment())
        #expect(refused.stderr == lock.message(), "\(refused.stderr)")
        lock.release()
        let unlocked = relctl(arguments, in: repo.path, environment: repo.goldenEnvironment())
        #expect(unlocked.code == 1)
        #expect(unlocked.stderr.hasPrefix("error: .relctl.json:"), "\(unlocked.stderr)")
    }

    /// The lock file names its holder's command, so a release started during a sync says what it waits for.
    @Test func theMessageNamesTheCommandHoldingTheLock() throws {
        let app = try Self.app()
        let repo = app.repo
        for holder in ["sync", "gate raise-min", "release"] {
            let lock = try HeldRepositoryLock(repo, command: holder)
            let refused = relctl(["release"], in: repo.path, environment: fixedDate)
            #expect(refused.stderr == lock.message(holder: holder), "\(refused.stderr)")
            lock.release()
        }
        // Anything else in the file is not named.
        let lock = try HeldRepositoryLock(repo, command: "rm -rf /")
        #expect(relctl(["sync", "1.4.0"], in: repo.path).stderr == lock.message())
    }

    /// What a command writes into the lock file: its pid, then its name, for the next run's message.
    @Test func aCommandRecordsItselfInTheLockFile() throws {
        let app = try Self.app()
        let lock = try RepositoryLock.acquire(gitDir: app.repo.path + "/.git", command: "sync")
        #expect(try String(contentsOfFile: lock.path, encoding: .utf8) == "\(getpid())\nsync\n")
        lock.release()
    }
}
