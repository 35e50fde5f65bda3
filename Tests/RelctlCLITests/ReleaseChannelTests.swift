import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI
import RelctlCore

// Release channels end to end on real repositories with branches and tags: prereleases for TestFlight and the Play
// tracks, their promotion, maintenance branches and hotfixes, and build numbers that only go up across all of them.

@Suite("relctl release: prerelease channels")
struct PrereleaseChannelTests {
    @Test func betaOneBetaTwoThenFinalWithTheBuildNumbersOfEveryFile() throws {
        let app = try ChannelApp()
        let repo = app.repo
        try repo.commit("feat(map): offline trails", file: "src/offline.ts")

        let next = relctl(["next", "--prerelease", "beta", "--json"], in: repo.path)
        let beta1 = try app.release(["--prerelease", "beta"], expecting: "1.3.0-beta.1")
        // No changelog for a prerelease by default: the notes are in the tag message.
        expectTranscript([(["next", "--prerelease", "beta", "--json"], next), (["release", "--prerelease", "beta"], beta1)],
                         matches: "channels/beta-one.txt", repo: repo,
                         sections: [("tag message of v1.3.0-beta.1", try repo.git(["tag", "-l", "--format=%(contents)", "v1.3.0-beta.1"]))])
        #expect(try app.held() == ChannelApp.expected("1.3.0-beta.1", build: 13))
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/CHANGELOG.md"))

        try repo.commit("fix(map): crash on an empty trail", file: "src/map.ts")
        try app.release(["--prerelease", "beta"], expecting: "1.3.0-beta.2")
        #expect(try app.held() == ChannelApp.expected("1.3.0-beta.2", build: 14))

        // No new commit: nothing to release on the channel.
        let again = relctl(["release", "--prerelease", "beta"], in: repo.path, environment: repo.goldenEnvironment())

        // Promotion: the same code as 1.3.0, a new build, every commit since v1.2.0 in its changelog section.
        let final = try app.release(expecting: "1.3.0")
        #expect(try app.held() == ChannelApp.expected("1.3.0", build: 15))
        let changelog = try repo.read("CHANGELOG.md")
        #expect(!changelog.contains("beta"), "\(changelog)")
        // The next release starts from v1.3.0, never from a prerelease tag.
        try repo.commit("fix: typo", file: "src/typo.ts")
        let after = relctl(["next", "--json"], in: repo.path)
        expectTranscript([(["release", "--prerelease", "beta"], again), (["release"], final), (["next", "--json"], after)],
                         matches: "channels/beta-two-again-then-final.txt", repo: repo, sections: [("CHANGELOG.md", changelog)])
    }

    @Test func aFlutterAppWhoseFilesKeepOnlyTheCoreGetsANewBuildForEveryBetaAndTheFinal() throws {
        let repo = try ReleaseApp.flutter.make()
        func pubspecVersion() throws -> String {
            let line = try repo.read("pubspec.yaml").split(separator: "\n").first { $0.hasPrefix("version: ") }
            return String(line?.dropFirst("version: ".count) ?? "")
        }
        var seen: [String] = []
        for (message, arguments, version) in [("feat: trail notes", ["--prerelease", "beta"], "1.3.0-beta.1"),
                                              ("fix: notes lost", ["--prerelease", "beta"], "1.3.0-beta.2"),
                                              ("docs: readme", [], "1.3.0")] {
            try repo.commit(message, file: "lib/\(seen.count).dart")
            let result = relctl(["release"] + arguments, in: repo.path, environment: repo.goldenEnvironment())
            #expect(result.code == 0, "\(result.stderr)")
            #expect(result.stdout == version + "\n")
            seen.append(try pubspecVersion())
        }
        // pubspec's name is the core (Flutter passes it to both stores); the build number tells the uploads apart.
        #expect(seen == ["1.3.0+13", "1.3.0+14", "1.3.0+15"])
    }

    @Test func aNewAppBetasItsFirstVersionBeforeReleasingIt() throws {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        let app = ChannelApp(existing: repo)
        try writeConfig(repo, files: ChannelApp.files)
        try app.setVersion("1.0.0", build: 1)
        try repo.commitAll("feat: trail notes")
        try app.release(["--prerelease", "beta"], expecting: "1.0.0-beta.1")
        #expect(try app.held() == ChannelApp.expected("1.0.0-beta.1", build: 2))
        try repo.commit("fix: notes lost", file: "src/lost.ts")
        try app.release(expecting: "1.0.0")
        #expect(try app.held() == ChannelApp.expected("1.0.0", build: 3))
        // Below a version the files hold, a first prerelease is refused as a first release is.
        try app.setVersion("2.0.0", build: 9)
        try repo.commitAll("chore: files moved on by hand")
        try repo.git(["tag", "-d", "v1.0.0", "v1.0.0-beta.1"])
        try repo.commit("fix: one more", file: "src/more.ts")
        let refused = relctl(["release", "--prerelease", "beta"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release", "--prerelease", "beta"], refused, matches: "channels/first-beta-below-the-files.txt", repo: repo)
    }

    @Test func aFeatAfterAPatchBetaMovesToTheNewCoreAndRestartsTheCounter() throws {
        let app = try ChannelApp()
        let repo = app.repo
        try repo.commit("fix: crash on start", file: "src/start.ts")
        try app.release(["--prerelease", "beta"], expecting: "1.2.1-beta.1")
        try repo.commit("fix: crash on stop", file: "src/stop.ts")
        try app.release(["--prerelease", "beta"], expecting: "1.2.1-beta.2")
        try repo.commit("feat: share a trail", file: "src/share.ts")
        let next = relctl(["next", "--prerelease", "beta"], in: repo.path)
        expectTranscript(["next", "--prerelease", "beta"], next, matches: "channels/feat-after-patch-beta-next.txt", repo: repo)
        try app.release(["--prerelease", "beta"], expecting: "1.3.0-beta.1")
        #expect(try app.held() == ChannelApp.expected("1.3.0-beta.1", build: 15))
    }

    @Test func alphaAndBetaBranchesSideBySideCountSeparatelyAndShareTheBuildNumbers() throws {
        let app = try ChannelApp(extra: """
            "branches": ["main", {"name": "alpha", "prerelease": "alpha"}, {"name": "beta", "prerelease": "beta"}]
            """)
        let repo = app.repo
        try repo.commit("feat: trail notes", file: "src/notes.ts")
        try repo.git(["switch", "-q", "-c", "beta"])
        try app.release(expecting: "1.3.0-beta.1")
        #expect(try app.held() == ChannelApp.expected("1.3.0-beta.1", build: 13))

        // alpha branches off main, where the files still hold build 12: the beta's 13 is taken, so 14.
        try repo.git(["switch", "-q", "main"])
        try repo.git(["switch", "-q", "-c", "alpha"])
        try repo.commit("feat: trail photos", file: "src/photos.ts")
        let status = relctl(["status", "--json"], in: repo.path, environment: repo.goldenEnvironment())
        let alpha = try app.release(expecting: "1.3.0-alpha.1")
        #expect(try app.held() == ChannelApp.expected("1.3.0-alpha.1", build: 14))
        // The alpha channel with no prerelease yet; its build numbers go on from the beta's tag, not the files.
        expectTranscript([(["status", "--json"], status), (["release"], alpha)], matches: "channels/alpha-beside-beta.txt", repo: repo)

        try repo.git(["switch", "-q", "beta"])
        try repo.commit("fix: notes lost on rotate", file: "src/rotate.ts")
        try app.release(expecting: "1.3.0-beta.2")
        #expect(try app.held() == ChannelApp.expected("1.3.0-beta.2", build: 15))
        try repo.git(["switch", "-q", "alpha"])
        expectTranscript(["status"], relctl(["status"], in: repo.path, environment: repo.goldenEnvironment()),
                         matches: "channels/alpha-status-after-beta-two.txt", repo: repo)
        try repo.commit("fix: photo upload", file: "src/upload.ts")
        try app.release(expecting: "1.3.0-alpha.2")
        #expect(try app.held() == ChannelApp.expected("1.3.0-alpha.2", build: 16))

        // Channels order by SemVer: every alpha below every beta of the core.
        let sorted = try repo.git(["tag", "--sort=v:refname", "-l", "v1.3.0-*"])
        #expect(sorted == "v1.3.0-alpha.1\nv1.3.0-alpha.2\nv1.3.0-beta.1\nv1.3.0-beta.2\n")
    }

    @Test func aPrereleaseOfAMajorNeverHaltsNorWritesTheMarkerTheFinalDoes() throws {
        let app = try ChannelApp()
        let repo = app.repo
        try repo.commit("feat(sync)!: new sync protocol", file: "src/sync.ts")
        let beta = try app.release(["--prerelease", "beta"], expecting: "2.0.0-beta.1")
        #expect(!beta.stderr.contains("MAJOR"), "\(beta.stderr)")
        let notices = beta.stderr.split(separator: "\n").filter { $0.contains("major release") }
        #expect(notices == ["note: 2.0.0-beta.1 is a prerelease of a major release: no .major-release-pending and no halt now; the stable 2.0.0 will be major and its release writes the marker (min_supported_version stays as it is)"], "\(beta.stderr)")
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.major-release-pending"))
        #expect(try repo.git(["ls-tree", "--name-only", "HEAD", ".major-release-pending"]).isEmpty)

        let halted = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(halted.code == 3, "\(halted.stderr)")
        expectTranscript(["release"], halted, matches: "channels/major-final-after-beta-halts.txt", repo: repo,
                         sections: [(".major-release-pending", try repo.read(".major-release-pending"))])
    }

    @Test func changelogPrereleasesTrueWritesEachPrereleaseAndTheFinalCoversTheWholeRange() throws {
        let app = try ChannelApp(extra: "\"changelog\": {\"prereleases\": true}")
        let repo = app.repo
        try repo.commit("feat: trail notes", file: "src/notes.ts")
        try app.release(["--prerelease", "rc"], expecting: "1.3.0-rc.1")
        let rc = try repo.read("CHANGELOG.md")
        try repo.commit("fix: notes lost on rotate", file: "src/rotate.ts")
        try app.release(expecting: "1.3.0")
        // The rc's section, then the final's above it with both commits.
        Golden.expect(goldenSections([("CHANGELOG.md after 1.3.0-rc.1", rc), ("CHANGELOG.md after 1.3.0", try repo.read("CHANGELOG.md"))]),
                      matches: "channels/changelog-prereleases-true.txt")
    }

    @Test func githubOutputsSayPrereleaseAndChannel() throws {
        let app = try ChannelApp()
        let repo = app.repo
        let folder = try makeTempDirectory(prefix: "relctl-channel-ci")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = ["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": folder + "/output", "GITHUB_STEP_SUMMARY": folder + "/summary"]
        try repo.commit("feat: trail notes", file: "src/notes.ts")
        try app.release(["--prerelease", "beta"], expecting: "1.3.0-beta.1", environment: environment)
        let beta = try String(contentsOfFile: folder + "/output", encoding: .utf8)
        #expect(beta == "version=1.3.0-beta.1\nbump=minor\ntag=v1.3.0-beta.1\nmajor_pending=false\nprerelease=true\nchannel=beta\nios_build=13\nandroid_build=13\nrelease_url=\n", "\(beta)")
        let summary = try String(contentsOfFile: folder + "/summary", encoding: .utf8)
        Golden.expect(goldenSections([("GITHUB_STEP_SUMMARY", summary)]), matches: "channels/github-summary-beta.txt")
        try FileManager.default.removeItem(atPath: folder + "/output")
        try app.release(expecting: "1.3.0", environment: environment)
        let final = try String(contentsOfFile: folder + "/output", encoding: .utf8)
        #expect(final == "version=1.3.0\nbump=minor\ntag=v1.3.0\nmajor_pending=false\nprerelease=false\nchannel=\nios_build=14\nandroid_build=14\nrelease_url=\n", "\(final)")
    }

    @Test func aPrereleaseWhosePushFailedIsPublishedByTheRerunOrWithTheNextOne() throws {
        let app = try ChannelApp()
        let repo = app.repo
        let remote = try TestRepository(bare: true)
        try repo.git(["remote", "add", "origin", remote.path])
        try repo.git(["push", "-q", "origin", "main", "v1.2.0"])
        try repo.commit("feat: trail notes", file: "src/notes.ts")
        let failed = relctl(["release", "--prerelease", "beta", "--push"], in: repo.path,
                            environment: repo.goldenEnvironment(["RELCTL_TEST_FAULT": "before-push"]))
        let folder = try makeTempDirectory(prefix: "relctl-channel-push")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rerun = relctl(["release", "--prerelease", "beta", "--push", "--json"], in: repo.path,
                           environment: repo.goldenEnvironment(["GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": folder + "/output"]))
        // The failed push, then the rerun that only pushes: the release's JSON (no bump: nothing new was released).
        expectTranscript([(["release", "--prerelease", "beta", "--push"], failed), (["release", "--prerelease", "beta", "--push", "--json"], rerun)],
                         matches: "channels/beta-push-failed-then-rerun.txt", repo: repo, placeholders: [(remote.path, "<remote>")])
        #expect(try String(contentsOfFile: folder + "/output", encoding: .utf8)
            == "version=1.3.0-beta.1\nbump=none\ntag=v1.3.0-beta.1\nmajor_pending=false\nprerelease=true\nchannel=beta\nios_build=13\nandroid_build=13\nrelease_url=\n")
        #expect(try remote.git(["tag", "-l"]) == "v1.2.0\nv1.3.0-beta.1\n")

        // Failed again for beta.2: the next prerelease publishes it with itself.
        try repo.commit("fix: notes lost", file: "src/lost.ts")
        _ = relctl(["release", "--prerelease", "beta", "--push"], in: repo.path,
                   environment: ["RELCTL_TEST_FAULT": "before-push"].merging(fixedDate) { $1 })
        try repo.commit("fix: notes lost again", file: "src/again.ts")
        let next = relctl(["release", "--prerelease", "beta", "--push"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(next.code == 0, "\(next.stderr)")
        #expect(try remote.git(["tag", "-l"]) == "v1.2.0\nv1.3.0-beta.1\nv1.3.0-beta.2\nv1.3.0-beta.3\n")
        #expect(try remote.git(["rev-parse", "main"]) == (try repo.git(["rev-parse", "HEAD"])))
    }

    @Test func aDryRunAndJSONShowTheChannel() throws {
        let app = try ChannelApp()
        let repo = app.repo
        try repo.commit("feat: trail notes", file: "src/notes.ts")
        let before = try repo.snapshot()
        let runs = [["release", "--dry-run", "--prerelease", "beta"], ["release", "--dry-run", "--json", "--prerelease", "beta"],
                    ["changelog", "--prerelease", "beta"], ["changelog", "--prerelease", "beta", "--json"], ["next", "--prerelease", "1"]]
            .map { ($0, relctl($0, in: repo.path, environment: repo.goldenEnvironment())) }
        // The plan names the channel and writes no changelog; the JSON and the changelog say the same; a number is no channel.
        expectTranscript(runs, matches: "channels/dry-run-and-json-show-the-channel.txt", repo: repo)
        #expect(!runs[0].1.stdout.contains("CHANGELOG.md"), "\(runs[0].1.stdout)")
        #expect(try repo.snapshot() == before)
    }
}

@Suite("relctl release: maintenance branches and hotfixes")
struct MaintenanceBranchTests {
    /// Main released 1.4.2 (build 40), 2.0.0 (50), 2.1.0 (55) and 3.0.0 (57): two majors past 1.4.
    static func mainTwoMajorsAhead(extra: String = "\"branches\": [\"main\", \"release/*\"]") throws -> ChannelApp {
        let app = try ChannelApp(version: "1.4.2", build: 40, extra: extra)
        for (version, build) in [("2.0.0", 50), ("2.1.0", 55), ("3.0.0", 57)] {
            try app.repo.commit("feat: work for \(version)", file: "src/\(version).ts")
            try app.setVersion(version, build: build)
            try app.repo.commitAll("chore(release): \(version)")
            try app.repo.tag("v\(version)")
        }
        return app
    }

    @Test func aPatchOnAMaintenanceBranchWhileMainIsTwoMajorsAhead() throws {
        let app = try Self.mainTwoMajorsAhead()
        let repo = app.repo
        try repo.git(["switch", "-q", "-c", "release/1.4.x", "v1.4.2"])
        try repo.commit("fix(sync): lost edits on a flaky network", file: "src/sync.ts")

        let status = relctl(["status"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(!status.stdout.contains("problem:"), "\(status.stdout)")
        let next = relctl(["next", "--json"], in: repo.path)
        #expect(!next.stderr.contains("v3.0.0"), "main's tags are no concern of the branch: \(next.stderr)")
        let plan = relctl(["release", "--dry-run"], in: repo.path, environment: repo.goldenEnvironment())
        let released = try app.release(expecting: "1.4.3")
        // The branch's channel and range, its last release, the plan (build numbers go on from the highest any
        // release holds, 3.0.0's 57, not from the branch's 40), the release and its changelog section.
        expectTranscript([(["status"], status), (["next", "--json"], next), (["release", "--dry-run"], plan), (["release"], released)],
                         matches: "channels/maintenance-patch.txt", repo: repo, sections: [("CHANGELOG.md", try repo.read("CHANGELOG.md"))])
        #expect(try app.held() == ChannelApp.expected("1.4.3", build: 58))
        #expect(!released.stderr.contains("MAJOR"))
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.major-release-pending"))

        // main goes on from 3.0.0, above the hotfix's build.
        try repo.git(["switch", "-q", "main"])
        try repo.commit("fix: crash on start", file: "src/start.ts")
        try app.release(expecting: "3.0.1")
        #expect(try app.held() == ChannelApp.expected("3.0.1", build: 59))
    }

    @Test func aFeatOnAMaintenanceBranchIsRefusedNamingTheCommitAndNothingIsWritten() throws {
        let app = try Self.mainTwoMajorsAhead()
        let repo = app.repo
        try repo.git(["switch", "-q", "-c", "release/1.4.x", "v1.4.2"])
        try repo.commit("fix: lost edits", file: "src/sync.ts")
        let feat = try repo.commit("feat(ui): dark mode", file: "src/theme.ts")
        let before = try repo.snapshot()
        let tags = try repo.git(["tag"])
        let problem = "\(feat.prefix(12)) \"feat(ui): dark mode\" is a minor change, and maintenance branch release/1.4.x makes only patch releases of 1.4.x after v1.4.2; move the commit to main (git revert \(feat.prefix(12)) on release/1.4.x, and cherry-pick it onto main), never into a maintenance release"
        for arguments in [["release", "--dry-run"], ["release"]] {
            let refused = relctl(arguments, in: repo.path, environment: repo.goldenEnvironment())
            #expect(refused.code == 1)
            #expect(refused.stdout.isEmpty)
            #expect(refused.stderr == "error: \(problem)\nnothing was changed (1 preflight problem)\n", "\(refused.stderr)")
            #expect(try repo.snapshot() == before)
            #expect(try repo.git(["tag"]) == tags)
        }
        let next = relctl(["next"], in: repo.path)
        let status = relctl(["status"], in: repo.path, environment: repo.goldenEnvironment())
        // `next` warns with the same problem; `status` says there is no next release, and why.
        expectTranscript([(["next"], next), (["status"], status)], matches: "channels/maintenance-feat-next-and-status.txt", repo: repo)
        #expect(next.stderr.hasPrefix("warning: \(problem); 'relctl release' will refuse it\n"), "\(next.stderr)")
    }

    @Test func theFixNamesTheMainBranchTheRepositoryHas() throws {
        let app = try ChannelApp(version: "1.4.2", build: 40, extra: "\"branches\": [\"main\", \"master\", \"1.x\"]", branch: "master")
        let repo = app.repo
        try repo.git(["switch", "-q", "-c", "1.x"])
        try repo.commit("feat!: drop the v1 sync API", file: "src/v1.ts")
        let refused = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], refused, matches: "channels/maintenance-fix-names-master.txt", repo: repo)
    }

    @Test func aMajorLineBranchTakesMinorsAndRefusesABreakingChange() throws {
        let app = try Self.mainTwoMajorsAhead(extra: """
            "branches": ["main", {"name": "support", "maintenance": true, "range": "1.x"}]
            """)
        let repo = app.repo
        try repo.git(["switch", "-q", "-c", "support", "v1.4.2"])
        try repo.commit("feat: export trails", file: "src/export.ts")
        try app.release(expecting: "1.5.0")
        #expect(try app.held() == ChannelApp.expected("1.5.0", build: 58))

        let breaking = try repo.commit("feat!: drop the v1 sync API", file: "src/v1.ts")
        let refused = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(refused.code == 1)
        #expect(refused.stderr.hasPrefix("error: \(breaking.prefix(12)) \"feat!: drop the v1 sync API\" is a breaking change (major), and maintenance branch support makes only minor and patch releases of 1.x after v1.5.0;"), "\(refused.stderr)")
        #expect(try app.held() == ChannelApp.expected("1.5.0", build: 58))
    }

    @Test func aMaintenanceBranchWithoutATagOfItsRangeHasNoBase() throws {
        let app = try Self.mainTwoMajorsAhead()
        let repo = app.repo
        try repo.git(["switch", "-q", "-c", "release/1.5.x", "v1.4.2"])
        try repo.commit("fix: lost edits", file: "src/sync.ts")
        let before = try repo.snapshot()
        let refused = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(refused.code == 1)
        #expect(refused.stderr == "error: no 1.5.x release tag is reachable from release/1.5.x, so a maintenance release has no base; there is no release of 1.5.x to maintain yet: release from main\n", "\(refused.stderr)")
        #expect(try repo.snapshot() == before)

        // A 1.4.x tag made elsewhere: the fix names it.
        try repo.git(["switch", "-q", "-c", "hotfix", "v1.4.2"])
        try repo.commit("fix: one", file: "src/one.ts")
        try repo.tag("v1.4.3")
        try repo.git(["switch", "-q", "-c", "release/1.4.x", "v1.4.2"])
        try repo.commit("fix: two", file: "src/two.ts")
        try repo.git(["tag", "-d", "v1.4.2"])
        let elsewhere = relctl(["next"], in: repo.path)
        expectTranscript(["next"], elsewhere, matches: "channels/maintenance-base-tag-elsewhere.txt", repo: repo)
    }

    @Test func tagsAreReadWithTheFilesTheyHaveAndOtherTagsArePassedOver() throws {
        let app = try ChannelApp(version: "1.4.2", build: 40)
        let repo = app.repo
        // An iOS-only 2.0.0 on another branch (Android not yet part of the app there), a lightweight tag.
        try repo.git(["switch", "-q", "-c", "ios-only"])
        try repo.git(["rm", "-q", "android/app/build.gradle"])
        try repo.write("ios/App.xcodeproj/project.pbxproj", pbxproj(marketing: "2.0.0", build: "70"))
        try repo.commitAll("chore(release): 2.0.0")
        try repo.tag("v2.0.0", annotated: false)
        // Tags that are not releases: another format, a broken project file under a release tag name of another scheme.
        try repo.write("ios/App.xcodeproj/project.pbxproj", pbxproj(marketing: "9.0.0", build: "900"))
        try repo.commitAll("chore: experiment")
        try repo.tag("latest")
        try repo.tag("v9.0")
        try repo.write("ios/App.xcodeproj/project.pbxproj", "// !$*UTF8*$!\n{ broken\n")
        try repo.commitAll("chore: broken project")
        try repo.tag("v3.0.0")
        try repo.git(["switch", "-q", "main"])
        try repo.commit("fix: crash on start", file: "src/start.ts")
        let plan = relctl(["release", "--dry-run"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release", "--dry-run"], plan, matches: "channels/builds-from-a-tag-with-fewer-files.txt", repo: repo)
        // One counter for both stores: Android follows the iOS build too.
        try app.release(expecting: "1.4.3")
        #expect(try app.held() == ChannelApp.expected("1.4.3", build: 71))
    }

    @Test func aVersionCodeFromVersionBelowAnotherBranchsReleaseIsRefused() throws {
        let app = try ChannelApp(version: "1.4.2", build: 10402, extra: """
            "branches": ["main", "release/*"], "buildNumber": {"strategy": "fromVersion", "maxJump": 0}
            """)
        let repo = app.repo
        try repo.commit("feat!: new sync", file: "src/sync.ts")
        try app.setVersion("3.0.0", build: 30000)
        try repo.commitAll("chore(release): 3.0.0")
        try repo.tag("v3.0.0")
        try repo.git(["switch", "-q", "-c", "release/1.4.x", "v1.4.2"])
        try repo.commit("fix: lost edits", file: "src/edits.ts")
        let before = try repo.snapshot()
        let refused = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(refused.code == 1)
        #expect(refused.stderr == "error: android/app/build.gradle:9: versionCode 10403 (from buildNumber strategy fromVersion) is not above 30000, which release v3.0.0 holds; Google Play never accepts a versionCode at or below one it has on any track (pass --build N above 30000, or use the increment strategy, which counts from every release tag)\nnothing was changed (1 preflight problem)\n", "\(refused.stderr)")
        #expect(try repo.snapshot() == before)
        let low = relctl(["release", "--build", "20000"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release", "--build", "20000"], low, matches: "channels/version-code-from-build-below-another-branch.txt", repo: repo)
        try app.release(["--build", "30001"], expecting: "1.4.3")
        #expect(try app.held() == ChannelApp.expected("1.4.3", build: 30001))
    }

    @Test func aVersionWhoseTagExistsAnywhereIsRefused() throws {
        let app = try Self.mainTwoMajorsAhead()
        let repo = app.repo
        // 1.4.3 was released from another branch that release/1.4.x does not contain.
        try repo.git(["switch", "-q", "-c", "hotfix", "v1.4.2"])
        try repo.commit("fix: one", file: "src/one.ts")
        try repo.tag("v1.4.3")
        try repo.git(["switch", "-q", "-c", "release/1.4.x", "v1.4.2"])
        try repo.commit("fix: two", file: "src/two.ts")
        let before = try repo.snapshot()
        let refused = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], refused, matches: "channels/maintenance-tag-exists-elsewhere.txt", repo: repo)
        #expect(try repo.snapshot() == before)
    }

    @Test func versionCodesOnlyGoUpAcrossMainBetaAndMaintenanceReleases() throws {
        let app = try ChannelApp(extra: """
            "branches": ["main", {"name": "beta", "prerelease": "beta"}, "release/*"]
            """)
        let repo = app.repo
        try repo.commit("feat: trail notes", file: "src/notes.ts")
        try app.release(expecting: "1.3.0")
        try repo.git(["switch", "-q", "-c", "beta"])
        try repo.commit("feat: trail photos", file: "src/photos.ts")
        try app.release(expecting: "1.4.0-beta.1")
        try repo.git(["switch", "-q", "-c", "release/1.2.x", "v1.2.0"])
        try repo.commit("fix: crash on start", file: "src/start.ts")
        try app.release(expecting: "1.2.1")
        try repo.git(["switch", "-q", "main"])
        try repo.git(["merge", "-q", "--no-edit", "beta"])
        try app.release(expecting: "1.4.0")
        // beta does not hold v1.4.0 yet: a prerelease of 1.4.0 after its release is refused, with the fix.
        try repo.git(["switch", "-q", "beta"])
        try repo.commit("feat: trail maps", file: "src/maps.ts")
        let behind = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], behind, matches: "channels/beta-behind-its-release.txt", repo: repo)
        try repo.git(["merge", "-q", "--no-edit", "v1.4.0"])
        try app.release(expecting: "1.5.0-beta.1")

        var codes: [Int] = []
        for tag in ["v1.2.0", "v1.3.0", "v1.4.0-beta.1", "v1.2.1", "v1.4.0", "v1.5.0-beta.1"] {
            let held = try app.held(at: tag)
            #expect(held.iosBuild == held.versionCode, "\(tag): \(held)")
            codes.append(Int(held.versionCode) ?? 0)
        }
        #expect(codes == [12, 13, 14, 15, 16, 17])
    }
}

@Suite("channels under a calendar scheme")
struct CalendarChannelTests {
    @Test func prereleasesNeedSemverAndABranchNamedLikeARangeIsAnOrdinaryReleaseBranch() throws {
        let repo = try TestRepository()
        try repo.write(".relctl.json", "{\"versionScheme\": \"YYYY.M.MICRO\", \"branches\": [\"main\", \"release/*\"]}\n")
        try repo.commitAll("chore: initial commit")
        try repo.tag("v2026.8.0")
        try repo.commit("fix: crash on start", file: "src/start.ts")
        let refused = relctl(["next", "--prerelease", "beta"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(refused.code == 1)
        #expect(refused.stderr == "error: prereleases need versionScheme semver, and .relctl.json sets YYYY.M.MICRO; release from main without --prerelease, or number the app with semver\n")
        try repo.git(["switch", "-q", "-c", "release/2026.8.x"])
        let next = relctl(["next"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(next.code == 0, "\(next.stderr)")
        #expect(next.stdout == "2026.9.0\n")
        #expect(!next.stderr.contains("channel"), "\(next.stderr)")
    }
}

@Suite("config: branches entries")
struct BranchesConfigTests {
    @Test func entriesMayBeStringsOrObjects() throws {
        let config = try Config.parse("""
            {"branches": ["main", {"name": "beta", "prerelease": "beta"}, {"name": "release/*", "maintenance": true},
                          {"name": "support", "maintenance": true, "range": "2.x"}]}
            """, path: ".relctl.json")
        #expect(config.branches == ["main", "beta", "release/*", "support"])
        #expect(config.branchRule(for: "beta")?.prerelease?.name == "beta")
        #expect(config.branchRule(for: "release/1.4")?.range(on: "release/1.4")?.description == "1.4.x")
        #expect(config.branchRule(for: "support")?.range(on: "support")?.description == "2.x")
        #expect(config.branchRule(for: "main")?.isMaintenance("main") == false)
        #expect(config.mainBranch == "main")
    }

    @Test(arguments: [
        ("{\n  \"branches\": [\"main\", {\"name\": \"beta\", \"prerelase\": \"beta\"}]\n}",
         ".relctl.json:2: unknown key 'branches[].prerelase'; did you mean 'branches[].prerelease'?"),
        ("{\n  \"branches\": [\n    {\"name\": \"beta\", \"prerelease\": \"2\"}\n  ]\n}",
         ".relctl.json:3: 'branches[].prerelease' \"2\" is not a prerelease channel; use letters, digits and '-' with at least one letter, like \"beta\", \"alpha\" or \"rc\""),
        ("{\n  \"branches\": [{\"name\": \"support\", \"range\": \"1.x\"}]\n}",
         ".relctl.json:2: 'branches[].range' is set on \"support\", which is not a maintenance branch; add \"maintenance\": true to the entry"),
        ("{\n  \"branches\": [{\"name\": \"support\", \"maintenance\": true, \"range\": \"1\"}]\n}",
         ".relctl.json:2: 'branches[].range' \"1\" is not a maintenance range; write the versions the branch releases, like \"1.4.x\" (patches of 1.4) or \"1.x\" (minors and patches of 1)"),
        ("{\n  \"branches\": [{\"prerelease\": \"beta\"}]\n}",
         ".relctl.json:2: each 'branches' object needs a \"name\", like {\"name\": \"beta\", \"prerelease\": \"beta\"}"),
        ("{\n  \"changelog\": {\"prereleases\": \"yes\"}\n}",
         ".relctl.json:2: 'changelog.prereleases' must be true or false, not a string"),
    ])
    func badEntriesAreRefusedWithTheirLine(text: String, message: String) throws {
        #expect(throws: Problem.self) { try Config.parse(text, path: ".relctl.json") }
        do {
            _ = try Config.parse(text, path: ".relctl.json")
        } catch {
            #expect(error.description == message)
        }
    }
}

@Suite("the gate's latest and maintenance releases")
struct MaintenanceGateTests {
    @Test func aMaintenanceReleaseNeverBecomesTheLatestAndLeavesTheGateAlone() throws {
        let repo = try GateApp.plain()
        try repo.git(["switch", "-q", "-c", "release/2.5.x", "v2.5.0"])
        try repo.write(".relctl.json", "{\n  \"gate\": \(GateApp.plainGate),\n  \"branches\": [\"main\", \"release/*\"]\n}\n")
        try repo.commitAll("chore: release branches")
        let document = try repo.read(GateApp.plainPath)
        try repo.commit("fix: tide times off by an hour", file: "src/tides.ts")
        let hotfix = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment().merging(fixedDate) { $1 })
        #expect(hotfix.code == 0, "\(hotfix.stderr)")
        #expect(hotfix.stdout == "2.5.1\n")
        // The release never touches the gate document, and no marker comes with it.
        #expect(try repo.read(GateApp.plainPath) == document)
        #expect(!repo.exists(".major-release-pending"))

        try repo.git(["switch", "-q", "main"])
        let before = try repo.snapshot()
        let refused = relctl(["gate", "set-latest", "2.5.1"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(refused.code == 1)
        #expect(refused.stderr.hasSuffix("\nerror: 2.5.1 is a maintenance release (v2.5.1 is not on main) and 3.0.0 is released above it, so it never becomes the latest: the stores offer the newest version; set the latest to 3.0.0 or another release on main\n"), "\(refused.stderr)")
        #expect(try repo.snapshot() == before)
        let newest = relctl(["gate", "set-latest", "3.0.0"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(newest.code == 0, "\(newest.stderr)")
    }
}
