import Foundation
import Testing
import RelctlCore
import RelctlTestSupport
@testable import RelctlCLI

// The first hour with relctl (issue 21): every command before `init` says to run it; `init` says what comes next
// and a release refuses an uncommitted config with the command that commits it (or commits it with
// --include-config); a second major release never replaces the first one's pending decision; the banner and the
// marker name only the app's stores and the gate commands that work; a shallow clone is not "halted".
// Every piece of advice is followed here, and must work.

/// Runs `command` with /bin/sh in `directory` (advice relctl printed, copied as a user would paste it).
@discardableResult
private func shell(_ command: String, in directory: String, _ repo: TestRepository) throws -> String {
    let result = try runProcess("/bin/sh", ["-c", command], in: directory, environment: repo.gitEnvironment())
    guard result.status == 0 else { throw CommandFailed(description: "\(command) failed (\(result.status)): \(result.stderr)") }
    return result.stdout
}

/// The text between `start` and `end` in `text` (the command inside a line of advice).
private func between(_ text: String, _ start: String, _ end: String) throws -> String {
    let from = try #require(text.range(of: start)).upperBound
    let to = try #require(text.range(of: end, range: from..<text.endIndex)).lowerBound
    return String(text[from..<to])
}

private let marker = MajorReleaseMarker.fileName

private let infoPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>CFBundleShortVersionString</key>
    \t<string>1.2.3</string>
    \t<key>CFBundleVersion</key>
    \t<string>7</string>
    </dict>
    </plist>

    """

private let buildGradle = """
    android {
        defaultConfig {
            applicationId "com.example.app"
            versionCode 7
            versionName "1.2.3"
        }
    }

    """

/// An app kind: its one version file and the stores it ships to.
struct StoreApp: CustomTestStringConvertible, Sendable {
    let name: String
    let path: String
    let format: String
    let text: String
    /// The banner's line naming the stores.
    let bannerLine: String
    let stores: [String]
    var testDescription: String { name }
    /// The name in a golden file's name: `ios`, `android`, `ios-android`.
    var fileName: String { stores.joined(separator: "-") }
    var storesText: String {
        stores.count == 2 ? "both stores (App Store and Google Play)" : stores == ["ios"] ? "the App Store" : "Google Play"
    }

    static let ios = StoreApp(name: "iOS only", path: "Info.plist", format: "plist", text: infoPlist,
                              bannerLine: "!!  is live in the App Store.", stores: ["ios"])
    static let android = StoreApp(name: "Android only", path: "app/build.gradle", format: "gradle", text: buildGradle,
                                  bannerLine: "!!  is live in Google Play.", stores: ["android"])
    static let both = StoreApp(name: "Expo (both)", path: "app.json", format: "expo", text: expoAppJSON(version: "1.2.3", build: 7),
                               bannerLine: "!!  is live in BOTH stores (App Store and Google Play).", stores: ["ios", "android"])
    static let all = [ios, android, both]
}

/// The gate document of the tests: latest `latest`, minimum 1.0.0.
private func gateDocument(latest: String) -> String {
    "{\n  \"configVersion\": 1,\n  \"minimumSupportedVersion\": \"1.0.0\",\n  \"latestVersion\": \"\(latest)\"\n}\n"
}

/// An app at v1.2.3 (its version file, committed config, optional gate document `gate.json`), then a breaking commit.
private func majorApp(_ app: StoreApp, gateLatest: String? = nil, onMajor: String? = nil) throws -> TestRepository {
    var members = [#""files": [{"path": "\#(app.path)", "format": "\#(app.format)"}]"#]
    if gateLatest != nil { members.append(#""gate": {"document": "gate.json", "format": "json"}"#) }
    if let onMajor { members.append(#""onMajor": "\#(onMajor)""#) }
    let repo = try releaseRepository([], config: "{\n  " + members.joined(separator: ",\n  ") + "\n}\n")
    try repo.write(app.path, app.text)
    if let gateLatest { try repo.write("gate.json", gateDocument(latest: gateLatest)) }
    try repo.commitAll("chore: the app's version file")
    try repo.git(["tag", "-f", "-a", "v1.2.3", "-m", "v1.2.3"])
    try repo.commit("feat(api)!: v2 tokens only\n\nBREAKING CHANGE: v1 tokens are rejected")
    return repo
}

@Suite("The first hour: before init, after init, two majors, the stores and the gate, a shallow clone")
struct FirstHourTests {
    // MARK: 21.2 Before init

    /// An Expo app already at 1.4.2 in the stores, with no `.relctl.json` and no release tag.
    func appWithoutConfig() throws -> TestRepository {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write("app.json", expoAppJSON(version: "1.4.2", build: 12))
        try repo.commitAll("chore: the app at 1.4.2")
        try repo.commit("feat(map): offline tiles")
        return repo
    }

    @Test func everyCommandThatNeedsTheConfigRefusesBeforeInit() throws {
        let repo = try appWithoutConfig()
        let root = try repo.git(["rev-parse", "--show-toplevel"]).trimmingCharacters(in: .newlines)
        let before = try repo.snapshot()
        let refusal = "error: no .relctl.json at \(root): relctl does not know this app's version files or tag format yet; run 'relctl init' to create it (or pass --config PATH)\n"
        for arguments in [["status"], ["status", "--json"], ["release"], ["release", "--dry-run"], ["release", "--confirm-major"],
                          ["sync", "1.5.0"], ["sync", "1.5.0", "--dry-run"], ["current"], ["adopt"], ["adopt", "--dry-run"]] {
            let result = relctl(arguments, in: repo.path)
            #expect(result.code == 1, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderr == refusal, "\(arguments): \(result.stderr)")
            #expect(try repo.snapshot() == before)
        }
        // From a subfolder too: the root is named.
        try FileManager.default.createDirectory(atPath: repo.path + "/src", withIntermediateDirectories: true)
        #expect(relctl(["status"], in: repo.path + "/src").stderr == refusal)
        // `next` and `changelog` answer from the commits, and say what is missing.
        let note = "note: no .relctl.json at \(root), so this comes from the commits and tags alone (no version file was read); run 'relctl init' to create it\n"
        let next = relctl(["next"], in: repo.path)
        #expect(next.code == 0)
        #expect(next.stdout == "1.0.0\n")
        #expect(next.stderr == note)
        let changelog = relctl(["changelog"], in: repo.path)
        #expect(changelog.code == 0)
        #expect(changelog.stderr == note)
        #expect(try repo.snapshot() == before)
    }

    @Test func followingTheAdviceFromInitToTheFirstRelease() throws {
        let repo = try appWithoutConfig()
        expectTranscript(["status"], relctl(["status"], in: repo.path), matches: "first-hour/status-before-init.txt", repo: repo)
        let initialized = relctl(["init"], in: repo.path)
        #expect(initialized.code == 0, "\(initialized.stderr)")
        #expect(initialized.stderr.hasSuffix("""
            next steps:
              1. commit it: git add .relctl.json && git commit -m "chore: add relctl config"
              2. relctl adopt (tags the version the files hold as the last release, so the next one follows it)
              3. relctl status (what is released, what comes next)
              4. relctl release --dry-run (the release, changing nothing)

            """), "\(initialized.stderr)")
        // Each step, as printed.
        try shell(try between(initialized.stderr, "1. commit it: ", "\n"), in: repo.path, repo)
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
        #expect(relctl(["adopt"], in: repo.path).code == 0)
        let appJSON = try repo.read("app.json")
        let status = relctl(["status"], in: repo.path, environment: repo.goldenEnvironment())
        let dryRun = relctl(["release", "--dry-run"], in: repo.path, environment: repo.goldenEnvironment())
        let released = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        // Steps 3 and 4 as printed, then the first release.
        expectTranscript([(["status"], status), (["release", "--dry-run"], dryRun), (["release"], released)],
                         matches: "first-hour/status-dry-run-release-after-adopt.txt", repo: repo)
        #expect(try repo.read("app.json") == expoAppJSON(version: "1.5.0", build: 13))
        #expect(appJSON == expoAppJSON(version: "1.4.2", build: 12))
    }

    // MARK: 21.3 An uncommitted config

    @Test func anUncommittedConfigIsRefusedWithTheCommandThatCommitsIt() throws {
        let repo = try releaseRepository(["feat: search"], config: nil)
        try repo.write(".relctl.json", "{\"tagFormat\": \"v{version}\"}\n")
        let before = try repo.snapshot()
        let line = #"error: .relctl.json is not committed yet, and the release reads it; commit it first: git add .relctl.json && git commit -m "chore: add relctl config" (or pass --include-config to commit it with this release)"#
        for arguments in [["release", "--dry-run"], ["release"], ["release", "--allow-dirty"], ["release", "--dry-run", "--allow-dirty"]] {
            let result = relctl(arguments, in: repo.path, environment: repo.goldenEnvironment())
            #expect(result.code == 1, "\(arguments)")
            #expect(result.stderr == line + "\nnothing was changed (1 preflight problem)\n", "\(arguments): \(result.stderr)")
            #expect(try repo.snapshot() == before)
        }
        // Other untracked files are still named on their own.
        try repo.write("notes.txt", "later\n")
        #expect(relctl(["release"], in: repo.path).stderr == line + "\n"
            + "error: the work tree has 1 uncommitted or untracked file (notes.txt); commit or stash them, or pass --allow-dirty\n"
            + "nothing was changed (2 preflight problems)\n")
        try FileManager.default.removeItem(atPath: repo.path + "/notes.txt")
        // The advice, followed.
        try shell(try between(line, "commit it first: ", " (or pass"), in: repo.path, repo)
        let released = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(released.code == 0, "\(released.stderr)")
        #expect(released.stdout == "1.3.0\n")

        // An edited config: the same, with its own commit message.
        try repo.commit("fix: crash")
        try repo.write(".relctl.json", "{\"tagFormat\": \"v{version}\", \"commitMessage\": \"chore(release): {version} [skip ci]\"}\n")
        let edited = #"error: .relctl.json has uncommitted changes, and the release reads it; commit it first: git add .relctl.json && git commit -m "chore: update relctl config" (or pass --include-config to commit it with this release)"#
        let refused = relctl(["release", "--allow-dirty"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(refused.stderr == edited + "\nnothing was changed (1 preflight problem)\n", "\(refused.stderr)")
        try shell(try between(edited, "commit it first: ", " (or pass"), in: repo.path, repo)
        #expect(relctl(["release"], in: repo.path, environment: repo.goldenEnvironment()).code == 0)
        #expect(try repo.git(["log", "-1", "--format=%s"]) == "chore(release): 1.3.1 [skip ci]\n")
    }

    @Test func includeConfigCommitsTheConfigWithTheFirstRelease() throws {
        let repo = try releaseRepository(["feat: search"], config: nil)
        let config = "{\n  \"commitMessage\": \"chore(release): {version}\"\n}\n"
        try repo.write(".relctl.json", config)
        let head = try repo.head()
        let dryRun = relctl(["release", "--dry-run", "--include-config"], in: repo.path, environment: repo.goldenEnvironment())
        // The config is a new file of the release, as git would show it.
        expectTranscript(["release", "--dry-run", "--include-config"], dryRun, matches: "first-hour/include-config--dry-run.txt", repo: repo)
        #expect(try repo.head() == head)
        #expect(try repo.git(["status", "--porcelain"]) == "?? .relctl.json\n")
        let released = relctl(["release", "--include-config", "--json"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(released.code == 0, "\(released.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(released.stdout.utf8)) as? [String: Any])
        #expect(object["files"] as? [String] == ["CHANGELOG.md", ".relctl.json"])
        #expect(try repo.git(["diff-tree", "--no-commit-id", "--name-status", "-r", "HEAD"]) == "A\t.relctl.json\nM\tCHANGELOG.md\n")
        #expect(try repo.git(["show", "HEAD:.relctl.json"]) == config)
        #expect(try repo.git(["status", "--porcelain", "--untracked-files=all"]).isEmpty)
        // A committed config: --include-config has nothing to add.
        try repo.commit("fix: typo")
        #expect(relctl(["release", "--include-config", "--json"], in: repo.path, environment: repo.goldenEnvironment()).code == 0)
        #expect(try repo.git(["diff-tree", "--no-commit-id", "--name-status", "-r", "HEAD"]) == "M\tCHANGELOG.md\n")
    }

    @Test func includeConfigIsInTheHelpAndTheCompletions() throws {
        // (The whole help and scripts are golden files, GoldenOutputHelpTests; here, the option is named in both.)
        let help = relctl(["release", "--help"], in: NSTemporaryDirectory())
        #expect(help.stdout.split(separator: "\n").filter { $0.hasPrefix("  --include-config") }.count == 1, "\(help.stdout)")
        let bash = relctl(["completions", "bash"], in: NSTemporaryDirectory())
        #expect(bash.stdout.contains("--include-config"), "\(bash.stdout)")
    }

    // MARK: 21.4 Two majors in a row

    @Test(arguments: ["halt", "warn"])
    func aSecondMajorIsRefusedUntilTheFirstIsDecided(onMajor: String) throws {
        let repo = try majorApp(.ios, onMajor: onMajor)
        let first = relctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(first.code == 0, "\(first.stderr)")
        let pending = try repo.read(marker)
        try repo.commit("feat(sync)!: drop the v1 sync protocol")
        let head = try repo.head()
        let before = try repo.snapshot()
        let refusal = #"error: major release 2.0.0 still waits for its decision on min_supported_version (.major-release-pending), and major release 3.0.0 would replace it; decide 2.0.0 first — record it with relctl gate keep-min --reason "<why>" (no version gate is configured, so there is no minimum to raise) — then rerun relctl release"#
        let reminder = "warning: major release 2.0.0 is pending: min_supported_version is unchanged; no version gate is configured, so there is no minimum to raise yet: add \"gate\" to .relctl.json, such as \"gate\": {\"document\": \"remoteconfig.template.json\", \"format\": \"firebase\"} (see the README's \"Version gate\"); relctl status then names the command that raises it once 2.0.0 is live in the App Store (or keep it: relctl gate keep-min --reason \"<why>\")\n"
        for arguments in [["release"], ["release", "--dry-run"], ["release", "--confirm-major"], ["release", "--allow-dirty", "--confirm-major"]] {
            let result = relctl(arguments, in: repo.path, environment: repo.goldenEnvironment())
            #expect(result.code == 1, "\(arguments)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == reminder + refusal + "\nnothing was changed (1 preflight problem)\n", "\(arguments): \(result.stderr)")
            #expect(try repo.snapshot() == before)
            #expect(try repo.head() == head)
            #expect(try repo.read(marker) == pending)
        }
        // The fix, followed: the first decision is recorded, then the second major release goes through.
        let keep = try between(refusal, "record it with ", " (no version gate")
        #expect(keep == #"relctl gate keep-min --reason "<why>""#)
        let kept = relctl(["gate", "keep-min", "--reason", "the v1 API stays up until June"], in: repo.path)
        #expect(kept.code == 0, "\(kept.stderr)")
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/" + marker))
        let second = relctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(second.code == 0, "\(second.stderr)")
        #expect(second.stdout == "3.0.0\n")
        let written = try #require(MajorReleaseNotice.parse(try repo.read(marker)))
        #expect(written.version == "3.0.0")
        #expect(written.previousVersion == "2.0.0")
        // Both decisions are in the history: 2.0.0's kept, 3.0.0's pending.
        #expect(try repo.git(["log", "--format=%s", "-3"]) == "chore(release): 3.0.0\nchore(gate): keep the minimum supported version after major release 2.0.0\nfeat(sync)!: drop the v1 sync protocol\n")
    }

    @Test func withAGateTheSecondMajorNamesTheGateCommandsAndTheyWork() throws {
        let repo = try majorApp(.both, gateLatest: "1.2.3")
        #expect(relctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment()).code == 0)
        try repo.commit("feat(sync)!: drop the v1 sync protocol")
        let result = relctl(["release", "--dry-run"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(result.code == 1)
        let line = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("error: ") }.map(String.init))
        #expect(line == #"error: major release 2.0.0 still waits for its decision on min_supported_version (.major-release-pending), and major release 3.0.0 would replace it; decide 2.0.0 first — once 2.0.0 is live in both stores (App Store and Google Play), relctl gate set-latest 2.0.0, then relctl gate raise-min 2.0.0 --confirm-live; or keep the minimum: relctl gate keep-min --reason "<why>" — then rerun relctl release"#)
        // Followed in order: set-latest, then raise-min, which removes the marker; then the release.
        for command in try between(line, "both stores (App Store and Google Play), ", "; or keep").components(separatedBy: ", then ") {
            try #require(command.hasPrefix("relctl "))
            let words = command.dropFirst("relctl ".count).split(separator: " ").map(String.init)
            let ran = relctl(words, in: repo.path)
            #expect(ran.code == 0, "\(command): \(ran.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/" + marker))
        #expect(try repo.read("gate.json") == "{\n  \"configVersion\": 3,\n  \"minimumSupportedVersion\": \"2.0.0\",\n  \"latestVersion\": \"2.0.0\"\n}\n")
        let second = relctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(second.code == 0, "\(second.stderr)")
        #expect(second.stdout == "3.0.0\n")
    }

    @Test func aHaltedMajorOverAPendingOneWritesNothing() throws {
        let repo = try majorApp(.android)
        #expect(relctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment()).code == 0)
        try repo.commit("feat!: new storage")
        let before = try repo.snapshot()
        // The halt never gets to write its marker over the pending one.
        let halted = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(halted.code == 1)
        #expect(!halted.stderr.contains("HALTED"))
        #expect(try repo.snapshot() == before)
        #expect(try repo.git(["status", "--porcelain"]).isEmpty)
    }

    // MARK: 21.5 The stores and the gate in the banner and the marker

    @Test(arguments: StoreApp.all)
    func withoutAGateTheBannerSaysHowToConfigureOne(app: StoreApp) throws {
        let repo = try majorApp(app)
        let result = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        // The banner names the app's stores and how to configure a gate; the marker names the stores.
        expectTranscript(["release"], result, matches: "first-hour/no-gate-banner-\(app.fileName).txt", repo: repo,
                         sections: [(marker, try repo.read(marker))])
        #expect(result.stderr.components(separatedBy: "\n\(app.bannerLine)\n").count == 2, "\(result.stderr)")
        #expect(!result.stderr.contains("raise-min"))
        let written = try #require(MajorReleaseNotice.parse(try repo.read(marker)))
        #expect(written.floor.stores.map(\.rawValue) == app.stores)
        #expect(written.commands.raiseMin == nil)
        #expect(written.commands.setLatest == nil)
        #expect(!written.decision.contains("both stores") || app.stores.count == 2)
        #expect(!written.instruction.contains("raise-min"))
        // The example it gives is a gate relctl accepts: configured so (with its document), status names raise-min.
        #expect(relctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment()).code == 0)
        let gate = try between(result.stderr, "add one, e.g.\n!!      ", ",\n") + ", " + (try between(result.stderr, "!!               ", "\n"))
        #expect(gate == #""gate": {"document": "remoteconfig.template.json", "format": "firebase"}"#)
        try repo.write("remoteconfig.template.json", try GateApp.input("remoteconfig.template.json"))
        var config = try repo.read(".relctl.json")
        config.insert(contentsOf: ",\n  " + gate, at: try #require(config.range(of: "\n}\n")).lowerBound)
        try repo.write(".relctl.json", config)
        try repo.commitAll("chore: the version gate")
        let status = relctl(["status"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["status"], status, matches: "first-hour/no-gate-status-after-the-example-gate-\(app.fileName).txt", repo: repo)
    }

    @Test(arguments: StoreApp.all)
    func withTheLatestBelowTheBannerGivesTheTwoCommandsInOrderAndTheyWork(app: StoreApp) throws {
        let repo = try majorApp(app, gateLatest: "1.2.3")
        let halted = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], halted, matches: "first-hour/latest-below-banner-\(app.fileName).txt", repo: repo)
        let raise = """
            !!  DECISION NEEDED: raise it only after confirming that 2.0.0
            \(app.bannerLine)
            !!
            !!  Then run, in order:
            !!      relctl gate set-latest 2.0.0
            !!      relctl gate raise-min 2.0.0 --confirm-live
            !!  or keep it, saying why:

            """
        let written = try #require(MajorReleaseNotice.parse(try repo.read(marker)))
        #expect(written.commands.setLatest == "relctl gate set-latest 2.0.0")
        #expect(written.commands.raiseMin == "relctl gate raise-min 2.0.0 --confirm-live")
        #expect(written.floor.stores.map(\.rawValue) == app.stores)
        let released = relctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(released.code == 0, "\(released.stderr)")
        // The confirmed release repeats the same decision, word for word.
        #expect(released.stderr.components(separatedBy: raise).count == 2, "\(released.stderr)")
        // The halt's marker is the one committed.
        #expect(try repo.git(["show", "HEAD:" + marker]) == (try repo.read(marker)))
        for command in [written.commands.setLatest, written.commands.raiseMin].compactMap({ $0 }) {
            let ran = relctl(command.dropFirst("relctl ".count).split(separator: " ").map(String.init), in: repo.path)
            #expect(ran.code == 0, "\(command): \(ran.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/" + marker))
        expectTranscript(["status"], relctl(["status"], in: repo.path, environment: repo.goldenEnvironment()),
                         matches: "first-hour/latest-below-status-after-both-commands-\(app.fileName).txt", repo: repo)
    }

    @Test(arguments: StoreApp.all)
    func withTheLatestThereTheBannerGivesRaiseMin(app: StoreApp) throws {
        let repo = try majorApp(app, gateLatest: "2.0.0", onMajor: "warn")
        let released = relctl(["release"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release"], released, matches: "first-hour/latest-there-banner-\(app.fileName).txt", repo: repo)
        let reminder = relctl(["next"], in: repo.path).stderr
        #expect(reminder.hasPrefix("warning: major release 2.0.0 is pending: min_supported_version is unchanged; raise it only once 2.0.0 is live in \(app.storesText), then run: relctl gate raise-min 2.0.0 --confirm-live (or keep it: relctl gate keep-min --reason \"<why>\")\n"), "\(reminder)")
        // raise-min asks to confirm the build is live in the app's own stores.
        let unconfirmed = relctl(["gate", "raise-min", "2.0.0"], in: repo.path)
        let ran = relctl(["gate", "raise-min", "2.0.0", "--confirm-live"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript([(["gate", "raise-min", "2.0.0"], unconfirmed), (["gate", "raise-min", "2.0.0", "--confirm-live"], ran)],
                         matches: "first-hour/latest-there-raise-min-\(app.fileName).txt", repo: repo,
                         sections: [("commit message", try repo.git(["log", "-1", "--format=%B"]))])
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/" + marker))
    }

    // MARK: 21.9 A shallow clone

    @Test func aShallowCloneOfAReleasedMajorIsPendingNotHalted() throws {
        let repo = try majorApp(.both)
        #expect(relctl(["release", "--confirm-major"], in: repo.path, environment: repo.goldenEnvironment()).code == 0)
        try repo.commit("fix: one")
        try repo.commit("fix: two")
        let folder = try makeTempDirectory(prefix: "relctl-shallow")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try repo.clone(to: folder + "/clone", depth: 1)
        let clone = try TestRepository(existing: folder + "/clone")
        #expect(try clone.git(["rev-parse", "--is-shallow-repository"]) == "true\n")
        #expect(try clone.git(["tag", "-l"]).isEmpty)
        for arguments in [["status"], ["next"], ["current"]] {
            let result = relctl(arguments, in: clone.path)
            #expect(!result.stderr.contains("halted"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("warning: major release 2.0.0 is pending: min_supported_version is unchanged; no version gate is configured"), "\(arguments): \(result.stderr)")
        }
        let json = relctl(["status", "--json"], in: try {
            try clone.git(["fetch", "-q", "--unshallow", "--tags"]); return clone.path }())
        let pending = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])["majorPending"] as? [String: Any]
        #expect(pending?["halted"] as? Bool == false, "\(json.stdout)")
    }
}
