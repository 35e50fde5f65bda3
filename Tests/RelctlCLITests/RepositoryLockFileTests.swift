import Foundation
import Testing
import RelctlTestSupport

/// `.git/relctl.lock` is opened without following links and must be a regular file of this user with one name:
/// otherwise relctl would truncate another file and write its pid into it, or create a link's target.
@Suite("the repository lock file as untrusted input")
struct RepositoryLockFileTests {
    @Test(arguments: ["symbolic", "dangling", "hard", "folder", "fifo", "other user"])
    func aLockFileThatIsNotRelctlsIsRefusedAndNothingIsWritten(kind: String) throws {
        let (repo, _) = try CrashScenario.changelogOff.make()
        let folder = NSTemporaryDirectory() + "relctl-lock-outside-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let victim = folder + "/victim.txt"
        try "precious\n".write(toFile: victim, atomically: true, encoding: .utf8)
        let lock = repo.path + "/.git/relctl.lock"
        let problem: String
        switch kind {
        case "symbolic":
            try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: victim)
            problem = "is a symbolic link"
        case "dangling":
            try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: folder + "/created.txt")
            problem = "is a symbolic link"
        case "hard":
            try FileManager.default.linkItem(atPath: victim, toPath: lock)
            problem = "is a hard link (2 names for one file)"
        case "folder":
            try FileManager.default.createDirectory(atPath: lock, withIntermediateDirectories: false)
            problem = "is not a regular file"
        case "fifo":
            #expect(mkfifo(lock, 0o644) == 0)
            problem = "is not a regular file"
        default:
            try "".write(toFile: lock, atomically: false, encoding: .utf8)
            #expect(chown(lock, 12345, 12345) == 0)
            problem = "is owned by another user (uid 12345)"
        }
        let before = try repo.snapshot()
        for arguments in [["release"], ["sync", "1.3.0"], ["adopt"]] {
            let run = try runRelctl(arguments, in: repo.path)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.stderr == "error: the lock \(lock) \(problem), not the file relctl keeps there; relctl writes no file through a link or into another user's file: delete it (rm \(kind == "folder" ? "-r " : "")\(lock)) and rerun\n", "\(arguments)")
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        #expect(!FileManager.default.fileExists(atPath: folder + "/created.txt"))
        #expect(try repo.snapshot() == before)
        // `status` reads the lock without following it either, and says nothing of a release running.
        let status = try runRelctl(["status"], in: repo.path)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(!status.stdout.contains("in progress"))
        // The fix, followed literally.
        if kind == "folder" { try FileManager.default.removeItem(atPath: lock) } else { #expect(unlink(lock) == 0) }
        let again = try runRelctl(["release"], in: repo.path, environment: crashEnvironment)
        #expect(again.status == 0, "\(again.stderr)")
        try expectOneCleanRelease(repo, remote: nil, scenario: .changelogOff)
        var st = stat()
        #expect(lstat(lock, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG && st.st_nlink == 1)
    }
}
