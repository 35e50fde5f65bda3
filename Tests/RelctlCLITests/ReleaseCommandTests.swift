import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// A release-ready repository: identity in its own config, a `v1.2.3` tag, then the given commits. `config`: the
/// `.relctl.json` committed with it (`{}`, the defaults, unless given; nil: none, as before `relctl init`).
func releaseRepository(_ messages: [String], config: String? = "{}\n") throws -> TestRepository {
    let repo = try TestRepository()
    try repo.git(["config", "user.name", "Release Bot"])
    try repo.git(["config", "user.email", "bot@example.com"])
    try repo.write("CHANGELOG.md", "# Changelog\n\nAll notable changes.\n\n## 1.2.3 (2026-01-01)\n\n* old entry\n")
    if let config { try repo.write(".relctl.json", config) }
    try repo.commit("chore: initial commit")
    try repo.tag("v1.2.3")
    for message in messages { try repo.commit(message) }
    return repo
}

let fixedDate = ["SOURCE_DATE_EPOCH": "1790000000"]   // 2026-09-21

@Suite("relctl release")
struct ReleaseCommandTests {
    @Test func minorReleaseCommitsTheChangelogAndTags() throws {
        let repo = try releaseRepository(["feat(ui): dark mode", "fix: crash on start"])
        let result = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        // The whole output and the whole changelog: the new section above the old one.
        expectTranscript(["release"], result, matches: "release/minor-release.txt", repo: repo,
                         sections: [("CHANGELOG.md", try repo.read("CHANGELOG.md"))])
        #expect(try repo.git(["log", "-1", "--format=%s"]) == "chore(release): 1.3.0\n")
        #expect(try repo.git(["cat-file", "-t", "v1.3.0"]) == "tag\n")
        #expect(try repo.git(["rev-parse", "v1.3.0^{commit}"]) == (try repo.git(["rev-parse", "HEAD"])))
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.major-release-pending"))
        // Released: the next run has nothing to do.
        let again = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(again.code == 0)
        #expect(again.stdout.isEmpty)
        #expect(again.stderr == "HEAD is already released as v1.3.0\n")
    }

    @Test func patchReleaseWithCustomMessageAndChangelogPath() throws {
        let repo = try releaseRepository(["fix(api): retry on 503"], config: #"""
        {"commitMessage": "release: {tag} [skip ci]", "changelog": {"path": "docs/CHANGES.md"}}
        """#)
        let result = relctl(["release", "--json"], in: repo.path, environment: repo.goldenEnvironment())
        // The whole JSON document (the commit's id is fixed by the repository's dates) and the new changelog file.
        expectTranscript(["release", "--json"], result, matches: "release/patch-release-custom-message--json.txt", repo: repo,
                         sections: [("docs/CHANGES.md", try repo.read("docs/CHANGES.md"))])
        #expect(try repo.git(["rev-parse", "HEAD"]).hasPrefix(try #require(result.stdout.firstMatch(of: /"commit":"([0-9a-f]{40})"/)).1))
        #expect(try repo.git(["log", "-1", "--format=%s"]) == "release: v1.2.4 [skip ci]\n")
    }

    /// `"onMajor": "warn"`: the major release goes through at once, its marker in the release commit.
    @Test func majorReleaseWritesTheMarkerAndPrintsTheBanner() throws {
        let repo = try releaseRepository(["feat!: new sync protocol\n\nBREAKING CHANGE: old clients cannot sync"],
                                         config: #"{"onMajor": "warn"}"#)
        let output = try makeTempDirectory(prefix: "relctl-gh")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let env = repo.goldenEnvironment(["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": output + "/out", "GITHUB_STEP_SUMMARY": output + "/summary"])
        let result = relctl(["release"], in: repo.path, environment: env)
        // The banner with the warning annotation; no gate configured: how to configure one, not `gate raise-min`
        // (which would fail). The marker is part of the release commit, so the decision stays visible in the
        // repository.
        expectTranscript(["release"], result, matches: "release/major-release-warn.txt", repo: repo, sections: [
            (".major-release-pending", try repo.read(".major-release-pending")),
            ("files of the release commit (git show --name-only)", try repo.git(["show", "--name-only", "--format=", "HEAD"])),
            ("GITHUB_STEP_SUMMARY", try String(contentsOfFile: output + "/summary", encoding: .utf8)),
        ])
        #expect(!result.stderr.contains("relctl gate raise-min"))
        #expect(!result.stderr.contains("HALTED"))
        #expect(try String(contentsOfFile: output + "/out", encoding: .utf8) == "version=2.0.0\nbump=major\ntag=v2.0.0\nmajor_pending=true\nprerelease=false\nchannel=\nios_build=\nandroid_build=\nrelease_url=\n")
        // While the marker exists, every command reminds, in one line.
        let next = relctl(["next"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["next"], next, matches: "release/major-release-warn-then-next.txt", repo: repo)
    }

    @Test func minorReleaseNeverPrintsTheBanner() throws {
        let repo = try releaseRepository(["feat: a"])
        let env = ["GITHUB_ACTIONS": "true"]
        let result = relctl(["release"], in: repo.path, environment: env)
        #expect(result.code == 0)
        #expect(!result.stderr.contains("MAJOR"))
        #expect(!result.stderr.contains("::warning"))
    }

    /// `"onMajor": "halt"` written out behaves as the default: the halt writes only the marker, then
    /// --confirm-major releases.
    @Test func haltModeStopsBeforeTheReleaseUntilConfirmed() throws {
        let repo = try releaseRepository(["fix!: remove legacy login"], config: #"{"onMajor": "halt"}"#)
        let before = try repo.snapshot()
        let halted = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], halted, matches: "release/halt-mode.txt", repo: repo)
        try FileManager.default.removeItem(atPath: repo.path + "/.major-release-pending")
        #expect(try repo.snapshot() == before)
        let confirmed = relctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(confirmed.code == 0, "\(confirmed.stderr)")
        #expect(try repo.git(["tag", "-l", "v2.0.0"]) == "v2.0.0\n")
    }

    @Test func zeroMajorBreakingChangeIsAMinorWithoutTheGate() throws {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "R"]); try repo.git(["config", "user.email", "r@e.com"])
        try repo.write(".relctl.json", "{}\n")
        try repo.commit("chore: init")
        try repo.tag("v0.3.0")
        try repo.commit("feat!: rename everything")
        let result = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.stdout == "0.4.0\n", "\(result.stderr)")
        #expect(!result.stderr.contains("MAJOR"))
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.major-release-pending"))
    }

    @Test func dryRunChangesNothingAndShowsThePlan() throws {
        let repo = try releaseRepository(["feat(login): passkeys", "fix!: drop v1 tokens"])
        let before = try repo.snapshot()
        // --confirm-major: the dry run shows the release itself (without it, the halt: see MajorReleaseHaltTests).
        let result = relctl(["release", "--dry-run", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(try repo.snapshot() == before)
        // The version, the tag, the changelog's diff, the new marker, the commit message and the banner.
        expectTranscript(["release", "--dry-run", "--confirm-major"], result, matches: "release/dry-run-major.txt", repo: repo)
        // JSON dry run: the same plan, marked as such (no commit).
        let json = relctl(["release", "--dry-run", "--json", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release", "--dry-run", "--json", "--confirm-major"], json, matches: "release/dry-run-major--json.txt", repo: repo)
        #expect(try repo.snapshot() == before)
    }

    @Test func dryRunNeedsNoPushRights() throws {
        let repo = try releaseRepository(["feat: x"])
        try repo.git(["remote", "add", "origin", "/nonexistent/remote.git"])
        let before = try repo.snapshot()
        let result = relctl(["release", "--dry-run", "--push"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release", "--dry-run", "--push"], result, matches: "release/dry-run-push-unreachable-remote.txt", repo: repo)
        #expect(try repo.snapshot() == before)
    }

    @Test func nothingToRelease() throws {
        let repo = try releaseRepository(["docs: typo"])
        let before = try repo.snapshot()
        let result = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "no releasable commit since v1.2.3: 1 commit (1 docs)\n")
        #expect(try repo.snapshot() == before)
    }
}

@Suite("relctl release preflight")
struct ReleasePreflightTests {
    /// The release is refused with exactly one `error:` line (after any `note:` lines when `notes` is set), and
    /// changes nothing.
    func expectRefusal(_ repo: TestRepository, _ arguments: [String] = ["release"], environment: [String: String] = [:],
                       notes: Bool = false, line expected: String) throws {
        let before = try repo.snapshot()
        let result = relctl(arguments, in: repo.path, environment: environment)
        #expect(result.code == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let stderr = notes ? result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0.hasPrefix("note: ") }.joined(separator: "\n") : result.stderr
        #expect(stderr == "error: \(expected)\nnothing was changed (1 preflight problem)\n")
        #expect(try repo.snapshot() == before)
    }

    @Test func dirtyWorkTree() throws {
        let repo = try releaseRepository(["feat: x"])
        try repo.write("untracked.txt", "hello")
        try expectRefusal(repo, line: "the work tree has 1 uncommitted or untracked file (untracked.txt); commit or stash them, or pass --allow-dirty")
        let allowed = relctl(["release", "--allow-dirty"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(allowed.code == 0, "\(allowed.stderr)")
        #expect(try repo.git(["status", "--porcelain"]) == "?? untracked.txt\n")
    }

    @Test func ignoredFilesDoNotCount() throws {
        let repo = try releaseRepository([])
        try repo.write(".gitignore", "build/\n")
        try repo.commit("feat: ignore build", file: "other.txt")
        try repo.write("build/out.o", "binary")
        let result = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 0, "\(result.stderr)")
    }

    @Test func notAReleaseBranch() throws {
        let repo = try releaseRepository(["feat: x"])
        try repo.git(["checkout", "-q", "-b", "feature/login"])
        try expectRefusal(repo, line: #"'feature/login' is not a release branch (main, master); check out one, or add it to "branches" in .relctl.json"#)
        try repo.write(".relctl.json", #"{"branches": ["feature/*"]}"#)
        try repo.commitAll("chore: config")
        #expect(relctl(["release"], in: repo.path, environment: repo.goldenEnvironment()).code == 0)
    }

    @Test func allowDirtyStillRefusesADirtyReleaseFile() throws {
        let repo = try releaseRepository(["feat: x"])
        try repo.write("CHANGELOG.md", "# Changelog\n\nlocal edit\n")
        try expectRefusal(repo, ["release", "--allow-dirty"],
                          line: "CHANGELOG.md has uncommitted changes and is part of the release; commit or stash it first (--allow-dirty only covers other files)")
    }

    @Test func allowDirtyProtectsEveryConfiguredFile() throws {
        let repo = try releaseRepository([], config: #"{"files": [{"path": "package.json", "format": "json"}]}"#)
        try repo.write("package.json", "{\n  \"version\": \"1.2.3\"\n}\n")
        try repo.commitAll("chore: package.json")
        try repo.commit("feat: a", file: "a.txt")
        // Hand-edited beside the version (the very version the release writes is refused earlier, as "equal"):
        // --allow-dirty never covers a file the release commits.
        try repo.write("package.json", "{\n  \"version\": \"1.2.3\",\n  \"private\": true\n}\n")
        try expectRefusal(repo, ["release", "--allow-dirty"],
                          line: "package.json has uncommitted changes and is part of the release; commit or stash it first (--allow-dirty only covers other files)")
    }

    @Test func aHeldIndexLockIsReported() throws {
        let repo = try releaseRepository(["feat: x"])
        try "".write(toFile: repo.path + "/.git/index.lock", atomically: false, encoding: .utf8)
        defer { unlink(repo.path + "/.git/index.lock") }
        try expectRefusal(repo, line: "another git process holds the index (\(repo.path)/.git/index.lock); wait for it to finish, or delete the file if no git command is running")
    }

    @Test func signingConfigIsWarnedAbout() throws {
        let repo = try releaseRepository(["feat: x"])
        try repo.git(["config", "commit.gpgsign", "true"])
        let result = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], result, matches: "release/signing-config-warning.txt", repo: repo)
    }

    @Test func remoteWithoutPushIsAUsageErrorBeforeAnythingIsRead() throws {
        let repo = try releaseRepository(["feat!: x"])
        #expect(relctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment()).code == 0)   // leaves a pending-major marker
        let result = relctl(["release", "--remote", "upstream"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 64)
        #expect(result.stderr.hasPrefix("error: --remote goes with --push\n"), "\(result.stderr)")
    }

    @Test func detachedHead() throws {
        let repo = try releaseRepository(["feat: x"])
        try repo.git(["checkout", "-q", "--detach"])
        try expectRefusal(repo, line: "HEAD is detached; check out a release branch (main, master)")
    }

    @Test func tagAlreadyExistsElsewhere() throws {
        let repo = try releaseRepository(["feat: x"])
        try repo.git(["tag", "v1.3.0", "HEAD~1"])
        // v1.3.0 now sits on the commit before: it is the base, so the next is 1.4.0… unless it is not reachable.
        try repo.git(["tag", "-d", "v1.3.0"])
        try repo.git(["checkout", "-q", "-b", "side", "HEAD~1"])
        try repo.commit("fix: side", file: "side.txt")
        try repo.tag("v1.3.0")
        let tagID = try String(repo.git(["rev-parse", "v1.3.0"]).prefix(12))
        try repo.git(["checkout", "-q", "main"])
        try expectRefusal(repo, notes: true, line: "tag v1.3.0 already exists (\(tagID)) but is not an ancestor release of HEAD; delete it (git tag -d v1.3.0) if it is wrong, or check out the history it belongs to")
    }

    @Test func noIdentity() throws {
        let repo = try releaseRepository(["feat: x"])
        try repo.git(["config", "--unset", "user.name"])
        try repo.git(["config", "--unset", "user.email"])
        // A real process, so libgit2 reads its global config from this empty HOME and not the machine's.
        let home = try makeTempDirectory(prefix: "relctl-home")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let isolated = ["HOME": home, "XDG_CONFIG_HOME": home, "EMAIL": "", "GIT_AUTHOR_NAME": "", "GIT_AUTHOR_EMAIL": "",
                        "GIT_COMMITTER_NAME": "", "GIT_COMMITTER_EMAIL": ""]
        let before = try repo.snapshot()
        let refused = try runRelctl(["release"], in: repo.path, environment: isolated)
        #expect(refused.status == 1)
        #expect(refused.stderr == """
            error: no committer identity: set git config user.name and user.email, or GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL and \
            GIT_COMMITTER_NAME/GIT_COMMITTER_EMAIL
            nothing was changed (1 preflight problem)

            """)
        #expect(try repo.snapshot() == before)
        // CI style: identity from the environment, as git honours it.
        let ci = isolated.merging(["GIT_AUTHOR_NAME": "CI", "GIT_AUTHOR_EMAIL": "ci@example.com",
                                   "GIT_COMMITTER_NAME": "CI Bot", "GIT_COMMITTER_EMAIL": "ci@example.com"]) { _, b in b }
        let result = try runRelctl(["release"], in: repo.path, environment: ci)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try repo.git(["log", "-1", "--format=%an <%ae> / %cn"]) == "CI <ci@example.com> / CI Bot\n")
    }

    @Test func changelogAlreadyHasTheVersion() throws {
        let repo = try releaseRepository([])
        try repo.write("CHANGELOG.md", "# Changelog\n\n## 1.3.0 (2026-01-02)\n\n* hand written\n")
        try repo.commitAll("feat: x")
        try expectRefusal(repo, line: "CHANGELOG.md already has a section for 1.3.0; remove it or tag that release (v1.3.0) by hand")
    }

    @Test func shallowClone() throws {
        let origin = try releaseRepository(["feat: a", "fix: b", "fix: c"])
        let dir = try makeTempDirectory(prefix: "relctl-shallow")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try origin.clone(to: dir + "/c", depth: 1)
        let clone = try TestRepository(existing: dir + "/c")
        let result = relctl(["release"], in: clone.path)
        #expect(result.code == 1)
        #expect(result.stderr == """
            error: this is a shallow clone and no release tag was fetched, so the next version cannot be known; \
            fetch the full history with 'git fetch --unshallow --tags' (GitHub Actions: actions/checkout with 'fetch-depth: 0')

            """)
    }

    @Test func severalProblemsAreAllReported() throws {
        let repo = try releaseRepository(["feat: x"])
        try repo.git(["checkout", "-q", "-b", "wip"])
        try repo.write("scratch.txt", "x")
        let result = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 1)
        #expect(result.stderr == """
            error: the work tree has 1 uncommitted or untracked file (scratch.txt); commit or stash them, or pass --allow-dirty
            error: 'wip' is not a release branch (main, master); check out one, or add it to "branches" in .relctl.json
            nothing was changed (2 preflight problems)

            """)
    }

    @Test func anotherReleaseHoldsTheLock() throws {
        let repo = try releaseRepository(["feat: x"])
        // A live process (this test) holds the lock: an flock on .git/relctl.lock, with its pid in the file.
        let lockPath = repo.path + "/.git/relctl.lock"
        let fd = open(lockPath, O_RDWR | O_CREAT, 0o644)
        #expect(fd >= 0)
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        try "\(getpid())\n".write(toFile: lockPath, atomically: false, encoding: .utf8)
        let before = try repo.snapshot()
        let result = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 1)
        // The file names no command (an earlier relctl wrote only its pid): the holder is "another relctl command".
        #expect(result.stderr == """
            error: another relctl command is running on this repository (pid \(getpid())); wait for it to finish \
            (its lock on \(lockPath) ends with that process)

            """)
        #expect(try repo.snapshot() == before)
        // The lock ends with its process (here: the descriptor closes); the file itself stays, never deleted.
        close(fd)
        // A file left by a dead relctl of an earlier version (a pid, no flock) is no lock at all.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        try "\(gone.processIdentifier)\n".write(toFile: lockPath, atomically: true, encoding: .utf8)
        let released = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(released.code == 0, "\(released.stderr)")
        #expect(FileManager.default.fileExists(atPath: lockPath))
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
    }
}

@Suite("relctl release rollback")
struct ReleaseRollbackTests {
    @Test(arguments: ["after-write", "after-commit", "after-tag"])
    func injectedFaultLeavesTheRepositoryAsItWas(point: String) throws {
        let repo = try releaseRepository(["feat!: breaking", "fix: other"])
        let before = try repo.snapshot()
        let result = relctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment(["RELCTL_TEST_FAULT": point]))
        expectTranscript(["release", "--confirm-major"], result, matches: "release/rollback-\(point).txt", repo: repo)
        #expect(try repo.snapshot() == before)
        #expect(try repo.git(["tag", "-l", "v2.0.0"]).isEmpty)
        // And the release then goes through cleanly.
        #expect(relctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment()).code == 0)
    }

    @Test func aChangelogPathThatIsAFolderStopsBeforeAnything() throws {
        let repo = try releaseRepository(["feat: x"])
        // The changelog path is a folder: refused in preflight; nothing may have changed.
        try FileManager.default.removeItem(atPath: repo.path + "/CHANGELOG.md")
        try FileManager.default.createDirectory(atPath: repo.path + "/CHANGELOG.md", withIntermediateDirectories: true)
        try repo.write("CHANGELOG.md/keep", "x")
        try repo.commitAll("chore: folder")
        let before = try repo.snapshot()
        let result = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 1)
        #expect(result.stderr == """
            error: CHANGELOG.md is a folder, not a file; point "changelog": {"path": …} in .relctl.json at a file
            nothing was changed (1 preflight problem)

            """)
        #expect(try repo.snapshot() == before)
    }
}

@Suite("relctl release push")
struct ReleasePushTests {
    /// Releases locally and fails the push (the injected fault), as a dropped network would.
    func releaseWithFailedPush(_ repo: TestRepository, _ remote: TestRepository, sourceLocation: SourceLocation = #_sourceLocation) {
        let failed = relctl(["release", "--push"], in: repo.path, environment: repo.goldenEnvironment(["RELCTL_TEST_FAULT": "before-push"]))
        expect(["release", "--push"], failed, "release/push-fault-before-push.txt", repo, remote, sourceLocation: sourceLocation)
    }

    /// The run's whole output, the remote's path as `<remote>`.
    func expect(_ arguments: [String], _ result: CLIResult, _ name: String, _ repo: TestRepository, _ remote: TestRepository,
                sourceLocation: SourceLocation = #_sourceLocation) {
        expectTranscript(arguments, result, matches: name, repo: repo, placeholders: [(remote.path, "<remote>")], sourceLocation: sourceLocation)
    }

    func repositoryWithRemote(_ messages: [String]) throws -> (TestRepository, TestRepository) {
        let remote = try TestRepository(bare: true)
        let repo = try releaseRepository([])
        try repo.git(["remote", "add", "origin", remote.path])
        try repo.git(["push", "-q", "origin", "main", "v1.2.3"])
        for message in messages { try repo.commit(message) }
        return (repo, remote)
    }

    @Test func pushesBranchAndTag() throws {
        let (repo, remote) = try repositoryWithRemote(["feat: x"])
        let result = relctl(["release", "--push", "--json"], in: repo.path, environment: repo.goldenEnvironment())
        expect(["release", "--push", "--json"], result, "release/push--json.txt", repo, remote)
        #expect(try remote.git(["rev-parse", "main"]) == (try repo.git(["rev-parse", "HEAD"])))
        #expect(try remote.git(["tag", "-l"]) == "v1.2.3\nv1.3.0\n")
    }

    @Test func remoteAheadIsRefusedInPreflight() throws {
        let (repo, remote) = try repositoryWithRemote(["feat: x"])
        let other = try TestRepository(existing: try makeTempDirectory(prefix: "relctl-other") + "/c")
        try remote.clone(to: other.path)
        try other.commit("fix: from a colleague", file: "colleague.txt")
        try other.git(["push", "-q", "origin", "main"])
        let before = try repo.snapshot()
        let result = relctl(["release", "--push"], in: repo.path, environment: repo.goldenEnvironment())
        expect(["release", "--push"], result, "release/push-remote-ahead.txt", repo, remote)
        #expect(try repo.snapshot() == before)
        try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: other.path).deletingLastPathComponent().path)
    }

    @Test func tagOnTheRemoteIsRefused() throws {
        let (repo, remote) = try repositoryWithRemote(["feat: x"])
        try remote.git(["tag", "v1.3.0", "main"])
        let result = relctl(["release", "--push"], in: repo.path, environment: repo.goldenEnvironment())
        expect(["release", "--push"], result, "release/push-tag-on-the-remote.txt", repo, remote)
    }

    @Test func failedPushKeepsTheLocalReleaseAndARerunOnlyPushes() throws {
        let (repo, remote) = try repositoryWithRemote(["feat: x"])
        releaseWithFailedPush(repo, remote)
        #expect(try repo.git(["tag", "-l", "v1.3.0"]) == "v1.3.0\n")
        #expect(try remote.git(["tag", "-l", "v1.3.0"]).isEmpty)
        let rerun = relctl(["release", "--push"], in: repo.path, environment: repo.goldenEnvironment())
        expect(["release", "--push"], rerun, "release/push-rerun-only-pushes.txt", repo, remote)
        #expect(try remote.git(["tag", "-l", "v1.3.0"]) == "v1.3.0\n")
        #expect(try remote.git(["rev-parse", "main"]) == (try repo.git(["rev-parse", "HEAD"])))
        let third = relctl(["release", "--push"], in: repo.path, environment: repo.goldenEnvironment())
        expect(["release", "--push"], third, "release/push-third-run-has-nothing-to-do.txt", repo, remote)
    }

    @Test func anUnpushedReleaseIsPushedEvenAfterLaterCommits() throws {
        let (repo, remote) = try repositoryWithRemote(["feat: x"])
        releaseWithFailedPush(repo, remote)
        try repo.commit("ci: fix the push token", file: "ci.txt")
        let rerun = relctl(["release", "--push"], in: repo.path, environment: repo.goldenEnvironment())
        expect(["release", "--push"], rerun, "release/push-rerun-only-pushes.txt", repo, remote)
        #expect(try remote.git(["tag", "-l", "v1.3.0"]) == "v1.3.0\n")
        #expect(try remote.git(["rev-parse", "main"]) == (try repo.git(["rev-parse", "HEAD"])))
    }

    @Test func aRemoteThatMovedOnWithoutTheReleaseIsExplained() throws {
        let (repo, remote) = try repositoryWithRemote(["feat: x"])
        releaseWithFailedPush(repo, remote)
        // Meanwhile a colleague pushes to main.
        let dir = try makeTempDirectory(prefix: "relctl-colleague")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let colleague = try TestRepository(existing: dir + "/c")
        try remote.clone(to: colleague.path)
        try colleague.commit("fix: from a colleague", file: "colleague.txt")
        try colleague.git(["push", "-q", "origin", "main"])
        let before = try repo.snapshot()
        let unknown = relctl(["release", "--push"], in: repo.path, environment: repo.goldenEnvironment())
        expect(["release", "--push"], unknown, "release/push-unpushed-remote-ahead-unfetched.txt", repo, remote)
        #expect(try repo.snapshot() == before)
        try repo.git(["fetch", "-q", "origin"])
        let rerun = relctl(["release", "--push"], in: repo.path, environment: repo.goldenEnvironment())
        expect(["release", "--push"], rerun, "release/push-unpushed-remote-moved-on.txt", repo, remote)
        #expect(try remote.git(["tag", "-l"]) == "v1.2.3\n")
    }

    @Test func anUnpushedReleaseIsNotPublishedFromAnotherBranch() throws {
        let (repo, remote) = try repositoryWithRemote(["feat: x"])
        releaseWithFailedPush(repo, remote)
        try repo.git(["checkout", "-q", "-b", "wip/experiment"])
        try repo.commit("chore: wip", file: "wip.txt")
        let result = relctl(["release", "--push"], in: repo.path, environment: repo.goldenEnvironment())
        expect(["release", "--push"], result, "release/push-unpushed-from-another-branch.txt", repo, remote)
        #expect(try remote.git(["tag", "-l", "v1.3.0"]).isEmpty)
    }

    @Test func aTagOfTheSameNameFromAnotherCloneIsAConflict() throws {
        let (repo, remote) = try repositoryWithRemote(["feat: x"])
        releaseWithFailedPush(repo, remote)
        // Another clone released 1.3.0 first.
        try remote.git(["tag", "v1.3.0", "main"])
        let result = relctl(["release", "--push"], in: repo.path, environment: repo.goldenEnvironment())
        expect(["release", "--push"], result, "release/push-unpushed-tag-conflict.txt", repo, remote)
    }

    @Test func anUnpushedReleaseIsPublishedWithTheNextOne() throws {
        let (repo, remote) = try repositoryWithRemote(["feat: x"])
        releaseWithFailedPush(repo, remote)
        try repo.commit("feat: five", file: "five.txt")
        let result = relctl(["release", "--push"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try remote.git(["tag", "-l"]) == "v1.2.3\nv1.3.0\nv1.4.0\n")
        #expect(try remote.git(["rev-parse", "main"]) == (try repo.git(["rev-parse", "HEAD"])))
    }

    @Test func finishingAPushWritesTheGitHubOutputs() throws {
        let (repo, remote) = try repositoryWithRemote(["feat: x"])
        releaseWithFailedPush(repo, remote)
        let dir = try makeTempDirectory(prefix: "relctl-gh")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = relctl(["release", "--push"], in: repo.path, environment: repo.goldenEnvironment(["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": dir + "/out"]))
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: dir + "/out", encoding: .utf8) == "version=1.3.0\nbump=none\ntag=v1.3.0\nmajor_pending=false\nprerelease=false\nchannel=\nios_build=\nandroid_build=\nrelease_url=\n")
        #expect(try remote.git(["tag", "-l", "v1.3.0"]) == "v1.3.0\n")
    }

    @Test func rejectedPushReportsTheRecovery() throws {
        let (repo, remote) = try repositoryWithRemote(["feat: x"])
        // The remote cannot take refs/tags/v1.3.0: a ref below that name already exists there.
        try remote.git(["update-ref", "refs/tags/v1.3.0/blocker", "main"])
        let result = relctl(["release", "--push"], in: repo.path, environment: repo.goldenEnvironment())
        // The branch went first; the tag was refused, and the message says how to finish.
        expect(["release", "--push"], result, "release/push-tag-refused.txt", repo, remote)
        #expect(try repo.git(["tag", "-l", "v1.3.0"]) == "v1.3.0\n")
        #expect(try remote.git(["rev-parse", "main"]) == (try repo.git(["rev-parse", "HEAD"])))
    }

    @Test func aRefusedBranchPublishesNoTag() throws {
        let (repo, remote) = try repositoryWithRemote(["feat: x"])
        // The remote cannot take refs/heads/main (refs/heads/main/locked is in the way): the tag must stay unpublished.
        try remote.git(["update-ref", "-d", "refs/heads/main"])
        try remote.git(["update-ref", "refs/heads/main/locked", try repo.git(["rev-parse", "v1.2.3^{commit}"]).trimmingCharacters(in: .whitespacesAndNewlines)])
        let result = relctl(["release", "--push"], in: repo.path, environment: repo.goldenEnvironment())
        expect(["release", "--push"], result, "release/push-branch-refused.txt", repo, remote)
        #expect(try remote.git(["tag", "-l", "v1.3.0"]).isEmpty)
    }
}

@Suite("relctl release as a process")
struct ReleaseProcessTests {
    @Test func twoReleasesAtOnceMakeOneRelease() throws {
        let repo = try releaseRepository(["feat: x", "fix: y"])
        let binary = try relctlExecutable()
        var processes: [(Process, Pipe)] = []
        for _ in 0..<2 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["release", "--repo", repo.path]
            process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { _, b in b }
            let err = Pipe()
            process.standardError = err
            process.standardOutput = Pipe()
            processes.append((process, err))
        }
        for (process, _) in processes { try process.run() }
        var outcomes: [(Int32, String)] = []
        for (process, err) in processes {
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            outcomes.append((process.terminationStatus, text))
        }
        // One released; the other either lost the lock race cleanly or found the release already made.
        #expect(outcomes.filter { $0.1.contains("released 1.3.0") }.count == 1, "\(outcomes)")
        let loser = try #require(outcomes.first { !$0.1.contains("released 1.3.0") })
        // (The holder writes its command into the lock file just after taking it: read in between, it is unnamed.)
        let refusedByTheLock = loser.1.contains("another relctl release is running") || loser.1.contains("another relctl command is running")
        #expect((loser.0 == 1 && refusedByTheLock)
                || (loser.0 == 0 && loser.1.contains("HEAD is already released as v1.3.0")), "\(loser)")
        #expect(try repo.git(["tag", "-l", "v1.3.*"]) == "v1.3.0\n")
        #expect(try repo.git(["log", "--format=%s", "v1.2.3..HEAD"]).components(separatedBy: "chore(release)").count == 2)
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
    }

    @Test func releaseEndToEnd() throws {
        let repo = try releaseRepository(["perf: faster cold start"])
        let result = try runRelctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], CLIResult(result),
                         matches: "release/process-end-to-end.txt", repo: repo)
    }
}

@Suite("relctl changelog and status")
struct ChangelogAndStatusTests {
    @Test func changelogPrintsTheSectionReleaseWouldWrite() throws {
        let repo = try releaseRepository(["feat(map): offline tiles", "fix: login loop", "docs: readme"])
        try repo.git(["remote", "add", "origin", "git@github.com:acme/app.git"])
        let before = try repo.snapshot()
        let printed = relctl(["changelog"], in: repo.path, environment: fixedDate)
        // The section with its compare link and commit links; no docs commit.
        expectTranscript(["changelog"], printed, matches: "release/changelog-with-links.txt", repo: repo)
        #expect(!printed.stdout.contains("readme"))
        #expect(try repo.snapshot() == before)
        let released = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(released.code == 0)
        #expect(try repo.read("CHANGELOG.md").contains(printed.stdout))
    }

    @Test func unreleasedAndNothingDue() throws {
        let repo = try releaseRepository(["docs: guide"])
        let none = relctl(["changelog"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["changelog"], none, matches: "release/changelog-nothing-due.txt", repo: repo)
        let unreleased = relctl(["changelog", "--unreleased"], in: repo.path, environment: fixedDate)
        expectTranscript(["changelog", "--unreleased"], unreleased, matches: "release/changelog-unreleased-nothing-user-facing.txt", repo: repo)
        try repo.write(".relctl.json", #"{"changelog": {"groups": [{"title": "Documentation", "types": ["docs"]}]}}"#)
        let withDocs = relctl(["changelog", "--unreleased", "--json"], in: repo.path, environment: fixedDate)
        expectTranscript(["changelog", "--unreleased", "--json"], withDocs, matches: "release/changelog-unreleased-docs-group--json.txt", repo: repo)
    }

    @Test func statusShowsThePendingMajor() throws {
        let repo = try releaseRepository(["feat!: v2 api"])
        let env = repo.goldenEnvironment()
        let before = relctl(["status"], in: repo.path, environment: env)
        expectTranscript(["status"], before, matches: "release/status-major-due.txt", repo: repo)
        // Halted: pending, and not released yet.
        #expect(relctl(["release"], in: repo.path, environment: env).code == 3)
        let halted = relctl(["status"], in: repo.path, environment: env)
        expectTranscript(["status"], halted, matches: "release/status-major-halted.txt", repo: repo)
        let haltedJSON = relctl(["status", "--json"], in: repo.path, environment: env)
        expectTranscript(["status", "--json"], haltedJSON, matches: "release/status-major-halted--json.txt", repo: repo)
        // Released: the decision on min_supported_version is pending. No version file and no gate configured:
        // every store, and how to configure a gate (raise-min would fail).
        #expect(relctl(["release", "--confirm-major"], in: repo.path, environment: env).code == 0)
        let after = relctl(["status"], in: repo.path, environment: env)
        expectTranscript(["status"], after, matches: "release/status-major-released.txt", repo: repo)
        #expect(!after.stdout.contains("raise-min"))
        let json = relctl(["status", "--json"], in: repo.path, environment: env)
        expectTranscript(["status", "--json"], json, matches: "release/status-major-released--json.txt", repo: repo)
    }
}
