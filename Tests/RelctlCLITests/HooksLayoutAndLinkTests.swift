import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// `hooks install`/`uninstall` under husky's layouts, next to symbolic links, and in a hook the user shares with relctl.
@Suite("relctl hooks: husky layouts, symbolic links, the user's own lines")
struct HooksLayoutAndLinkTests {
    func gitCommit(_ repo: TestRepository, _ message: String, path: String? = nil) throws -> ProcessResult {
        var env = repo.gitEnvironment()
        if let path { env["PATH"] = path }
        return try runProcess(TestRepository.gitPath, ["-C", repo.path, "commit", "--allow-empty", "-q", "-m", message], environment: env)
    }

    func hooks(_ repo: TestRepository, _ arguments: [String]) throws -> ProcessResult {
        try runRelctl(["hooks"] + arguments, in: repo.path)
    }

    func line(_ verb: String, _ hook: String, _ tail: String = "") throws -> String {
        "\(verb): runs \(try relctlExecutable()) lint --message-file (else relctl on PATH)\(tail)\n"
    }

    func isLink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }

    // MARK: husky

    /// husky 9's generated `h`, as `npx husky` writes it into `.husky/_/`.
    static let huskyH = """
        #!/usr/bin/env sh
        [ "$HUSKY" = "2" ] && set -x
        n=$(basename "$0")
        s=$(dirname "$(dirname "$0")")/$n

        [ ! -f "$s" ] && exit 0

        i="${XDG_CONFIG_HOME:-$HOME/.config}/husky/init.sh"
        [ -f "$i" ] && . "$i"

        [ "${HUSKY-}" = "0" ] && exit 0

        export PATH="node_modules/.bin:$PATH"
        sh -e "$s" "$@"
        c=$?

        [ $c != 0 ] && echo "husky - $n script failed (code $c)"
        [ $c = 127 ] && echo "husky - command not found in PATH=$PATH"
        exit $c

        """
    static let huskyRunner = "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n"

    /// A husky v9 layout, as `npx husky init` leaves it: core.hooksPath = .husky/_, husky's scripts in .husky/_.
    func huskyV9() throws -> TestRepository {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        try repo.write(".husky/_/h", Self.huskyH)
        try repo.write(".husky/_/.gitignore", "*\n")
        for hook in ["commit-msg", "pre-commit", "pre-push", "prepare-commit-msg"] {
            try repo.write(".husky/_/\(hook)", Self.huskyRunner)
        }
        try runProcess("/bin/chmod", ["-R", "+x", repo.path + "/.husky/_"])
        try repo.git(["config", "core.hooksPath", ".husky/_"])
        return repo
    }

    @Test func huskyV9GetsTheUsersHookNotHuskysGeneratedOne() throws {
        let repo = try huskyV9()
        let installed = try hooks(repo, ["install"])
        #expect(installed.status == 0)
        #expect(installed.stdout == (try line("installed .husky/commit-msg", "", "; husky runs it from .husky/_/commit-msg")))
        #expect(try repo.read(".husky/_/commit-msg") == Self.huskyRunner)
        #expect(try repo.read(".husky/commit-msg").contains(CommitMsgHook.marker))
        // git runs husky's runner, which runs .husky/commit-msg: relctl checks the message.
        let bad = try gitCommit(repo, "feet: login")
        #expect(bad.status != 0)
        #expect(bad.stderr.hasPrefix(".git/COMMIT_EDITMSG:1: error: unknown type 'feet'"))
        #expect(try gitCommit(repo, "feat: login").status == 0)
        let removed = try hooks(repo, ["uninstall"])
        #expect(removed.stdout == "removed .husky/commit-msg\n")
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.husky/commit-msg"))
        #expect(try repo.read(".husky/_/commit-msg") == Self.huskyRunner)
        #expect(try gitCommit(repo, "feet: no hook").status == 0)
    }

    @Test func huskyV9AdvicePointsAtTheUsersHookAndWorksWhenFollowed() throws {
        let repo = try huskyV9()
        let theirs = "npx --no -- commitlint --edit $1\n"
        try repo.write(".husky/commit-msg", theirs)
        let refused = try hooks(repo, ["install"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: .husky/commit-msg exists and was not written by relctl; left as it is (call 'relctl lint --message-file \"$1\"' from it, or replace it with 'relctl hooks install --force')\n")
        #expect(try repo.read(".husky/commit-msg") == theirs)
        // Following the advice (relctl on PATH, as for a teammate; commitlint replaced by a stand-in).
        try repo.write(".husky/commit-msg", "echo commitlint-ran >&2\nrelctl lint --message-file \"$1\"\n")
        let bin = (try relctlExecutable() as NSString).deletingLastPathComponent
        let bad = try gitCommit(repo, "feet: login", path: bin + ":/usr/bin:/bin")
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("commitlint-ran\n.git/COMMIT_EDITMSG:1: error: unknown type 'feet'"))
        #expect(try gitCommit(repo, "feat: login", path: bin + ":/usr/bin:/bin").status == 0)
    }

    @Test func huskyV9RepairsTheGeneratedHookAnOlderRelctlReplaced() throws {
        let repo = try huskyV9()
        // What relctl wrote into .husky/_/commit-msg before it knew husky v9.
        try repo.write(".husky/_/commit-msg", Self.legacyScript)
        let installed = try hooks(repo, ["install"])
        #expect(installed.status == 0)
        #expect(try repo.read(".husky/_/commit-msg") == Self.huskyRunner)
        #expect(FileManager.default.isExecutableFile(atPath: repo.path + "/.husky/_/commit-msg"))
        #expect(try gitCommit(repo, "feet: login").status != 0)
    }

    @Test func huskyV9BeforeHuskyGeneratedItsRunnerGetsANote() throws {
        let repo = try huskyV9()
        try FileManager.default.removeItem(atPath: repo.path + "/.husky/_/commit-msg")
        let installed = try hooks(repo, ["install"])
        #expect(installed.status == 0)
        #expect(installed.stderr == "note: .husky/_/commit-msg, husky's runner of .husky/commit-msg, does not exist yet, so git runs nothing; run 'npx husky' (npm install runs it through the \"prepare\" script)\n")
        #expect(try gitCommit(repo, "feet: login").status == 0)   // what the note says: nothing runs yet
        // What `npx husky` does, then the hook runs.
        try repo.write(".husky/_/commit-msg", Self.huskyRunner)
        try runProcess("/bin/chmod", ["+x", repo.path + "/.husky/_/commit-msg"])
        #expect(try gitCommit(repo, "feet: login").status != 0)
        #expect(try hooks(repo, ["install"]).stderr == "")
    }

    @Test func aHooksPathTheUserSetOutsideTheWorkTreeIsTheirs() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        let shared = try makeTempDirectory(prefix: "relctl-shared-hooks")
        // A relative path that climbs out of the work tree (through a link of the user's, with a trailing slash):
        // only the user's own config can say that, and relctl writes there.
        let repoParent = (repo.path as NSString).deletingLastPathComponent
        try FileManager.default.createSymbolicLink(atPath: repoParent + "/" + (shared as NSString).lastPathComponent + "-link", withDestinationPath: shared)
        try repo.git(["config", "core.hooksPath", "../" + (shared as NSString).lastPathComponent + "-link/hooks/"])
        let installed = try hooks(repo, ["install"])
        #expect(installed.status == 0)
        #expect(FileManager.default.isExecutableFile(atPath: shared + "/hooks/commit-msg"))
        #expect(try gitCommit(repo, "feet: login").status != 0)
    }

    @Test func huskyV4KeepsItsRunnerAndGetsThePackageJSONAdvice() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        let runner = "#!/bin/sh\n# husky\n\n# Created by Husky v4.3.8 (https://github.com/typicode/husky#readme)\n. \"$(dirname \"$0\")/husky.sh\"\n"
        try repo.write(".git/hooks/commit-msg", runner)
        try repo.write(".git/hooks/husky.sh", "#!/bin/sh\n")
        let refused = try hooks(repo, ["install"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: .git/hooks/commit-msg is husky v4's runner, not written by relctl; left as it is (add \"commit-msg\": \"relctl lint --message-file $HUSKY_GIT_PARAMS\" to \"husky\": {\"hooks\": {…}} in package.json, or replace it with 'relctl hooks install --force')\n")
        #expect(try repo.read(".git/hooks/commit-msg") == runner)
    }

    @Test func huskyV5To8WritesTheHookGitRuns() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        try repo.write(".husky/_/husky.sh", "#!/usr/bin/env sh\n")
        try repo.git(["config", "core.hooksPath", ".husky"])
        let installed = try hooks(repo, ["install"])
        #expect(installed.stdout == (try line("installed .husky/commit-msg", "")))
        #expect(try gitCommit(repo, "feet: login").status != 0)
    }

    // MARK: Symbolic links

    @Test func aCommittedTemporaryFileLinkIsNeverWrittenThrough() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        let outside = try makeTempDirectory(prefix: "relctl-outside") + "/bashrc"
        try Data("export KEEP=me\n".utf8).write(to: URL(fileURLWithPath: outside))
        try FileManager.default.createDirectory(atPath: repo.path + "/.husky", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/.husky/commit-msg.relctl-tmp", withDestinationPath: outside)
        try repo.git(["add", ".husky"])
        try repo.git(["commit", "-q", "-m", "chore: a link"])
        try repo.git(["config", "core.hooksPath", ".husky"])
        let installed = try hooks(repo, ["install"])
        #expect(installed.status == 0)
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "export KEEP=me\n")
        #expect(!FileManager.default.isExecutableFile(atPath: outside))
        #expect(isLink(repo.path + "/.husky/commit-msg.relctl-tmp"))
        #expect(try gitCommit(repo, "feet: login").status != 0)
        // Nothing else left behind in the folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: repo.path + "/.husky").sorted() == ["commit-msg", "commit-msg.relctl-tmp"])
        #expect(try hooks(repo, ["uninstall"]).status == 0)
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "export KEEP=me\n")
    }

    @Test func aHookThatLinksOutsideIsRefusedAndTheFixWorks() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        let outside = try makeTempDirectory(prefix: "relctl-outside") + "/profile"
        // Even a file that looks like relctl's hook: it is outside, relctl does not touch it.
        let theirs = CommitMsgHook.script(executable: "/usr/local/bin/relctl")
        try Data(theirs.utf8).write(to: URL(fileURLWithPath: outside))
        try FileManager.default.createDirectory(atPath: repo.path + "/.husky", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/.husky/commit-msg", withDestinationPath: outside)
        try repo.git(["config", "core.hooksPath", ".husky"])
        let refused = try hooks(repo, ["install"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: .husky/commit-msg is a symbolic link to \(outside), outside the repository; relctl does not write through it, so both are left as they are (remove the link with 'rm .husky/commit-msg' and rerun the command, or call 'relctl lint --message-file \"$1\"' from \(outside) yourself)\n")
        #expect(try hooks(repo, ["install", "--force"]).status == 1)
        let uninstall = try hooks(repo, ["uninstall"])
        #expect(uninstall.status == 1)
        #expect(uninstall.stderr == refused.stderr)
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == theirs)
        #expect(isLink(repo.path + "/.husky/commit-msg"))
        // The fix, followed.
        try runProcess("/bin/rm", [".husky/commit-msg"], in: repo.path)
        #expect(try hooks(repo, ["install"]).status == 0)
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == theirs)
        #expect(try gitCommit(repo, "feet: login").status != 0)
    }

    @Test func aDanglingLinkIsRefused() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        let missing = try makeTempDirectory(prefix: "relctl-outside") + "/created-by-no-one"
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/.git/hooks/commit-msg", withDestinationPath: missing)
        let refused = try hooks(repo, ["install"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: .git/hooks/commit-msg is a symbolic link to \(missing), which does not exist; left as it is (remove the link with 'rm .git/hooks/commit-msg' and rerun the command)\n")
        #expect(!FileManager.default.fileExists(atPath: missing))
        try runProcess("/bin/rm", [".git/hooks/commit-msg"], in: repo.path)
        #expect(try hooks(repo, ["install"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: missing))
        #expect(try gitCommit(repo, "feet: login").status != 0)
    }

    @Test func aLinkInsideTheRepositoryIsFollowedAndKept() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        // A team's shared hooks folder, linked from .git/hooks.
        try repo.write("scripts/hooks/commit-msg", CommitMsgHook.script(executable: "/old/relctl"))
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/.git/hooks/commit-msg", withDestinationPath: "../../scripts/hooks/commit-msg")
        let updated = try hooks(repo, ["install"])
        #expect(updated.status == 0)
        #expect(updated.stdout == (try line("updated .git/hooks/commit-msg", "")))
        #expect(isLink(repo.path + "/.git/hooks/commit-msg"))
        #expect(try repo.read("scripts/hooks/commit-msg") == CommitMsgHook.script(executable: try relctlExecutable()))
        #expect(try gitCommit(repo, "feet: login").status != 0)
        #expect(try hooks(repo, ["uninstall"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/scripts/hooks/commit-msg"))
        #expect(!isLink(repo.path + "/.git/hooks/commit-msg"))
    }

    @Test func aHooksFolderThatLinksOutsideIsRefused() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        let outside = try makeTempDirectory(prefix: "relctl-outside")
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/githooks", withDestinationPath: outside)
        try repo.git(["config", "core.hooksPath", "githooks"])
        let refused = try hooks(repo, ["install"])
        #expect(refused.status == 1)
        let resolved = try #require(realpath(outside, nil))
        defer { free(resolved) }
        let real = String(cString: resolved)
        #expect(refused.stderr == "error: githooks leads outside the repository (to \(real)) through a symbolic link; relctl does not write a hook there (remove the link, or point core.hooksPath at a folder inside the repository)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
        // The fix: a folder inside the repository.
        try repo.git(["config", "core.hooksPath", "tools/githooks"])
        #expect(try hooks(repo, ["install"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
        #expect(try gitCommit(repo, "feet: login").status != 0)
    }

    // MARK: The user's lines

    /// The hook relctl wrote before it kept the user's lines: it ended with `exec`.
    static let legacyScript = """
        #!/bin/sh
        \(CommitMsgHook.marker)
        # Checks the message with 'relctl lint --message-file'; a message with errors stops the commit.
        installed='/old/relctl'
        relctl=$installed
        if [ ! -x "$relctl" ]; then
            relctl=$(command -v relctl) || {
                echo "relctl commit-msg hook: relctl is neither at $installed nor on PATH; the message was not checked" >&2
                exit 0
            }
        fi
        exec "$relctl" lint --message-file "$1"

        """

    @Test func theUsersLinesAroundRelctlsAreKept() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        let executable = try relctlExecutable()
        let block = CommitMsgHook.block(executable: "/old/relctl").joined(separator: "\n")
        try repo.write(".git/hooks/commit-msg", "#!/bin/sh\necho before-ran >&2\n\n\(block)\n\necho after-ran >&2\n")
        let updated = try hooks(repo, ["install"])
        #expect(updated.status == 0)
        #expect(updated.stdout == (try line("updated relctl's lines in .git/hooks/commit-msg (kept your 2 other lines)", "")))
        let newBlock = CommitMsgHook.block(executable: executable).joined(separator: "\n")
        #expect(try repo.read(".git/hooks/commit-msg") == "#!/bin/sh\necho before-ran >&2\n\n\(newBlock)\n\necho after-ran >&2\n")
        // Both run around relctl's check; a bad message stops before the user's later lines.
        let bad = try gitCommit(repo, "feet: login")
        #expect(bad.status != 0)
        #expect(bad.stderr.hasPrefix("before-ran\n.git/COMMIT_EDITMSG:1: error:"))
        #expect(!bad.stderr.contains("after-ran"))
        #expect(try gitCommit(repo, "feat: login").stderr == "before-ran\nafter-ran\n")
        // Uninstall removes relctl's lines only.
        let removed = try hooks(repo, ["uninstall"])
        #expect(removed.status == 0)
        #expect(removed.stdout == "removed relctl's lines from .git/hooks/commit-msg (kept your 2 other lines)\n")
        #expect(try repo.read(".git/hooks/commit-msg") == "#!/bin/sh\necho before-ran >&2\n\necho after-ran >&2\n")
        #expect(FileManager.default.isExecutableFile(atPath: repo.path + "/.git/hooks/commit-msg"))
        #expect(try gitCommit(repo, "feet: unchecked now").stderr == "before-ran\nafter-ran\n")
        // Now it is the user's own hook: left alone.
        #expect(try hooks(repo, ["uninstall"]).status == 1)
    }

    @Test func theOldHookWithTheUsersLinesAfterItsExecIsUpdatedInPlace() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        try repo.write(".git/hooks/commit-msg", Self.legacyScript + "echo mine >&2\n")
        try runProcess("/bin/chmod", ["+x", repo.path + "/.git/hooks/commit-msg"])
        let updated = try hooks(repo, ["install"])
        #expect(updated.stdout == (try line("updated relctl's lines in .git/hooks/commit-msg (kept your 1 other line)", "")))
        let block = CommitMsgHook.block(executable: try relctlExecutable()).joined(separator: "\n")
        #expect(try repo.read(".git/hooks/commit-msg") == "#!/bin/sh\n\(block)\necho mine >&2\n")
        #expect(try gitCommit(repo, "feat: login").stderr == "mine\n")
        // The old hook alone is relctl's alone: replaced, then removed as a whole.
        try repo.write(".git/hooks/commit-msg", Self.legacyScript)
        #expect(try hooks(repo, ["install"]).stdout == (try line("updated .git/hooks/commit-msg", "")))
        #expect(try hooks(repo, ["uninstall"]).stdout == "removed .git/hooks/commit-msg\n")
    }

    @Test func theUsersLinesInsideRelctlsAreNeverOverwritten() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        // The only place a line ran in relctl's older hook: before its exec.
        let edited = Self.legacyScript.replacingOccurrences(of: "exec \"$relctl\"", with: "npx commitlint --edit \"$1\"\nexec \"$relctl\"")
        try repo.write(".git/hooks/commit-msg", edited)
        let refused = try hooks(repo, ["install"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: .git/hooks/commit-msg:12 is a line of yours among relctl's (between its marker line and '# end of relctl's commit-msg hook'), which relctl would overwrite; left as it is (move your lines below relctl's, after '# end of relctl's commit-msg hook' or, in a hook from an older relctl, after its 'exec' line, and rerun 'relctl hooks install', or replace the whole file with 'relctl hooks install --force')\n")
        let uninstall = try hooks(repo, ["uninstall"])
        #expect(uninstall.status == 1)
        #expect(uninstall.stderr.hasPrefix("error: .git/hooks/commit-msg:12 is a line of yours among relctl's"))
        #expect(try repo.read(".git/hooks/commit-msg") == edited)
        // The advice, followed: the line moved after the exec line (it now runs after relctl's check).
        try repo.write(".git/hooks/commit-msg", Self.legacyScript + "npx commitlint --edit \"$1\"\n")
        let updated = try hooks(repo, ["install"])
        #expect(updated.status == 0)
        #expect(try repo.read(".git/hooks/commit-msg").hasSuffix("\(CommitMsgHook.endMarker)\nnpx commitlint --edit \"$1\"\n"))
        // Inside the new block too.
        let block = CommitMsgHook.block(executable: "/x/relctl")
        try repo.write(".git/hooks/commit-msg", "#!/bin/sh\n" + (block.dropLast() + ["echo mine", block.last!]).joined(separator: "\n") + "\n")
        #expect(try hooks(repo, ["uninstall"]).stderr.hasPrefix("error: .git/hooks/commit-msg:12 is a line of yours among relctl's"))
        #expect(try hooks(repo, ["install", "--force"]).status == 0)
    }

    @Test func relctlsMarkerWithoutItsEndIsRefusedUnlessForced() throws {
        let repo = try TestRepository()
        try repo.commit("chore: initial commit")
        let edited = "#!/bin/sh\n\(CommitMsgHook.marker)\nnpx commitlint --edit \"$1\"\n"
        try repo.write(".git/hooks/commit-msg", edited)
        let refused = try hooks(repo, ["install"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: .git/hooks/commit-msg holds relctl's marker line but not the line that ends relctl's lines ('# end of relctl's commit-msg hook'), so relctl cannot tell its lines from yours; left as it is (delete relctl's lines from it and rerun 'relctl hooks install', or replace the whole file with 'relctl hooks install --force')\n")
        let uninstall = try hooks(repo, ["uninstall"])
        #expect(uninstall.status == 1)
        #expect(uninstall.stderr == "error: .git/hooks/commit-msg holds relctl's marker line but not the line that ends relctl's lines ('# end of relctl's commit-msg hook'), so relctl cannot tell its lines from yours; left as it is (delete relctl's lines from it and rerun 'relctl hooks uninstall')\n")
        #expect(try repo.read(".git/hooks/commit-msg") == edited)
        // The advice, followed: relctl's line deleted, then install refuses as for any other hook.
        try repo.write(".git/hooks/commit-msg", "#!/bin/sh\nnpx commitlint --edit \"$1\"\n")
        #expect(try hooks(repo, ["install"]).stderr.hasPrefix("error: .git/hooks/commit-msg exists and was not written by relctl"))
        try repo.write(".git/hooks/commit-msg", edited)
        let forced = try hooks(repo, ["install", "--force"])
        #expect(forced.status == 0)
        #expect(try repo.read(".git/hooks/commit-msg") == CommitMsgHook.script(executable: try relctlExecutable()))
    }
}
