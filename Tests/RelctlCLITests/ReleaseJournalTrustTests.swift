import Foundation
import Testing
import RelctlTestSupport

/// `.git/relctl-release.json` is untrusted input: anyone who can write to `.git` can edit it. A rerun touches
/// nothing a journal names before every path is known to stay in the work tree (by its text and through symbolic
/// links) and every object it names is in the repository as the journal says; anything else is refused with the
/// journal's path and the fix, and nothing changes, in or outside the repository.
@Suite("the release journal as untrusted input")
struct ReleaseJournalTrustTests {
    /// A release killed after it wrote package.json: its journal is there, planned, with package.json's blobs.
    func killedRelease() throws -> TestRepository {
        let (repo, _) = try CrashScenario.changelogOff.make()
        let killed = try runRelctl(["release"], in: repo.path,
                                   environment: crashEnvironment.merging(["RELCTL_TEST_CRASH": "write-1"]) { a, _ in a })
        #expect(killed.status == SIGKILL)
        return repo
    }

    func journalPath(_ repo: TestRepository) -> String { repo.path + "/.git/relctl-release.json" }

    func readJournal(_ repo: TestRepository) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: journalPath(repo)))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func writeJournal(_ repo: TestRepository, _ journal: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: journal, options: [.sortedKeys])
        try data.write(to: URL(fileURLWithPath: journalPath(repo)))
    }

    func fix(_ repo: TestRepository) -> String {
        "check 'git status' and 'git log -1', put the files back as committed (git checkout -- .), then delete it (rm \(journalPath(repo))) and rerun"
    }

    /// A folder outside the repository with one file in it, and its contents to compare after.
    func outsideFile() throws -> (folder: String, file: String) {
        let folder = NSTemporaryDirectory() + "relctl-outside-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/dir", withIntermediateDirectories: true)
        try "precious\n".write(toFile: folder + "/victim.txt", atomically: true, encoding: .utf8)
        return (folder, folder + "/victim.txt")
    }

    struct Edit: Sendable, CustomTestStringConvertible {
        let testDescription: String
        /// The journal's `files[0]` path (or folder) as the attacker writes it, given the outside file.
        let path: @Sendable (_ outside: String, _ relativeToRoot: String) -> String
        let keepBefore: Bool
        let asFolder: Bool
        let problem: @Sendable (_ path: String) -> String
    }

    static let pathEdits: [Edit] = [
        Edit(testDescription: "an absolute path with a before blob", path: { outside, _ in outside }, keepBefore: true, asFolder: false,
             problem: { "the file \"\($0)\" is an absolute path" }),
        Edit(testDescription: "a ../ path with a before blob", path: { _, relative in relative }, keepBefore: true, asFolder: false,
             problem: { "the file \"\($0)\" is outside the work tree" }),
        Edit(testDescription: "a ../ path without before (a delete)", path: { _, relative in relative }, keepBefore: false, asFolder: false,
             problem: { "the file \"\($0)\" is outside the work tree" }),
        Edit(testDescription: "an absolute folder", path: { outside, _ in (outside as NSString).deletingLastPathComponent + "/dir" },
             keepBefore: true, asFolder: true, problem: { "the folder \"\($0)\" is an absolute path" }),
        Edit(testDescription: "a path inside .git", path: { _, _ in ".git/config" }, keepBefore: true, asFolder: false,
             problem: { "the file \"\($0)\" is inside .git" }),
    ]

    /// Each path that leaves the work tree by its text: refused before anything is read or written; the outside
    /// file keeps its bytes and the repository is exactly as the crash left it.
    @Test(arguments: pathEdits)
    func aJournalPathOutsideTheWorkTreeIsRefused(edit: Edit) throws {
        let repo = try killedRelease()
        let outside = try outsideFile()
        defer { try? FileManager.default.removeItem(atPath: outside.folder) }
        let relative = String(repeating: "../", count: repo.path.split(separator: "/").count) + String(outside.file.dropFirst())
        let path = edit.path(outside.file, relative)
        var journal = try readJournal(repo)
        if edit.asFolder {
            journal["folders"] = [path]
        } else {
            var files = try #require(journal["files"] as? [[String: Any]])
            files[0]["path"] = path
            if !edit.keepBefore { files[0].removeValue(forKey: "before") }
            journal["files"] = files
        }
        try writeJournal(repo, journal)
        let before = try repo.snapshot()
        let rerun = try runRelctl(["release"], in: repo.path)
        #expect(rerun.status == 1)
        #expect(rerun.stderr == "error: cannot use the journal of an interrupted release, \(journalPath(repo)): \(edit.problem(path)); \(fix(repo))\n")
        #expect(try String(contentsOfFile: outside.file, encoding: .utf8) == "precious\n")
        #expect(FileManager.default.fileExists(atPath: outside.folder + "/dir"))
        #expect(try repo.snapshot() == before)
    }

    /// A path whose text stays inside but that leads out through a symbolic link in the work tree (a folder link,
    /// or the file itself a link): refused as config paths are.
    @Test(arguments: [false, true])
    func aJournalPathLeadingOutThroughASymbolicLinkIsRefused(fileIsTheLink: Bool) throws {
        let repo = try killedRelease()
        let outside = try outsideFile()
        defer { try? FileManager.default.removeItem(atPath: outside.folder) }
        let link = fileIsTheLink ? "victim.txt" : "shared"
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/" + link,
                                                   withDestinationPath: fileIsTheLink ? outside.file : outside.folder)
        let path = fileIsTheLink ? "victim.txt" : "shared/victim.txt"
        var journal = try readJournal(repo)
        var files = try #require(journal["files"] as? [[String: Any]])
        files[0]["path"] = path
        journal["files"] = files
        try writeJournal(repo, journal)
        let rerun = try runRelctl(["release"], in: repo.path)
        #expect(rerun.status == 1)
        let target = fileIsTheLink ? outside.file : outside.folder
        #expect(rerun.stderr == "error: cannot use the journal of an interrupted release, \(journalPath(repo)): \"\(path)\" leads outside the work tree: \(link) is a symbolic link to \(realPath(target)); \(fix(repo))\n")
        #expect(try String(contentsOfFile: outside.file, encoding: .utf8) == "precious\n")
    }

    /// A tag that climbs out of `refs/tags` (`../../../../x`): never a lock file removed or a reference made.
    @Test func aTagThatIsNotAValidReferenceNameIsRefused() throws {
        let repo = try killedRelease()
        let outside = try outsideFile()
        defer { try? FileManager.default.removeItem(atPath: outside.folder) }
        try "lock\n".write(toFile: outside.folder + "/x.lock", atomically: true, encoding: .utf8)
        var journal = try readJournal(repo)
        let tag = String(repeating: "../", count: 12) + String(outside.folder.dropFirst()) + "/x"
        journal["tag"] = tag
        try writeJournal(repo, journal)
        let before = try repo.snapshot()
        let rerun = try runRelctl(["release"], in: repo.path)
        #expect(rerun.status == 1)
        #expect(rerun.stderr == "error: cannot use the journal of an interrupted release, \(journalPath(repo)): the tag \"\(tag)\" is not a valid tag name; \(fix(repo))\n")
        #expect(FileManager.default.fileExists(atPath: outside.folder + "/x.lock"))
        #expect(try repo.snapshot() == before)
    }

    /// A tagger that would forge lines of the tag object's header: refused before any tag is made.
    @Test func aTaggerWithALineBreakIsRefused() throws {
        let repo = try killedRelease()
        var journal = try readJournal(repo)
        var tagger = try #require(journal["tagger"] as? [String: Any])
        tagger["name"] = "Release Bot\nobject 0000000000000000000000000000000000000000"
        journal["tagger"] = tagger
        try writeJournal(repo, journal)
        let before = try repo.snapshot()
        let rerun = try runRelctl(["release"], in: repo.path)
        #expect(rerun.status == 1)
        #expect(rerun.stderr == "error: cannot use the journal of an interrupted release, \(journalPath(repo)): the tagger \"Release Bot\\012object 0000000000000000000000000000000000000000\" is not a name or email git accepts; \(fix(repo))\n")
        #expect(try repo.snapshot() == before)
    }

    /// A journal naming a tag as its branch: an error naming the journal, not git's "object is not a commit".
    @Test func aTagNamedAsTheBranchIsRefusedNamingTheJournal() throws {
        let repo = try killedRelease()
        var journal = try readJournal(repo)
        journal["branch"] = "refs/tags/v1.2.3"
        try writeJournal(repo, journal)
        for arguments in [["release"], ["release", "--dry-run"]] {
            let rerun = try runRelctl(arguments, in: repo.path)
            #expect(rerun.status == 1)
            #expect(rerun.stderr == "error: cannot use the journal of an interrupted release, \(journalPath(repo)): the branch \"refs/tags/v1.2.3\" is not a branch (refs/heads/…); \(fix(repo))\n")
        }
    }

    /// A hand-made journal claiming HEAD is the release of HEAD~1: HEAD is not tagged as a release, nothing changes,
    /// and the message names the journal with the fix. Following the fix ends in a real release.
    @Test func aJournalNamingAnUnrelatedCommitAsTheReleaseIsNotTagged() throws {
        let (repo, _) = try CrashScenario.changelogOff.make()
        let head = try repo.git(["rev-parse", "HEAD"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let parent = try repo.git(["rev-parse", "HEAD~1"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let blob = try repo.git(["rev-parse", "HEAD:package.json"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try writeJournal(repo, [
            "schemaVersion": 1, "pid": 999_999, "version": "1.3.0", "tag": "v1.3.0", "branch": "refs/heads/main",
            "base": parent, "commit": head, "commitMessage": "chore(release): 1.3.0\n", "tagMessage": "1.3.0\n",
            "tagger": ["name": "Release Bot", "email": "bot@example.com", "seconds": 1_790_000_000, "offsetMinutes": 0],
            "files": [["path": "package.json", "after": blob]], "folders": [String](),
            "steps": [["name": "committed", "time": 1_790_000_000.0]],
        ])
        let before = try repo.snapshot()
        let rerun = try runRelctl(["release"], in: repo.path)
        #expect(rerun.status == 1)
        #expect(rerun.stderr == "error: the interrupted release 1.3.0 (\(journalPath(repo)), pid 999999, stopped after step 'committed') can be neither finished nor rolled back: main has moved since it started (\(head.prefix(12)) now, \(parent.prefix(12)) then); check 'git log' and 'git status', put back any file it left (git checkout -- <file>), then delete \(journalPath(repo))\n")
        #expect(try repo.snapshot() == before)
        #expect(try repo.git(["tag", "--list", "v1.3.0"]).isEmpty)
        // The fix, followed: the journal deleted, the next release is a real one.
        try FileManager.default.removeItem(atPath: journalPath(repo))
        let again = try runRelctl(["release"], in: repo.path, environment: crashEnvironment)
        #expect(again.status == 0, "\(again.stderr)")
        try expectOneCleanRelease(repo, remote: nil, scenario: .changelogOff)
    }

    /// Objects the repository does not hold: a start commit, a 'before' blob.
    @Test func objectsMissingFromTheRepositoryAreRefused() throws {
        let repo = try killedRelease()
        let original = try readJournal(repo)
        var journal = original
        journal["base"] = String(repeating: "ab", count: 20)
        try writeJournal(repo, journal)
        let before = try repo.snapshot()
        var rerun = try runRelctl(["release"], in: repo.path)
        #expect(rerun.stderr == "error: cannot use the journal of an interrupted release, \(journalPath(repo)): the start commit abababababab is not a commit of this repository; \(fix(repo))\n")
        #expect(try repo.snapshot() == before)
        journal = original
        var files = try #require(journal["files"] as? [[String: Any]])
        files[0]["before"] = String(repeating: "cd", count: 20)
        journal["files"] = files
        try writeJournal(repo, journal)
        rerun = try runRelctl(["release"], in: repo.path)
        #expect(rerun.status == 1)
        #expect(rerun.stderr == "error: cannot use the journal of an interrupted release, \(journalPath(repo)): package.json: the blob of its bytes before the release (cdcdcdcdcdcd) is not in this repository; \(fix(repo))\n")
        #expect(try repo.snapshot() == before)
    }

    /// Empty, truncated, not JSON, a symbolic link: `release`, `release --dry-run` and `status` all say so, none
    /// exits 0; following the fix ends in one clean release.
    @Test(arguments: ["empty", "truncated", "garbage", "link"])
    func anUnusableJournalIsShownByEveryCommand(kind: String) throws {
        let repo = try killedRelease()
        let path = journalPath(repo)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try FileManager.default.removeItem(atPath: path)
        let why: String
        switch kind {
        case "empty":
            try "".write(toFile: path, atomically: false, encoding: .utf8)
            why = "it is empty (a crash while it was written?)"
        case "truncated":
            try String(text.prefix(text.count / 2)).write(toFile: path, atomically: false, encoding: .utf8)
            why = "it is not the JSON relctl writes (truncated, or edited by hand?)"
        case "garbage":
            try "\u{1B}]0;pwned\u{07}\n".write(toFile: path, atomically: false, encoding: .utf8)
            why = "it is not the JSON relctl writes (truncated, or edited by hand?)"
        default:
            try text.write(toFile: repo.path + "/elsewhere.json", atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: repo.path + "/elsewhere.json")
            why = "it is a symbolic link, not the file relctl writes"
        }
        let message = "cannot use the journal of an interrupted release, \(path): \(why); \(fix(repo))"
        for arguments in [["release"], ["release", "--dry-run"]] {
            let run = try runRelctl(arguments, in: repo.path)
            #expect(run.status == 1, "\(arguments)")
            #expect(run.stderr == "error: \(message)\n", "\(arguments)")
        }
        let status = try runRelctl(["status"], in: repo.path)
        #expect(status.status == 1)
        #expect(status.stdout.contains("\nproblem:       \(message)\n"), "\(status.stdout)")
        let json = try runRelctl(["status", "--json"], in: repo.path)
        #expect(json.status == 1)
        #expect(json.stdout.contains(",\"journalProblem\":\"cannot use the journal of an interrupted release, "), "\(json.stdout)")
        // The fix, followed literally.
        try repo.git(["checkout", "--", "."])
        try FileManager.default.removeItem(atPath: path)
        if kind == "link" { try FileManager.default.removeItem(atPath: repo.path + "/elsewhere.json") }
        let again = try runRelctl(["release"], in: repo.path, environment: crashEnvironment)
        #expect(again.status == 0, "\(again.stderr)")
        try expectOneCleanRelease(repo, remote: nil, scenario: .changelogOff)
    }

    /// A symbolic link (or a hard link) at `.git/relctl-release.json.tmp`: the journal is never written through it.
    @Test(arguments: ["symbolic", "dangling", "hard"])
    func aLinkedTemporaryJournalIsNotWrittenThrough(kind: String) throws {
        let (repo, _) = try CrashScenario.changelogOff.make()
        let outside = try outsideFile()
        defer { try? FileManager.default.removeItem(atPath: outside.folder) }
        let temp = journalPath(repo) + ".tmp"
        switch kind {
        case "symbolic": try FileManager.default.createSymbolicLink(atPath: temp, withDestinationPath: outside.file)
        case "dangling": try FileManager.default.createSymbolicLink(atPath: temp, withDestinationPath: outside.folder + "/new.txt")
        default: try FileManager.default.linkItem(atPath: outside.file, toPath: temp)
        }
        let before = try repo.snapshot()
        let run = try runRelctl(["release"], in: repo.path)
        #expect(run.status == 1)
        let what = kind == "hard" ? "a hard link" : "a symbolic link"
        #expect(run.stderr == "error: cannot write the release journal: \(temp) is \(what), not relctl's temporary journal; relctl writes no file through a link: delete it (rm \(temp)) and rerun; nothing was changed\n")
        #expect(try String(contentsOfFile: outside.file, encoding: .utf8) == "precious\n")
        #expect(!FileManager.default.fileExists(atPath: outside.folder + "/new.txt"))
        #expect(try repo.snapshot() == before)
        // The fix, followed.
        try FileManager.default.removeItem(atPath: temp)
        let again = try runRelctl(["release"], in: repo.path, environment: crashEnvironment)
        #expect(again.status == 0, "\(again.stderr)")
        try expectOneCleanRelease(repo, remote: nil, scenario: .changelogOff)
    }
}

func realPath(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
}
