import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

@Suite("relctl next")
struct NextCommandTests {
    @Test(arguments: [
        (["fix: a crash"], "1.2.4"),
        (["perf: faster list"], "1.2.4"),
        (["feat: dark mode", "fix: a crash"], "1.3.0"),
        (["feat(ui)!: new navigation"], "2.0.0"),
        (["fix: api\n\nBREAKING CHANGE: the token endpoint moved"], "2.0.0"),
        (["refactor: x\n\nBREAKING-CHANGE: removes v1 sync"], "2.0.0"),
        (["FEAT(Auth): upper-case type"], "1.3.0"),
        (["docs: readme", "feat: a", "chore: deps"], "1.3.0"),
    ])
    func bumps(messages: [String], expected: String) throws {
        let repo = try TestRepository.released("1.2.3", then: messages)
        let result = relctl(["next"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == expected + "\n")
    }

    @Test func zeroMajorBreakingChangeBumpsMinorUnlessMajorOnZero() throws {
        let repo = try TestRepository.released("0.4.1", then: ["feat!: drop old API"])
        #expect(relctl(["next"], in: repo.path).stdout == "0.5.0\n")
        try repo.write(".relctl.json", #"{"majorOnZero": true}"#)
        #expect(relctl(["next"], in: repo.path).stdout == "1.0.0\n")
    }

    @Test func firstReleaseIsTheInitialVersionUnbumped() throws {
        let repo = try TestRepository()
        try repo.commit("feat: first screen")
        try repo.commit("feat!: breaking already")
        #expect(relctl(["next"], in: repo.path).stdout == "1.0.0\n")
        try repo.write(".relctl.json", #"{"initialVersion": "0.1.0"}"#)
        #expect(relctl(["next"], in: repo.path).stdout == "0.1.0\n")
    }

    @Test func nothingToReleaseAtTheTag() throws {
        let repo = try TestRepository.released("2.0.0", then: [])
        let result = relctl(["next"], in: repo.path)
        #expect(result.code == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "HEAD is already released as v2.0.0\n")
    }

    @Test func nothingReleasableSinceTheTag() throws {
        let repo = try TestRepository.released("2.0.0", then: ["chore: deps", "docs: typo", "wip"])
        let result = relctl(["next"], in: repo.path)
        #expect(result.code == 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "no releasable commit since v2.0.0: 3 commits (1 not conventional, 1 docs, 1 chore)\n")
    }

    @Test func theBaseIsTheHighestStableReachableTag() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        try repo.tag("v1.2.0")
        try repo.tag("v1.10.0", annotated: false)   // two tags on one commit: the highest wins (1.10 > 1.9 > 1.2)
        try repo.tag("v1.9.0")
        try repo.tag("latest", annotated: false)
        try repo.commit("fix: one")
        try repo.tag("v1.11.0-beta.1")              // prerelease: never the base
        try repo.tag("v1.12", annotated: false)     // not semver
        try repo.git(["checkout", "-q", "-b", "experiment"])
        try repo.commit("feat: not merged", file: "exp.txt")
        try repo.tag("v5.0.0")                      // not reachable from main
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("fix: two")
        let result = relctl(["next", "--json"], in: repo.path)
        // 1.10.0 is the highest semantic version reachable: not 1.9.x, not the non-semver v1.12, not v5.0.0.
        expectTranscript(["next", "--json"], result, matches: "next/highest-reachable-semver-tag--json.txt", repo: repo)
    }

    @Test func customTagFormatIgnoresOtherTags() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        try repo.tag("app-v3.1.0")
        try repo.commit("fix: a")
        try repo.tag("v9.0.0")
        try repo.commit("feat: b")
        try repo.write(".relctl.json", #"{"tagFormat": "app-v{version}"}"#)
        #expect(relctl(["next"], in: repo.path).stdout == "3.2.0\n")
    }

    @Test func mergeCommitsAreIgnoredButTheirBranchCounts() throws {
        let repo = try TestRepository.released("1.0.0", then: [])
        try repo.git(["checkout", "-q", "-b", "topic"])
        try repo.commit("fix: on topic", file: "t.txt")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("docs: main")
        try repo.git(["merge", "-q", "--no-ff", "-m", "feat: merge message is not counted", "topic"])
        let result = relctl(["next", "--json"], in: repo.path)
        // 1.0.1 from the topic's fix; the merge commit is listed with the status "merge" and not counted.
        expectTranscript(["next", "--json"], result, matches: "next/merge-commit-ignored--json.txt", repo: repo)
    }

    @Test func revertInRangeCancelsItsTarget() throws {
        let repo = try TestRepository.released("1.0.0", then: ["fix: small"])
        let feat = try repo.commit("feat: risky", file: "risky.txt")
        try repo.git(["revert", "--no-edit", feat])
        let result = relctl(["next"], in: repo.path)
        #expect(result.stdout == "1.0.1\n", "\(result.stderr)")
    }

    @Test func jsonHasTheDocumentedShape() throws {
        let repo = try TestRepository.released("1.2.3", then: ["feat(login): passkeys", "not a conventional commit"])
        let result = relctl(["next", "--json"], in: repo.path)
        #expect(result.code == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["schemaVersion"] as? Int == 1)
        #expect(object["current"] as? String == "1.2.3")
        #expect(object["next"] as? String == "1.3.0")
        #expect(object["bump"] as? String == "minor")
        #expect(object["baseTag"] as? String == "v1.2.3")
        let commits = try #require(object["commits"] as? [[String: Any]])
        #expect(commits.count == 2)
        #expect(commits[0]["conventional"] as? Bool == false)
        #expect(commits[0]["counted"] as? Bool == false)
        #expect(commits[1]["type"] as? String == "feat")
        #expect(commits[1]["scope"] as? String == "login")
        #expect(commits[1]["description"] as? String == "passkeys")
        #expect(commits[1]["breaking"] as? Bool == false)
        #expect((commits[1]["sha"] as? String)?.count == 40)
        #expect(result.stdout.hasSuffix("}\n"))
        #expect(result.stdout.split(separator: "\n").count == 1)
    }

    @Test func jsonWhenNothingIsDue() throws {
        let repo = try TestRepository.released("1.2.3", then: [])
        let result = relctl(["next", "--json"], in: repo.path)
        expectTranscript(["next", "--json"], result, matches: "next/nothing-due--json.txt", repo: repo)
    }

    @Test func findsTheRepositoryFromASubfolderAndWithRepo() throws {
        let repo = try TestRepository.released("1.0.0", then: ["feat: x"])
        try repo.write("android/app/build.gradle", "")
        #expect(relctl(["next"], in: repo.path + "/android/app").stdout == "1.1.0\n")
        #expect(relctl(["next", "--repo", repo.path + "/android"], in: "/").stdout == "1.1.0\n")
        #expect(relctl(["next", "--repo=\(repo.path)"], in: "/").stdout == "1.1.0\n")
    }

    @Test func notARepository() throws {
        let dir = try makeTempDirectory(prefix: "relctl-norepo")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = relctl(["next"], in: dir)
        #expect(result.code == 1)
        #expect(result.stderr == "error: '\(dir)' is not inside a git repository; run relctl in the app's repository or pass --repo PATH\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func emptyRepository() throws {
        let repo = try TestRepository()
        let result = relctl(["next"], in: repo.path)
        #expect(result.code == 1)
        // Without a config, `next` says so first (it still answers from the commits, here none).
        #expect(result.stderr == "note: no .relctl.json at \(repo.path), so this comes from the commits and tags alone (no version file was read); run 'relctl init' to create it\n"
            + "error: the repository has no commits yet; commit something before asking for a release\n")
    }

    @Test func shallowCloneWithoutTheTagIsAnErrorWithTheFix() throws {
        let origin = try TestRepository.released("1.0.0", then: ["feat: a", "fix: b", "fix: c", "fix: d"])
        let dir = try makeTempDirectory(prefix: "relctl-shallow")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try origin.clone(to: dir + "/c", depth: 2)
        let result = relctl(["next"], in: dir + "/c")
        #expect(result.code == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            error: this is a shallow clone and no release tag was fetched, so the next version cannot be known; \
            fetch the full history with 'git fetch --unshallow --tags' (GitHub Actions: actions/checkout with 'fetch-depth: 0')

            """)
        // Deep enough to hold the tag: the same answer as the full clone.
        try origin.clone(to: dir + "/d", depth: 6)
        #expect(relctl(["next"], in: dir + "/d").stdout == "1.1.0\n")
    }
}

@Suite("relctl config")
struct ConfigTests {
    @Test(arguments: [
        (#"{"tagFromat": "v{version}"}"#, ".relctl.json:1: unknown key 'tagFromat'; did you mean 'tagFormat'?"),
        ("{\n  \"majorOnZero\": \"yes\"\n}", ".relctl.json:2: 'majorOnZero' must be true or false, not a string"),
        (#"{"tagFormat": "release"}"#, ".relctl.json:1: 'tagFormat'"),
        (#"{"initialVersion": "1.0"}"#, ".relctl.json:1: 'initialVersion' is invalid semantic version"),
        (#"{"bumpRules": {"docs": "tiny"}}"#, ".relctl.json:1: 'bumpRules.docs' must be one of"),
        (#"{"bumpRules": []}"#, ".relctl.json:1: 'bumpRules' must be an object, not an array"),
        ("{ \"tagFormat\": ", ".relctl.json:1: not valid JSON"),
        ("[1]", ".relctl.json:1: the config must be a JSON object, not an array"),
    ])
    func badConfigIsAClearError(text: String, expected: String) throws {
        let repo = try TestRepository.released("1.0.0", then: ["feat: x"])
        try repo.write(".relctl.json", text)
        let result = relctl(["next"], in: repo.path)
        #expect(result.code == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: " + expected), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func bumpRulesAreConfigurablePerType() throws {
        let repo = try TestRepository.released("1.0.0", then: ["docs: guide"])
        #expect(relctl(["next"], in: repo.path).stdout.isEmpty)
        try repo.write(".relctl.json", #"{"bumpRules": {"docs": "patch", "feat": "none"}}"#)
        #expect(relctl(["next"], in: repo.path).stdout == "1.0.1\n")
        try repo.commit("feat: ignored now")
        #expect(relctl(["next"], in: repo.path).stdout == "1.0.1\n")
    }

    @Test func explicitConfigMustExist() throws {
        let repo = try TestRepository.released("1.0.0", then: ["feat: x"])
        let result = relctl(["next", "--config", "missing.json"], in: repo.path)
        #expect(result.code == 1)
        #expect(result.stderr == "error: config file 'missing.json' does not exist; check the --config path\n")
        try repo.write("conf/relctl.json", #"{"tagFormat": "{version}"}"#)
        try repo.tag("5.0.0")
        try repo.commit("feat: after 5.0.0")
        #expect(relctl(["next", "--config", "conf/relctl.json"], in: repo.path).stdout == "5.1.0\n")
    }

    @Test func configRejectsAPrereleaseInitialVersionAndMergesCaseVariants() throws {
        let repo = try TestRepository()
        try repo.commit("feat: first")
        try repo.write(".relctl.json", #"{"initialVersion": "0.1.0-beta.1"}"#)
        let refused = relctl(["next"], in: repo.path)
        #expect(refused.code == 1)
        #expect(refused.stderr == """
            error: .relctl.json:1: 'initialVersion' "0.1.0-beta.1" is a prerelease; prerelease tags are never a release base, \
            so relctl would propose it again and again: use a stable version like "0.1.0"

            """)
        let released = try TestRepository.released("1.0.0", then: ["feat: x"])
        try released.write(".relctl.json", #"{"bumpRules": {"feat": "minor", "FEAT": "none"}}"#)
        #expect(relctl(["next"], in: released.path).stdout == "1.1.0\n")
        try released.write(".relctl.json", #"{"bumpRules": {"feat": "none"}}"#)
        #expect(relctl(["next"], in: released.path).stdout.isEmpty)
    }
}

@Suite("relctl command line")
struct CommandLineTests {
    @Test func unknownOptionIsAUsageError() {
        let result = relctl(["next", "--jsn"], in: "/")
        #expect(result.code == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            error: unknown option '--jsn' for 'relctl next'; did you mean '--json'?
            usage: relctl next [--prerelease CHANNEL] [--offline] [--repo PATH] [--config PATH] [--json] [--project NAME] [--all]
            See 'relctl help next'.

            """)
    }

    @Test func unknownCommandAndMissingValue() {
        #expect(relctl(["nxet"], in: "/").code == 64)
        #expect(relctl([], in: "/").code == 64)
        let missing = relctl(["next", "--repo"], in: "/")
        #expect(missing.code == 64)
        #expect(missing.stderr == """
            error: option '--repo' needs a value <PATH>
            usage: relctl next [--prerelease CHANNEL] [--offline] [--repo PATH] [--config PATH] [--json] [--project NAME] [--all]
            See 'relctl help next'.

            """)
        #expect(relctl(["next", "extra"], in: "/").code == 64)
        #expect(relctl(["help", "nope"], in: "/").code == 64)
    }

    @Test func helpInThreeForms() {
        // The three print the golden help texts (help/relctl--help.txt, help/next.txt), from any folder.
        let top = relctl(["--help"], in: "/")
        Golden.expect(GoldenTranscript(["--help"], top).rendered, matches: "help/relctl--help.txt")
        let a = relctl(["help", "next"], in: "/")
        let b = relctl(["next", "--help"], in: "/")
        Golden.expect(GoldenTranscript(["help", "next"], a).rendered, matches: "help/next.txt")
        #expect(a.code == 0 && b.code == 0)
        #expect(a.stdout == b.stdout)
    }

    @Test func versionFlag() {
        let result = relctl(["--version"], in: "/")
        #expect(result.code == 0)
        #expect(result.stdout == relctlVersion + "\n")
    }
}

@Suite("relctl as a process")
struct ProcessTests {
    @Test func nextEndToEnd() throws {
        let repo = try TestRepository.released("3.4.5", then: ["fix(api): retry", "feat(ui): tablet layout"])
        let result = try runRelctl(["next"], in: repo.path)
        #expect(result.status == 0)
        #expect(result.stdout == "3.5.0\n")
        #expect(result.stderr.isEmpty)
        let elsewhere = try runRelctl(["next", "--repo", repo.path], environment: [:])
        #expect(elsewhere.status == 0)
        #expect(elsewhere.stdout == "3.5.0\n")
        #expect(elsewhere.stderr.isEmpty)
    }

    @Test func exitCodesOfTheProcess() throws {
        let repo = try TestRepository.released("1.0.0", then: [])
        let quiet = try runRelctl(["next"], in: repo.path)
        #expect(quiet.status == 0)
        #expect(quiet.stdout.isEmpty)
        #expect(quiet.stderr == "HEAD is already released as v1.0.0\n")
        let usage = try runRelctl(["next", "--bogus"], in: repo.path)
        #expect(usage.status == 64)
        try repo.write(".relctl.json", "{\"x\": 1}")
        let bad = try runRelctl(["next"], in: repo.path)
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("error: .relctl.json:1: unknown key 'x'"))
        // Without NO_COLOR, colour still stays off when stderr is a pipe, not a terminal.
        let piped = try runRelctl(["next"], in: repo.path, environment: ["NO_COLOR": ""])
        #expect(piped.status == 1)
        #expect(piped.stderr.hasPrefix("error: .relctl.json:1: unknown key 'x'"), "no colour outside a terminal: \(piped.stderr)")
    }
}
