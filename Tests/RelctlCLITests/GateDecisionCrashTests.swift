import Foundation
import Testing
import RelctlTestSupport

/// The gate's decisions and `adopt` go through the release's transaction: killed (SIGKILL) at each of their
/// write-like steps in turn, the next run that takes the lock finishes or rolls them back, says which, and the
/// repository ends with the decision recorded once, clean. The steps are the ones the real run reports
/// (`RELCTL_TEST_STEPS`), so a new step cannot be left out without a test failing.
enum DecisionScenario: String, CaseIterable, Sendable {
    /// `gate raise-min 2.5.0`: the document's default minimum moves; the marker stays (ios is still below 3.0.0).
    case raiseMin
    /// `gate raise-min 3.0.0`, after the latest and ios's own minimum are 3.0.0: the document and the marker's removal.
    case raiseMinResolvingTheMajor
    /// `gate set-latest 3.0.0`: the document only.
    case setLatest
    /// `gate keep-min --reason …`: the marker's removal only.
    case keepMin
    /// `adopt`: a tag only, on an older commit.
    case adopt

    var arguments: [String] {
        switch self {
        case .raiseMin: return ["gate", "raise-min", "2.5.0", "--confirm-live"]
        case .raiseMinResolvingTheMajor: return ["gate", "raise-min", "3.0.0", "--confirm-live"]
        case .setLatest: return ["gate", "set-latest", "3.0.0"]
        case .keepMin: return ["gate", "keep-min", "--reason", "the v1 harbour API stays up"]
        case .adopt: return ["adopt"]
        }
    }

    /// How the notes name it: `gate raise-min 2.5.0`.
    var what: String {
        switch self {
        case .raiseMin: return "gate raise-min 2.5.0"
        case .raiseMinResolvingTheMajor: return "gate raise-min 3.0.0"
        case .setLatest: return "gate set-latest 3.0.0"
        case .keepMin: return "gate keep-min 3.0.0"
        case .adopt: return "adopt v2.43.0"
        }
    }

    var subject: String {
        switch self {
        case .raiseMin: return "chore(gate): raise the minimum supported version to 2.5.0"
        case .raiseMinResolvingTheMajor: return "chore(gate): raise the minimum supported version to 3.0.0"
        case .setLatest: return "chore(gate): set the latest version to 3.0.0"
        case .keepMin: return "chore(gate): keep the minimum supported version after major release 3.0.0"
        case .adopt: return ""
        }
    }

    /// The files the decision's commit changes, as `git diff --name-only` lists them.
    var files: String {
        switch self {
        case .raiseMin, .setLatest: return "remoteconfig.template.json\n"
        case .raiseMinResolvingTheMajor: return ".major-release-pending\nremoteconfig.template.json\n"
        case .keepMin: return ".major-release-pending\n"
        case .adopt: return ""
        }
    }

    /// Every write-like step, in order.
    var steps: [String] {
        let commit = ["journal-written", "index", "commit", "journal-committed"]
        switch self {
        case .raiseMin, .setLatest: return ["journal", "temp-1", "write-1"] + commit
        case .raiseMinResolvingTheMajor: return ["journal", "temp-1", "write-1", "delete-1"] + commit
        case .keepMin: return ["journal", "delete-1"] + commit
        case .adopt: return ["journal", "tag"]
        }
    }

    /// The step from which a rerun finishes rather than rolls back: the commit (a tag for adopt) exists.
    var pointOfNoReturn: String { self == .adopt ? "tag" : "commit" }

    func make() throws -> TestRepository {
        if self == .adopt {
            let (repo, _) = try storeApp()
            try repo.write(".relctl.json", "{\"files\": [" + storeAppFiles.map { "{\"path\": \"\($0.0)\", \"format\": \"\($0.1)\"}" }
                .joined(separator: ", ") + "]}\n")
            try repo.commitAll("chore: add relctl config")
            return repo
        }
        let repo = try GateApp.firebase()
        if self == .raiseMinResolvingTheMajor {
            for arguments in [["gate", "set-latest", "3.0.0"], ["gate", "raise-min", "3.0.0", "--platform", "ios", "--confirm-live"]] {
                let result = try runRelctl(arguments, in: repo.path, environment: repo.goldenEnvironment())
                try #require(result.status == 0, "\(result.stderr)")
            }
        }
        return repo
    }
}

struct DecisionCrash: Sendable, CustomTestStringConvertible {
    let scenario: DecisionScenario
    let step: String
    var testDescription: String { "\(scenario.rawValue) killed at \(step)" }

    static let all: [DecisionCrash] = DecisionScenario.allCases.flatMap { scenario in
        scenario.steps.map { DecisionCrash(scenario: scenario, step: $0) }
    }
}

/// The decision is recorded once, on top of `head`, and nothing else is left: no journal, no lock, no keep.
func expectOneCleanDecision(_ repo: TestRepository, _ scenario: DecisionScenario, head: String,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
    if scenario == .adopt {
        #expect(try repo.git(["cat-file", "-t", "v2.43.0"]) == "tag\n", sourceLocation: sourceLocation)
        #expect(try repo.git(["log", "-1", "--format=%s", "v2.43.0"]) == "chore: bump version to 2.43.0\n", sourceLocation: sourceLocation)
        #expect(try repo.git(["rev-parse", "HEAD"]) == head, sourceLocation: sourceLocation)
    } else {
        #expect(try repo.git(["log", "--format=%s", "\(head.trimmingCharacters(in: .newlines))..HEAD"]) == scenario.subject + "\n",
                sourceLocation: sourceLocation)
        #expect(try repo.git(["diff", "--name-only", "HEAD~1", "HEAD"]) == scenario.files, sourceLocation: sourceLocation)
    }
    #expect(try repo.git(["status", "--porcelain", "--untracked-files=all", "--ignored"]).isEmpty, sourceLocation: sourceLocation)
    let gitDir = repo.path + "/.git"
    for leftover in ["relctl-release.json", "relctl-release.json.tmp", "index.lock", "refs/heads/main.lock", "refs/tags/v2.43.0.lock"] {
        #expect(!FileManager.default.fileExists(atPath: gitDir + "/" + leftover), "\(leftover)", sourceLocation: sourceLocation)
    }
    let keeps = try FileManager.default.contentsOfDirectory(atPath: gitDir).filter { $0.hasPrefix("relctl-keep-") }
    #expect(keeps.isEmpty, "\(keeps)", sourceLocation: sourceLocation)
}

@Suite("relctl gate decisions and adopt killed at every step")
struct GateDecisionCrashTests {
    @Test(arguments: DecisionScenario.allCases)
    func theCrashTestsKillEveryStepTheDecisionTakes(scenario: DecisionScenario) throws {
        let repo = try scenario.make()
        let head = try repo.git(["rev-parse", "HEAD"])
        let log = try makeTempDirectory(prefix: "relctl-steps") + "/steps"
        defer { try? FileManager.default.removeItem(atPath: (log as NSString).deletingLastPathComponent) }
        let result = try runRelctl(scenario.arguments, in: repo.path, environment: repo.goldenEnvironment(["RELCTL_TEST_STEPS": log]))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == scenario.steps.map { $0 + "\n" }.joined())
        try expectOneCleanDecision(repo, scenario, head: head)
    }

    @Test(arguments: DecisionCrash.all)
    func aRerunFinishesOrRollsBack(_ crash: DecisionCrash) throws {
        let scenario = crash.scenario
        let repo = try scenario.make()
        let head = try repo.git(["rev-parse", "HEAD"])
        let killed = try runRelctl(scenario.arguments, in: repo.path,
                                   environment: repo.goldenEnvironment(["RELCTL_TEST_CRASH": crash.step]))
        #expect(killed.status == SIGKILL, "\(killed.stderr)")
        let journal = repo.path + "/.git/relctl-release.json"
        #expect(FileManager.default.fileExists(atPath: journal))

        // Meanwhile, status names it with what to do, in text and JSON.
        let status = try runRelctl(["status"], in: repo.path)
        #expect(status.stdout.contains("interrupted:   \(scenario.what), after step '"), "\(status.stdout)")
        #expect(status.stdout.contains("               the next relctl command that writes (release, sync, adopt or a gate decision, not a dry run) finishes or rolls it back first\n"))
        let json = try runRelctl(["status", "--json"], in: repo.path)
        let kind = scenario == .adopt ? "adopt" : scenario.what.split(separator: " ").prefix(2).joined(separator: " ")
        #expect(json.stdout.contains(#""interruptedRelease":{"kind":"\#(kind)","version":"#), "\(json.stdout)")

        // The same command again: the interrupted run's decision is finished (exit 0, nothing more to do) or rolled
        // back and made again.
        let pid = "pid \(try journalPID(of: killed, repo))"
        let rerun = try runRelctl(scenario.arguments, in: repo.path, environment: repo.goldenEnvironment())
        let committed = scenario.steps.firstIndex(of: crash.step)! >= scenario.steps.firstIndex(of: scenario.pointOfNoReturn)!
        #expect(rerun.status == 0, "\(rerun.stderr)")
        // The killed run's temporary file first (a temp step only), then the one line saying which.
        var lines = rerun.stderr.split(separator: "\n").map(String.init)
        if crash.step.hasPrefix("temp-") {
            #expect(lines.first?.hasPrefix("note: removed 1 temporary file a killed relctl left behind: .remoteconfig.template.json.relctl-\(pid.dropFirst(4))-") == true,
                    "\(rerun.stderr)")
            lines.removeFirst()
        }
        let said = committed ? "finished" : "rolled back"
        #expect(lines.first?.hasPrefix("note: \(said) the interrupted \(scenario.what) (\(pid), stopped after step '") == true, "\(rerun.stderr)")
        if committed {
            // The decision is recorded: the rerun has nothing more to do (only the open's reminder of the pending
            // major release, or adopt's own "nothing to adopt", follows).
            let rest = lines.dropFirst().filter { !$0.hasPrefix("warning: major release 3.0.0 is pending: ") }
            #expect(rest == (scenario == .adopt ? ["nothing to adopt: v2.43.0 (2.43.0) is already the last release reachable from HEAD, and the files hold 2.43.0"] : []),
                    "\(rerun.stderr)")
        }
        try expectOneCleanDecision(repo, scenario, head: head)
    }

    /// Any command that takes the lock recovers it, not only the one that was killed: here `gate set-latest` with
    /// the value the document already holds, which then has nothing to change.
    @Test(arguments: ["write-1", "commit"])
    func anotherCommandThatWritesRecoversIt(step: String) throws {
        let repo = try DecisionScenario.raiseMin.make()
        let head = try repo.git(["rev-parse", "HEAD"])
        let killed = try runRelctl(DecisionScenario.raiseMin.arguments, in: repo.path,
                                   environment: repo.goldenEnvironment(["RELCTL_TEST_CRASH": step]))
        #expect(killed.status == SIGKILL)
        let pid = try journalPID(of: killed, repo)
        // A dry run takes no lock: it names the interrupted decision and changes nothing.
        let before = try repo.snapshot()
        let dry = try runRelctl(["release", "--dry-run"], in: repo.path)
        #expect(dry.status == 1)
        #expect(dry.stderr.contains("\nerror: gate raise-min 2.5.0 was interrupted (\(repo.path)/.git/relctl-release.json, stopped after step '"), "\(dry.stderr)")
        #expect(try repo.snapshot() == before)

        let other = try runRelctl(["gate", "set-latest", "2.5.0"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(other.status == 0, "\(other.stderr)")
        if step == "commit" {
            #expect(other.stderr.hasPrefix("note: finished the interrupted gate raise-min 2.5.0 (pid \(pid), stopped after step 'written'): its commit "), "\(other.stderr)")
            try expectOneCleanDecision(repo, .raiseMin, head: head)
        } else {
            #expect(other.stderr == "note: rolled back the interrupted gate raise-min 2.5.0 (pid \(pid), stopped after step 'planned'): restored remoteconfig.template.json\n"
                    + Self.pendingWarning + "\"vendor_latest_version\" is already 2.5.0 in remoteconfig.template.json; nothing to change\n", "\(other.stderr)")
            #expect(try repo.git(["rev-parse", "HEAD"]) == head)
            #expect(try repo.git(["status", "--porcelain", "--untracked-files=all"]).isEmpty)
        }
    }

    /// A failure at each point (`RELCTL_TEST_FAULT`) undoes everything the transaction did — the document, the
    /// marker, the index, the branch, the tag — says so in one line, and the same command then succeeds.
    @Test(arguments: DecisionScenario.allCases.flatMap { scenario in
        (scenario == .adopt ? ["after-write", "after-tag"] : ["after-write", "after-commit"]).map { (scenario, $0) }
    })
    func aFailureAtEachPointRestoresEverything(_ scenario: DecisionScenario, fault: String) throws {
        let repo = try scenario.make()
        let before = try repo.snapshot()
        let head = try repo.git(["rev-parse", "HEAD"])
        let failed = try runRelctl(scenario.arguments, in: repo.path, environment: repo.goldenEnvironment(["RELCTL_TEST_FAULT": fault]))
        #expect(failed.status == 1)
        let error = failed.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        let expected = scenario == .adopt
            ? "error: cannot create v2.43.0: injected fault at \(fault); nothing was changed"
            : "error: the decision could not be committed: injected fault at \(fault); the gate document, the marker and the index were restored"
        #expect(error == [Substring(expected)], "\(failed.stderr)")
        #expect(try repo.snapshot() == before)
        #expect(try repo.git(["tag", "--list", "v2.43.0"]).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.git/relctl-release.json"))
        let again = try runRelctl(scenario.arguments, in: repo.path, environment: repo.goldenEnvironment())
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("interrupted"), "\(again.stderr)")
        try expectOneCleanDecision(repo, scenario, head: head)
    }

    /// The journal of a gate decision or adopt is untrusted input exactly as a release's: an unknown kind, a tag on
    /// an object that is not a commit, a path out of the work tree are refused before anything is touched, with the fix.
    @Test(arguments: [(DecisionScenario.raiseMin, "write-1", "kind"), (.adopt, "journal", "tagTarget"), (.keepMin, "delete-1", "path")])
    func anEditedJournalIsRefused(_ scenario: DecisionScenario, step: String, edit: String) throws {
        let repo = try scenario.make()
        let killed = try runRelctl(scenario.arguments, in: repo.path, environment: repo.goldenEnvironment(["RELCTL_TEST_CRASH": step]))
        #expect(killed.status == SIGKILL)
        let path = repo.path + "/.git/relctl-release.json"
        var journal = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let problem: String
        switch edit {
        case "kind":
            journal["kind"] = "gate drop-table"
            problem = "the kind \"gate drop-table\" is not one this relctl knows"
        case "tagTarget":
            let blob = try repo.git(["rev-parse", "HEAD:package.json"]).trimmingCharacters(in: .newlines)
            journal["tagTarget"] = blob
            problem = "the tag v2.43.0 names \(blob.prefix(12)), which is not a commit of this repository"
        default:
            var files = try #require(journal["files"] as? [[String: Any]])
            files[0]["path"] = "../victim.txt"
            journal["files"] = files
            problem = "the file \"../victim.txt\" is outside the work tree"
        }
        try JSONSerialization.data(withJSONObject: journal).write(to: URL(fileURLWithPath: path))
        let before = try repo.snapshot()
        let rerun = try runRelctl(scenario.arguments, in: repo.path, environment: repo.goldenEnvironment())
        #expect(rerun.status == 1)
        #expect(rerun.stderr == "error: cannot use the journal of an interrupted release, \(path): \(problem); check 'git status' and 'git log -1', put the files back as committed (git checkout -- .), then delete it (rm \(path)) and rerun\n",
                "\(rerun.stderr)")
        #expect(try repo.snapshot() == before)
        #expect(try repo.git(["tag", "--list", "v2.43.0"]).isEmpty)
        // The fix, followed literally, ends in the decision made once.
        let head = try repo.git(["rev-parse", "HEAD"])
        try repo.git(["checkout", "--", "."])
        try FileManager.default.removeItem(atPath: path)
        let again = try runRelctl(scenario.arguments, in: repo.path, environment: repo.goldenEnvironment())
        #expect(again.status == 0, "\(again.stderr)")
        try expectOneCleanDecision(repo, scenario, head: head)
    }

    static let pendingWarning = "warning: major release 3.0.0 is pending: min_supported_version is unchanged; raise it only once 3.0.0 is live in every store the app ships to, then run, in order: relctl gate set-latest 3.0.0, then relctl gate raise-min 3.0.0 --confirm-live (or keep it: relctl gate keep-min --reason \"<why>\")\n"

    /// The journal's pid: the killed run's.
    func journalPID(of killed: ProcessResult, _ repo: TestRepository) throws -> String {
        let text = try repo.read(".git/relctl-release.json")
        let range = try #require(text.range(of: #""pid":[0-9]+"#, options: .regularExpression))
        return String(text[range].dropFirst(6))
    }
}
