import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

@Suite("History walks on real repositories")
struct HistoryWalkerTests {
    /// The shas of a walk, newest first.
    func shas(_ walk: RangeWalk) -> [String] { walk.commits.map(\.id.hex) }

    @Test func linearRangeMatchesGitLog() throws {
        let repo = try TestRepository()
        for i in 0..<30 { try repo.emptyCommit("feat: early \(i)") }
        try repo.tag("v1.0.0")
        for i in 0..<7 { try repo.commit("fix: later \(i)\n\nbody \(i)") }
        let git = try Repository(at: repo.path)
        let walker = HistoryWalker(repository: git)
        let base = try #require(ObjectID(hex: try repo.git(["rev-parse", "v1.0.0^{commit}"]).trimmingCharacters(in: .whitespacesAndNewlines)))
        let head = try #require(try git.headCommit())
        let walk = try walker.walk(from: head, hiding: base)
        #expect(walk.reachedBase)
        #expect(shas(walk) == (try repo.shas("v1.0.0..HEAD")))
        #expect(walk.commits.first?.message == "fix: later 6\n\nbody 6\n")
        // Each commit of the range once, the base, and git's slop of five steps below it: not the 30 older commits.
        #expect(walker.objectsRead <= 7 + 1 + 6)
        #expect(walker.objectsRead >= 8)
    }

    @Test func mergedBranchesAreWalkedOnceAndMergesCountTheirParents() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        try repo.tag("v1.0.0")
        try repo.git(["checkout", "-q", "-b", "topic"])
        try repo.commit("feat: on topic", file: "topic.txt")
        try repo.commit("fix: on topic", file: "topic.txt")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("fix: on main")
        try repo.git(["merge", "-q", "--no-ff", "-m", "Merge branch 'topic'", "topic"])
        let git = try Repository(at: repo.path)
        let walker = HistoryWalker(repository: git)
        let base = try #require(ObjectID(hex: try repo.git(["rev-parse", "v1.0.0^{}"]).trimmingCharacters(in: .whitespacesAndNewlines)))
        let walk = try walker.walk(from: try #require(try git.headCommit()), hiding: base)
        #expect(Set(shas(walk)) == Set(try repo.shas("v1.0.0..HEAD")))
        #expect(walk.commits.count == 4)
        #expect(walk.commits.filter { $0.parentCount == 2 }.count == 1)
    }

    @Test func baseOnAnUnmergedBranchIsNotReached() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        try repo.git(["checkout", "-q", "-b", "side"])
        try repo.commit("feat: side work", file: "side.txt")
        try repo.tag("v9.0.0")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("fix: main work")
        let git = try Repository(at: repo.path)
        let walker = HistoryWalker(repository: git)
        let sideTag = try #require(ObjectID(hex: try repo.git(["rev-parse", "v9.0.0^{}"]).trimmingCharacters(in: .whitespacesAndNewlines)))
        let walk = try walker.walk(from: try #require(try git.headCommit()), hiding: sideTag)
        #expect(!walk.reachedBase)
        #expect(shas(walk) == (try repo.shas("v9.0.0..HEAD")))
    }

    @Test func wholeHistoryWithoutBase() throws {
        let repo = try TestRepository()
        for i in 0..<4 { try repo.commit("feat: \(i)") }
        let git = try Repository(at: repo.path)
        let walk = try HistoryWalker(repository: git).walk(from: try #require(try git.headCommit()), hiding: nil)
        #expect(shas(walk) == (try repo.shas("HEAD")))
        #expect(!walk.reachedBase)
    }

    @Test func candidatesAreTriedInOrderAndUnreachableOnesPassedOver() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        try repo.tag("v1.0.0")
        try repo.commit("feat: one")
        try repo.tag("v1.1.0", annotated: false)
        try repo.git(["checkout", "-q", "-b", "side"])
        try repo.commit("feat: side", file: "side.txt")
        try repo.tag("v2.0.0")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("fix: two")
        let git = try Repository(at: repo.path)
        #expect(Set(try git.tagNames(prefix: "v")) == ["v1.0.0", "v1.1.0", "v2.0.0"])
        #expect(try git.tagNames(prefix: "app-").isEmpty)
        let ordered = ["v9.9.9", "v2.0.0", "v1.1.0", "v1.0.0"]   // a missing name is passed over
        let walker = HistoryWalker(repository: git)
        let range = try walker.rangeSinceFirstAncestor(of: try #require(try git.headCommit()), among: ordered)
        #expect(range.base?.index == 2)
        #expect(shas(range.walk) == (try repo.shas("v1.1.0..HEAD")))
    }

    /// Forty release tags on branches never merged back, above the one HEAD reaches: the first is tried with a
    /// walk, then one streamed walk of HEAD's whole history judges the rest and the range is recorded from memory:
    /// two streamed walks, not one per tag (which made `next` take seconds on apps released from branches).
    @Test func unmergedTagsCostOnePassNotOneWalkEach() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        try repo.tag("v1.0.0")
        for i in 1...40 {
            try repo.commit("fix: main work \(i)")
            try repo.git(["checkout", "-q", "-b", "release/\(i)"])
            try repo.commit("chore(release): 2.\(i).0", file: "version.txt")
            try repo.tag("v2.\(i).0")
            try repo.git(["checkout", "-q", "main"])
        }
        let git = try Repository(at: repo.path)
        let ordered = (1...40).reversed().map { "v2.\($0).0" } + ["v1.0.0"]
        for hands in [false, true] {
            let walker = HistoryWalker(repository: git, handsMessagesOn: hands, batchSize: 7)
            var walks = 0
            var batched = 0
            let range = try walker.rangeSinceFirstAncestor(of: try #require(try git.headCommit()), among: ordered,
                                                           onWalk: { walks += 1; batched = 0 },
                                                           onBatch: { batched += $0.count })
            #expect(range.base?.index == 40)
            #expect(shas(range.walk) == (try repo.shas("v1.0.0..HEAD")))
            #expect(walks == 2)
            // The second walk streamed the whole history (a superset of the range); nothing was streamed after it.
            if hands { #expect(batched == 41) }
            // Every commit on main once, the first tag's branch commit, git's slop of five below it, and (handing
            // on) the first walk's commit read again: not the history once per tag.
            #expect(walker.objectsRead <= 41 + 1 + 5 + 2, "\(walker.objectsRead) objects read")
        }
    }

    @Test func annotatedAndLightweightTagsPeelToTheirCommits() throws {
        let repo = try TestRepository()
        let first = try repo.commit("chore: init")
        try repo.tag("annotated")
        try repo.tag("light", annotated: false)
        try repo.git(["tag", "-a", "tag-of-tag", "-m", "nested", "annotated"])
        let tree = try repo.git(["rev-parse", "HEAD^{tree}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        try repo.git(["tag", "tree-tag", tree])
        let git = try Repository(at: repo.path)
        #expect(Set(try git.tagNames()) == ["annotated", "light", "tag-of-tag", "tree-tag"])
        let references = try git.tagNames().compactMap { try git.tag(named: $0) }
        #expect(references.count == 4)
        for tag in references {
            let commit = try git.commit(of: tag)
            if tag.name == "tree-tag" {
                #expect(commit == nil)
            } else {
                #expect(commit?.hex == first, "\(tag.name)")
            }
        }
        // Packed refs record the peeled commit: no object read is needed.
        try repo.git(["pack-refs", "--all"])
        let packed = try Repository(at: repo.path).tag(named: "annotated")
        #expect(packed?.peeled?.hex == first)
    }

    @Test func shallowCloneThatDoesNotReachTheBaseIsAnError() throws {
        let origin = try TestRepository()
        try origin.commit("chore: init")
        try origin.tag("v1.0.0")
        for i in 0..<6 { try origin.commit("feat: \(i)") }
        let cloneDir = try makeTempDirectory(prefix: "relctl-shallow")
        defer { try? FileManager.default.removeItem(atPath: cloneDir) }
        try origin.clone(to: cloneDir + "/c", depth: 2, extra: ["--no-tags"])
        let git = try Repository(at: cloneDir + "/c")
        #expect(git.isShallow)
        let walker = HistoryWalker(repository: git)
        let head = try #require(try git.headCommit())
        let error = #expect(throws: GitError.self) { try walker.walk(from: head, hiding: nil) }
        #expect(error?.kind == .shallowHistory)
    }

    @Test func shallowCloneThatReachesTheBaseWalksFine() throws {
        let origin = try TestRepository()
        for i in 0..<4 { try origin.commit("chore: old \(i)") }
        try origin.tag("v1.0.0")
        for i in 0..<3 { try origin.commit("feat: \(i)") }
        let cloneDir = try makeTempDirectory(prefix: "relctl-shallow")
        defer { try? FileManager.default.removeItem(atPath: cloneDir) }
        try origin.clone(to: cloneDir + "/c", depth: 5)
        let git = try Repository(at: cloneDir + "/c")
        #expect(git.isShallow)
        let tags = try git.tagNames()
        let range = try HistoryWalker(repository: git).rangeSinceFirstAncestor(of: try #require(try git.headCommit()), among: tags)
        #expect(range.base?.index == 0)
        #expect(range.walk.commits.count == 3)
    }

    @Test func discoveryFindsTheRepositoryUpward() throws {
        let repo = try TestRepository()
        try repo.write("app/ios/Info.plist", "x")
        let git = try Repository(discoveringFrom: repo.path + "/app/ios")
        #expect(git.workdir == repo.path)
        #expect(try git.currentBranch() == "main")
        #expect(try git.headCommit() == nil)
        let error = #expect(throws: GitError.self) { try Repository(at: repo.path + "/app") }
        #expect(error?.kind == .notARepository)
    }

    @Test func nonUTF8MessagesAreDecodedWithoutFailing() throws {
        let repo = try TestRepository()
        try repo.write("f", "x")
        try repo.git(["add", "f"])
        let tree = try repo.git(["write-tree"]).trimmingCharacters(in: .whitespacesAndNewlines)
        // A commit object whose message holds bytes that are not UTF-8.
        let body = "tree \(tree)\nauthor A <a@b> 1700000000 +0000\ncommitter A <a@b> 1700000000 +0000\n\nfix: caf\u{00E9}\n"
        var bytes = Array(body.utf8)
        bytes.insert(0xFF, at: bytes.count - 2)
        let file = repo.path + "/.git/raw-commit"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let sha = try repo.git(["hash-object", "-t", "commit", "-w", file]).trimmingCharacters(in: .whitespacesAndNewlines)
        let git = try Repository(at: repo.path)
        let walk = try HistoryWalker(repository: git).walk(from: try #require(ObjectID(hex: sha)), hiding: nil)
        #expect(walk.commits.count == 1)
        #expect(walk.commits[0].message.hasPrefix("fix: caf"))
        #expect(walk.commits[0].message.contains("\u{FFFD}"))
        #expect(walk.commits[0].time == 1_700_000_000)
    }
}
