import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// The hook runs the real relctl binary, from a real `git commit`.
@Suite("relctl hooks: the commit-msg hook in a real repository")
struct HooksCommandTests {
    /// `git commit` with the message, as a developer runs it (hooks on); returns git's result.
    func gitCommit(_ repo: TestRepository, _ message: String) throws -> ProcessResult {
        try runProcess(TestRepository.gitPath, ["-C", repo.path, "commit", "--allow-empty", "-q", "-m", message],
                       environment: repo.gitEnvironment())
    }

    func install(_ repo: TestRepository, _ extra: [String] = []) throws -> ProcessResult {
        try runRelctl(["hooks", "install"] + extra, in: repo.path)
    }

    @Test func aBadMessageIsRejectedAndAGoodOneAccepted() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        let installed = try install(repo)
        #expect(installed.status == 0)
        #expect(installed.stdout == "installed .git/hooks/commit-msg: runs \(try relctlExecutable()) lint --message-file (else relctl on PATH)\n")
        let hook = try repo.read(".git/hooks/commit-msg")
        #expect(hook.hasPrefix("#!/bin/sh\n\(CommitMsgHook.marker)\n"))
        #expect(FileManager.default.isExecutableFile(atPath: repo.path + "/.git/hooks/commit-msg"))

        let before = try repo.head()
        let bad = try gitCommit(repo, "feet: add login")
        #expect(bad.status != 0)
        #expect(bad.stderr.contains(".git/COMMIT_EDITMSG:1: error: unknown type 'feet' in 'feet: add login' (did you mean 'feat'?"))
        #expect(try repo.head() == before)

        let good = try gitCommit(repo, "feat: add login")
        #expect(good.status == 0)
        #expect(good.stderr.isEmpty)
        #expect(try repo.head() != before)
    }

    @Test func itFollowsCoreHooksPathRelativeToTheWorkTree() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        try repo.git(["config", "core.hooksPath", ".husky"])
        try FileManager.default.createDirectory(atPath: repo.path + "/src", withIntermediateDirectories: true)
        // Run from a sub-folder: the relative path is still the work tree's.
        let installed = try runRelctl(["hooks", "install"], in: repo.path + "/src")
        #expect(installed.status == 0)
        #expect(installed.stdout.hasPrefix("installed .husky/commit-msg: "))
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.git/hooks/commit-msg"))
        #expect(try gitCommit(repo, "fix:no space").status != 0)
        #expect(try gitCommit(repo, "fix: a space").status == 0)
    }

    @Test func aLinkedWorktreeSharesTheRepositorysHooks() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        let folder = try makeTempDirectory(prefix: "relctl-worktree")
        try repo.git(["worktree", "add", "-q", "-b", "topic", folder + "/wt"])
        let worktree = try TestRepository(existing: folder + "/wt")
        let installed = try install(worktree)
        #expect(installed.status == 0)
        #expect(installed.stdout.hasPrefix("installed \(repo.path)/.git/hooks/commit-msg: "))
        #expect(try gitCommit(worktree, "feet: x").status != 0)
        #expect(try gitCommit(repo, "feet: x").status != 0)
    }

    @Test func anotherHookIsNeverReplacedWithoutForce() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        let theirs = "#!/bin/sh\nexec npx commitlint --edit \"$1\"\n"
        try repo.write(".git/hooks/commit-msg", theirs)
        let refused = try install(repo)
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: .git/hooks/commit-msg exists and was not written by relctl; left as it is (call 'relctl lint --message-file \"$1\"' from it, or replace it with 'relctl hooks install --force')\n")
        #expect(try repo.read(".git/hooks/commit-msg") == theirs)
        let uninstall = try runRelctl(["hooks", "uninstall"], in: repo.path)
        #expect(uninstall.status == 1)
        #expect(try repo.read(".git/hooks/commit-msg") == theirs)

        let forced = try install(repo, ["--force"])
        #expect(forced.status == 0)
        #expect(forced.stdout.hasPrefix("replaced the hook in .git/hooks/commit-msg"))
        // Installing again updates relctl's own hook without --force.
        let again = try install(repo)
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("updated .git/hooks/commit-msg"))
    }

    @Test func uninstallRemovesOnlyRelctlsHook() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        #expect(try install(repo).status == 0)
        let removed = try runRelctl(["hooks", "uninstall"], in: repo.path)
        #expect(removed.status == 0)
        #expect(removed.stdout == "removed .git/hooks/commit-msg\n")
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.git/hooks/commit-msg"))
        #expect(try gitCommit(repo, "feet: no hook any more").status == 0)
        let nothing = try runRelctl(["hooks", "uninstall"], in: repo.path)
        #expect(nothing.status == 0)
        #expect(nothing.stderr == "no commit-msg hook at .git/hooks/commit-msg; nothing to remove\n")
    }

    @Test func theHookFallsBackToPATHAndNeverBlocksWhenRelctlIsGone() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        let script = CommitMsgHook.script(executable: "/nonexistent/relctl")
        try repo.write(".git/hooks/commit-msg", script)
        try runProcess("/bin/chmod", ["+x", repo.path + "/.git/hooks/commit-msg"])
        // relctl on PATH: the built one.
        let bin = (try relctlExecutable() as NSString).deletingLastPathComponent
        var env = repo.gitEnvironment()
        env["PATH"] = bin + ":/usr/bin:/bin"
        let rejected = try runProcess(TestRepository.gitPath, ["-C", repo.path, "commit", "--allow-empty", "-q", "-m", "feet: x"], environment: env)
        #expect(rejected.status != 0)
        #expect(rejected.stderr.contains("unknown type 'feet'"))
        // No relctl anywhere: the commit goes through, with a warning.
        env["PATH"] = "/usr/bin:/bin"
        let through = try runProcess(TestRepository.gitPath, ["-C", repo.path, "commit", "--allow-empty", "-q", "-m", "feet: x"], environment: env)
        #expect(through.status == 0)
        #expect(through.stderr.contains("relctl commit-msg hook: relctl is neither at /nonexistent/relctl nor on PATH; the message was not checked"))
    }

    @Test func usageMistakes() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        #expect(relctl(["hooks", "instal"], in: repo.path).stderr.hasPrefix("error: unknown subcommand 'instal' of 'relctl hooks'; did you mean 'install'?"))
        #expect(relctl(["hooks", "uninstall", "--force"], in: repo.path).code == 64)
        #expect(relctl(["hooks"], in: repo.path).code == 64)
    }
}
