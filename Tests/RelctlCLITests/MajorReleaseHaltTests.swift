import Foundation
import Testing
import RelctlCore
import RelctlTestSupport
@testable import RelctlCLI

// The major-release stop (onMajor "halt", the default): a halt writes `.major-release-pending` and nothing else and
// exits 3; rerunning it changes nothing; `release --confirm-major` commits that very marker with the release; any
// other uncommitted marker is a preflight problem; `"onMajor": "warn"` releases at once.

/// Commits `file` with `message` through the index only, so an untracked marker stays out of the commit.
@discardableResult
private func commitOnly(_ repo: TestRepository, _ message: String, file: String) throws -> String {
    try repo.write(file, message + "\n")
    try repo.git(["add", "--", file])
    try repo.git(["commit", "-q", "-F", "-"], input: message)
    return try repo.head()
}

/// The release date of a second run, a day after `fixedDate`: a marker written then would have another date.
private let nextDay = ["SOURCE_DATE_EPOCH": "1790086400"]   // 2026-09-22

private let marker = MajorReleaseMarker.fileName

@Suite("relctl release: the major-release stop")
struct MajorReleaseHaltTests {
    /// A repository at v1.2.3 with a feature and a breaking change since: the next release is 2.0.0.
    func majorRepository(config: String? = "{}\n") throws -> (repo: TestRepository, breaking: String) {
        let repo = try releaseRepository(["feat(login): passkeys"], config: config)
        let breaking = try repo.commit("feat(api)!: v2 tokens only\n\nBREAKING CHANGE: v1 tokens are rejected")
        return (repo, breaking)
    }

    /// GitHub Actions with its output and summary files in `folder`.
    func github(_ folder: String) -> [String: String] {
        ["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": folder + "/output", "GITHUB_STEP_SUMMARY": folder + "/summary"]
    }

    @Test func theHaltWritesOnlyTheMarkerAndExits3() throws {
        let (repo, breaking) = try majorRepository()
        let folder = try makeTempDirectory(prefix: "relctl-halt-gh")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = try repo.snapshot()
        let head = try repo.head()
        let result = relctl(["release"], in: repo.path, environment: fixedDate.merging(github(folder)) { $1 })
        // Exit 3: the banner, the halt's annotation, what was written (the marker alone) and how to go on; the marker
        // as written, and the job summary.
        expectTranscript(["release"], result, matches: "halt/halt-writes-only-the-marker.txt", repo: repo, sections: [
            (marker, try repo.read(marker)), ("GITHUB_STEP_SUMMARY", try String(contentsOfFile: folder + "/summary", encoding: .utf8)),
        ])

        // The marker: the version, the previous one, the tag, the breaking change with its commit, the decision
        // and the commands that record it.
        let written = try #require(MajorReleaseNotice.parse(try repo.read(marker)))
        #expect(written.version == "2.0.0")
        #expect(written.previousVersion == "1.2.3")
        #expect(written.tag == "v2.0.0")
        #expect(written.date == "2026-09-21T14:13:20Z")
        #expect(written.breakingChanges == [.init(sha: breaking, summary: "feat(api)!: v2 tokens only", detail: "v1 tokens are rejected")])
        // No gate is configured: nothing to raise yet (raiseMin null), and the decision says how to configure one.
        #expect(written.commands == .init(release: "relctl release --confirm-major", raiseMin: nil,
                                          keepMin: "relctl gate keep-min --reason \"<why>\""))
        // And nothing else: no commit, no tag, no index entry, no other file (the repository as it was, but the marker).
        #expect(try repo.git(["status", "--porcelain", "--untracked-files=all"]) == "?? .major-release-pending\n")
        #expect(try repo.head() == head)
        #expect(try repo.git(["tag", "-l"]) == "v1.2.3\n")
        try FileManager.default.removeItem(atPath: repo.path + "/" + marker)
        #expect(try repo.snapshot() == before)

        // The CI's step outputs say it halted; the job summary says what to do.
        #expect(try String(contentsOfFile: folder + "/output", encoding: .utf8)
            == "version=2.0.0\nbump=major\ntag=v2.0.0\nmajor_pending=true\nprerelease=false\nchannel=\nios_build=\nandroid_build=\nrelease_url=\nhalted=true\n")
        let summary = try String(contentsOfFile: folder + "/summary", encoding: .utf8)
        #expect(summary.hasPrefix("### relctl halted before major release 2.0.0\n"), "\(summary)")
    }

    @Test func rerunningTheHaltChangesNothing() throws {
        let (repo, _) = try majorRepository()
        let first = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(first.code == 3, "\(first.stderr)")
        let written = try repo.read(marker)
        let after = try repo.snapshot()
        // A day later: a fresh marker would carry another date; the halt's own marker is left as it is.
        for _ in 0..<2 {
            let again = relctl(["release"], in: repo.path, environment: nextDay)
            #expect(again.code == 3, "\(again.stderr)")
            #expect(again.stderr == first.stderr)
            #expect(try repo.read(marker) == written)
            #expect(try repo.snapshot() == after)
        }
        // --allow-dirty changes nothing about it.
        try repo.write("notes.txt", "later\n")
        #expect(relctl(["release", "--allow-dirty"], in: repo.path, environment: nextDay).code == 3)
        #expect(try repo.read(marker) == written)
    }

    @Test func confirmMajorCommitsTheHaltsMarkerWithTheRelease() throws {
        let (repo, _) = try majorRepository()
        #expect(relctl(["release"], in: repo.path, environment: repo.goldenEnvironment()).code == 3)
        let written = try repo.read(marker)
        let head = try repo.head()
        let result = relctl(["release", "--confirm-major", "--json"], in: repo.path, environment: nextDay)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("HALTED"))
        #expect(!result.stderr.contains("warning: major release 2.0.0 is halted"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["files"] as? [String] == ["CHANGELOG.md", marker])
        #expect(object["halted"] == nil)
        #expect(object["majorPending"] as? Bool == true)
        // The marker the halt wrote, byte for byte (its date included), is in the release commit; the tree is clean.
        #expect(try repo.git(["show", "HEAD:" + marker]) == written)
        #expect(try repo.git(["diff-tree", "--no-commit-id", "--name-status", "-r", "HEAD"]) == "A\t\(marker)\nM\tCHANGELOG.md\n")
        #expect(try repo.git(["rev-parse", "HEAD^"]) == head + "\n")
        #expect(try repo.git(["rev-parse", "v2.0.0^{commit}"]) == (try repo.git(["rev-parse", "HEAD"])))
        #expect(try repo.git(["status", "--porcelain", "--untracked-files=all"]).isEmpty)
        // Released: the next run has nothing to do, and the decision on the floor is what is pending now.
        let again = relctl(["release"], in: repo.path)
        expectTranscript(["release"], again, matches: "halt/confirmed-major-then-release-again.txt", repo: repo)
    }

    /// A failure while releasing after a halt puts everything back, the halt's untracked marker included.
    @Test(arguments: ["after-write", "after-commit", "after-tag"])
    func aFailedConfirmedReleaseLeavesTheHaltsMarker(point: String) throws {
        let (repo, _) = try majorRepository()
        #expect(relctl(["release"], in: repo.path, environment: repo.goldenEnvironment()).code == 3)
        let before = try repo.snapshot()
        let failed = relctl(["release", "--confirm-major"], in: repo.path, environment: ["RELCTL_TEST_FAULT": point])
        expectTranscript(["release", "--confirm-major"], failed, matches: "halt/confirmed-after-halt-fault-\(point).txt", repo: repo)
        #expect(try repo.snapshot() == before)
        #expect(try repo.git(["status", "--porcelain"]) == "?? .major-release-pending\n")
        #expect(relctl(["release", "--confirm-major"], in: repo.path).code == 0)
    }

    /// The halt's marker is for 2.0.0; the breaking change is reverted and the release is now 1.3.0: the marker
    /// is stale, and committing it would record a decision nobody has to take.
    @Test func aStaleMarkerOfAnotherVersionIsRefused() throws {
        let (repo, _) = try majorRepository()
        #expect(relctl(["release"], in: repo.path, environment: repo.goldenEnvironment()).code == 3)
        try repo.git(["revert", "--no-edit", "HEAD"])
        #expect(relctl(["next"], in: repo.path).stdout == "1.3.0\n")
        let before = try repo.snapshot()
        let line = "error: .major-release-pending is the marker of major release 2.0.0, but this release is 1.3.0 (minor); delete it (relctl writes it again when it halts a major release) and rerun relctl release"
        for arguments in [["release"], ["release", "--allow-dirty"], ["release", "--dry-run"]] {
            let result = relctl(arguments, in: repo.path)
            #expect(result.code == 1, "\(arguments)")
            #expect(result.stderr.contains("warning: major release 2.0.0 is halted") == false, "\(result.stderr)")
            #expect(result.stderr.hasSuffix(line + "\nnothing was changed (1 preflight problem)\n"), "\(arguments): \(result.stderr)")
            #expect(try repo.snapshot() == before)
        }
        // Other commands remind of it, as of any pending marker.
        expectTranscript(["next"], relctl(["next"], in: repo.path), matches: "halt/stale-marker-next.txt", repo: repo)
        try FileManager.default.removeItem(atPath: repo.path + "/" + marker)
        let released = relctl(["release"], in: repo.path)
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "1.3.0\n")
    }

    /// A marker edited by hand, or written by a halt before newer commits, is not relctl's own for this release.
    @Test func anEditedOrOutdatedMarkerIsRefused() throws {
        let (repo, _) = try majorRepository()
        #expect(relctl(["release"], in: repo.path, environment: repo.goldenEnvironment()).code == 3)
        let written = try repo.read(marker)
        let line = "error: .major-release-pending is not the marker relctl writes for 2.0.0 (edited by hand, or written before newer commits); delete it (relctl writes it again when it halts a major release) and rerun relctl release"

        try repo.write(marker, written.replacingOccurrences(of: "v1 tokens are rejected", with: "v1 tokens are fine"))
        var before = try repo.snapshot()
        for arguments in [["release"], ["release", "--confirm-major"], ["release", "--dry-run"]] {
            let result = relctl(arguments, in: repo.path)
            #expect(result.code == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasSuffix(line + "\nnothing was changed (1 preflight problem)\n"), "\(result.stderr)")
            #expect(result.stderr.components(separatedBy: "error: ").count == 2, "\(result.stderr)")
            #expect(try repo.snapshot() == before)
        }

        // Back to the halt's bytes, then another breaking change lands: the marker no longer tells it all.
        try repo.write(marker, written)
        try commitOnly(repo, "fix!: drop the v1 refresh endpoint", file: "refresh.txt")
        before = try repo.snapshot()
        let outdated = relctl(["release", "--confirm-major"], in: repo.path)
        #expect(outdated.code == 1)
        #expect(outdated.stderr.hasSuffix(line + "\nnothing was changed (1 preflight problem)\n"), "\(outdated.stderr)")
        #expect(outdated.stderr.components(separatedBy: "error: ").count == 2, "\(outdated.stderr)")
        #expect(try repo.snapshot() == before)
        // Deleted, the halt writes it again with both breaking changes.
        try FileManager.default.removeItem(atPath: repo.path + "/" + marker)
        #expect(relctl(["release"], in: repo.path).code == 3)
        #expect(try MajorReleaseNotice.parse(try repo.read(marker))?.breakingChanges.map(\.summary)
            == ["feat(api)!: v2 tokens only", "fix!: drop the v1 refresh endpoint"])
    }

    @Test func aMarkerThatIsNotJSONIsRefused() throws {
        let (repo, _) = try majorRepository()
        try repo.write(marker, "remember to raise the floor\n")
        let result = relctl(["release"], in: repo.path)
        expectTranscript(["release"], result, matches: "halt/marker-not-json.txt", repo: repo)
        #expect(try repo.read(marker) == "remember to raise the floor\n")
    }

    /// 2.0.0 was released with its marker and the decision is still open; 3.0.0 is refused before its halt writes
    /// anything (its marker would replace 2.0.0's). Once 2.0.0 is decided (keep-min removes the marker in a commit),
    /// 3.0.0 halts with a new marker, the rerun leaves it, the dry run diffs it as git would, and --confirm-major
    /// commits it.
    @Test func aHaltOverACommittedMarkerWaitsForTheFirstDecision() throws {
        let (repo, _) = try majorRepository()
        #expect(relctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment()).code == 0)
        let previous = try repo.read(marker)
        try commitOnly(repo, "feat(sync)!: v3 sync only", file: "sync.txt")
        let refused = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(refused.code == 1)
        #expect(refused.stderr.hasSuffix("error: major release 2.0.0 still waits for its decision on min_supported_version (.major-release-pending), and major release 3.0.0 would replace it; decide 2.0.0 first — record it with relctl gate keep-min --reason \"<why>\" (no version gate is configured, so there is no minimum to raise) — then rerun relctl release\nnothing was changed (1 preflight problem)\n"), "\(refused.stderr)")
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
        #expect(try repo.read(marker) == previous)

        #expect(relctl(["gate", "keep-min", "--reason", "v2 clients keep working"], in: repo.path).code == 0)
        #expect(relctl(["release"], in: repo.path, environment: repo.goldenEnvironment()).code == 3)
        #expect(try repo.git(["status", "--porcelain"]) == "?? .major-release-pending\n")
        let halted = try repo.read(marker)
        #expect(try MajorReleaseNotice.parse(halted)?.version == "3.0.0")
        let after = try repo.snapshot()
        #expect(relctl(["release"], in: repo.path, environment: nextDay).code == 3)
        #expect(try repo.snapshot() == after)

        // The dry run of the confirmed release shows the marker as a new file, as git would.
        let dry = relctl(["release", "--dry-run", "--confirm-major"], in: repo.path, environment: nextDay)
        #expect(dry.code == 0, "\(dry.stderr)")
        let diff = diffPart(ofReleaseDryRun: dry.stdout)
        #expect(diff.components(separatedBy: "diff --git a/\(marker) b/\(marker)\nnew file mode 100644\n").count == 2, "\(diff)")
        let clone = try TestRepository()
        try clone.git(["pull", "-q", repo.path, "main"])
        try clone.git(["apply", "--whitespace=nowarn", "-"], input: diff)
        #expect(try clone.read(marker) == halted)

        #expect(relctl(["release", "--confirm-major"], in: repo.path, environment: nextDay).code == 0)
        #expect(try repo.git(["show", "v3.0.0:" + marker]) == halted)
        #expect(try repo.git(["show", "v2.0.0:" + marker]) == previous)
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
    }

    /// The dry run of a halted major release halts too: exit 3, the same banner and error, and writes nothing.
    @Test func aDryRunHaltsAsTheRealRunWould() throws {
        let (repo, _) = try majorRepository()
        let before = try repo.snapshot()
        let dry = relctl(["release", "--dry-run"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(try repo.snapshot() == before)
        // Exit 3: the plan says the real run writes only the marker, and shows it as a new file.
        expectTranscript(["release", "--dry-run"], dry, matches: "halt/halt--dry-run.txt", repo: repo)
        #expect(!dry.stdout.contains("CHANGELOG.md"))
        let real = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(real.code == dry.code)
        // The same lines on stderr but the one saying what was (would be) written.
        let differing = Set(dry.stderr.split(separator: "\n")).symmetricDifference(real.stderr.split(separator: "\n"))
        #expect(differing.allSatisfy { $0.hasPrefix("halted") }, "\(differing)")
        #expect(differing.count == 2)
        // The marker the dry run showed is the one the real run wrote.
        let clone = try TestRepository()
        try clone.git(["pull", "-q", repo.path, "main"])
        try clone.git(["apply", "--whitespace=nowarn", "-"], input: diffPart(ofReleaseDryRun: dry.stdout)
            .components(separatedBy: "\nno version file")[0])
        #expect(try clone.read(marker) == (try repo.read(marker)))
    }

    /// `--json` on a halt: the release object with `"halted": true`, no commit and no changelog, the marker as the
    /// one file; the same keys as a release otherwise.
    @Test(arguments: [false, true])
    func jsonSaysItHalted(dryRun: Bool) throws {
        let (repo, _) = try majorRepository()
        let result = relctl(["release", "--json"] + (dryRun ? ["--dry-run"] : []), in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 3, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("}\n") && result.stdout.split(separator: "\n").count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["halted"] as? Bool == true)
        #expect(object["majorPending"] as? Bool == true)
        #expect(object["version"] as? String == "2.0.0")
        #expect(object["previousVersion"] as? String == "1.2.3")
        #expect(object["bump"] as? String == "major")
        #expect(object["tag"] as? String == "v2.0.0")
        #expect(object["commit"] is NSNull)
        #expect(object["changelog"] is NSNull)
        #expect(object["files"] as? [String] == [marker])
        #expect(object["pushed"] as? Bool == false)
        #expect(object["dryRun"] as? Bool == dryRun)
        #expect(FileManager.default.fileExists(atPath: repo.path + "/" + marker) == !dryRun)
        let released = relctl(["release", "--json", "--confirm-major", "--dry-run"], in: repo.path)
        let releasedKeys = try #require(try JSONSerialization.jsonObject(with: Data(released.stdout.utf8)) as? [String: Any]).keys
        #expect(Set(object.keys) == Set(releasedKeys).union(["halted"]))
    }

    @Test func warnReleasesAtOnceWithTheMarkerInTheCommit() throws {
        let (repo, _) = try majorRepository(config: #"{"onMajor": "warn"}"#)
        let result = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 0, "\(result.stderr)")
        expectTranscript(["release"], result, matches: "halt/on-major-warn.txt", repo: repo)
        #expect(!result.stderr.contains("HALTED"))
        #expect(try repo.git(["diff-tree", "--no-commit-id", "--name-status", "-r", "HEAD"]) == "A\t\(marker)\nM\tCHANGELOG.md\n")
        #expect(try MajorReleaseNotice.parse(try repo.git(["show", "HEAD:" + marker]))?.version == "2.0.0")
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
    }

    /// GitLab's job log shows the banner in colour (it has no annotation syntax), the halt included.
    @Test func gitlabShowsTheHaltedBannerInColour() throws {
        let (repo, _) = try majorRepository()
        var environment = fixedDate
        environment["GITLAB_CI"] = "true"
        let capture = Capture()
        let output = Output(stdout: { capture.out += $0 }, stderr: { capture.err += $0 })
        #expect(RelctlCLI.run(["release"], environment: environment, output: output, currentDirectory: repo.path) == 3)
        Golden.expect(GoldenTranscript(["release"], CLIResult(code: 3, stdout: capture.out, stderr: capture.err), placeholders: [(repo.path, "<repo>")]).rendered,
                      matches: "halt/halt-gitlab-colour.txt")
        #expect(!capture.err.contains("::warning"))
    }

    @Test func theDefaultIsHalt() throws {
        #expect(Config().onMajor == .halt)
        let repo = try releaseRepository([], config: #"{"onMajor": "stop"}"#)
        let result = relctl(["release"], in: repo.path)
        expectTranscript(["release"], result, matches: "halt/on-major-unknown-value.txt", repo: repo)
    }
}
