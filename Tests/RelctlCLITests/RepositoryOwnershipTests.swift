import Foundation
import Testing
import RelctlTestSupport

/// A repository owned by another user: git's "dubious ownership" message and its safe.directory fix, not "is not
/// inside a git repository"; the fix, followed, works, and `safe.directory=*` trusts every repository as in git.
/// The repository is given to uid 12345 and relctl runs as this (root) process's user.
@Suite("a repository owned by another user", .enabled(if: geteuid() == 0, "chown needs root"))
struct RepositoryOwnershipTests {
    /// A released repository with a feature to release, owned by uid 12345, and a fresh HOME with no git config.
    func foreignRepository() throws -> (TestRepository, home: String) {
        let repo = try releaseRepository(["feat: offline mode"])
        try FileManager.default.createDirectory(atPath: repo.path + "/app/src", withIntermediateDirectories: true)
        let home = try makeTempDirectory(prefix: "relctl-home")
        #expect(runProcess(["chown", "-R", "12345:12345", repo.path]) == 0)
        return (repo, home)
    }

    func runProcess(_ arguments: [String]) -> Int32 {
        (try? RelctlTestSupport.runProcess("/usr/bin/env", arguments).status) ?? -1
    }

    func environment(_ home: String) -> [String: String] {
        ["HOME": home, "XDG_CONFIG_HOME": home + "/.config"]
    }

    func dubious(_ root: String) -> String {
        "error: open repository '\(root)': detected dubious ownership in repository at '\(root)' (owned by uid 12345, and relctl runs as uid \(geteuid())); git and relctl do not read a repository another user owns unless told to trust it: if you trust it, run: git config --global --add safe.directory '\(root)' (or '*' to trust every repository, as git allows)\n"
    }

    @Test func theDubiousOwnershipMessageAndItsFixFollowed() throws {
        let (repo, home) = try foreignRepository()
        defer { try? FileManager.default.removeItem(atPath: home) }
        // From the root, from a folder inside, and with --repo: the message names the repository's root.
        for (arguments, folder) in [(["next"], repo.path), (["next"], repo.path + "/app/src"), (["status", "--repo", repo.path], "/")] {
            let refused = try runRelctl(arguments, in: folder, environment: environment(home))
            #expect(refused.status == 1, "\(arguments) in \(folder)")
            #expect(refused.stderr == dubious(repo.path), "\(arguments) in \(folder)")
        }
        // git says the same and names the same fix.
        let git = try RelctlTestSupport.runProcess("/usr/bin/git", ["status"], in: repo.path, environment: environment(home))
        #expect(git.stderr.contains("detected dubious ownership in repository at '\(repo.path)'"))
        // The fix, followed literally (the quotes are the shell's).
        let fix = try RelctlTestSupport.runProcess("/usr/bin/git", ["config", "--global", "--add", "safe.directory", repo.path],
                                                   environment: environment(home))
        #expect(fix.status == 0, "\(fix.stderr)")
        let next = try runRelctl(["next"], in: repo.path + "/app/src", environment: environment(home))
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout == "1.3.0\n")
    }

    @Test func safeDirectoryStarTrustsEveryRepositoryAsInGit() throws {
        let (repo, home) = try foreignRepository()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let star = try RelctlTestSupport.runProcess("/usr/bin/git", ["config", "--global", "--add", "safe.directory", "*"],
                                                    environment: environment(home))
        #expect(star.status == 0)
        let next = try runRelctl(["next"], in: repo.path, environment: environment(home))
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stdout == "1.3.0\n")
        #expect(try RelctlTestSupport.runProcess("/usr/bin/git", ["status", "--short"], in: repo.path, environment: environment(home)).status == 0)
        // An empty value resets the list, in git and in relctl alike.
        _ = try RelctlTestSupport.runProcess("/usr/bin/git", ["config", "--global", "--add", "safe.directory", ""],
                                             environment: environment(home))
        let reset = try runRelctl(["next"], in: repo.path, environment: environment(home))
        #expect(reset.status == 1)
        #expect(reset.stderr == dubious(repo.path))
        #expect(try RelctlTestSupport.runProcess("/usr/bin/git", ["status"], in: repo.path, environment: environment(home)).status != 0)
    }
}
