import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

@Suite("The history of a file through libgit2 (relctl adopt)")
struct FileHistoryTests {
    @Test func firstParentsBlobsAndBytesMatchGit() throws {
        let repo = try TestRepository()
        try repo.write("android/app/build.gradle", "versionName \"2.42.0\"\n")
        let root = try repo.commitAll("chore: initial")
        try repo.write("android/app/build.gradle", "versionName \"2.43.0\"\n")
        let bump = try repo.commitAll("chore: bump to 2.43.0\r\n\r\nbody")
        try repo.git(["checkout", "-q", "-b", "feature"])
        let side = try repo.commit("feat: side", file: "side.txt")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("fix: main", file: "main.txt")
        try repo.git(["merge", "-q", "--no-ff", "-m", "Merge feature", "feature"])
        let git = try Repository(at: repo.path)
        let head = try #require(try git.headCommit())

        // The first parent of a merge is the branch it was made on, as `git rev-parse HEAD^1`.
        let first = try #require(try git.firstParent(of: head))
        #expect(first.hex == (try repo.git(["rev-parse", "HEAD^1"]).trimmingCharacters(in: .newlines)))
        #expect(first.hex != side)
        #expect(try git.firstParent(of: try #require(ObjectID(hex: root))) == nil)

        let blobs = try git.blobIDs(at: ["android/app/build.gradle", "missing.txt", "android"], in: try #require(ObjectID(hex: bump)))
        #expect(blobs.count == 3)
        #expect(blobs[0]?.hex == (try repo.git(["rev-parse", "\(bump):android/app/build.gradle"]).trimmingCharacters(in: .newlines)))
        #expect(blobs[1] == nil)   // no such path
        #expect(blobs[2] == nil)   // a folder, not a file
        #expect(try git.blobBytes(try #require(blobs[0])) == Array("versionName \"2.43.0\"\n".utf8))

        let summary = try git.commitSummary(try #require(ObjectID(hex: bump)))
        #expect(summary.subject == "chore: bump to 2.43.0")
        #expect(String(summary.time) == (try repo.git(["log", "-1", "--format=%ct", bump]).trimmingCharacters(in: .newlines)))
    }

    @Test func theEdgeOfAShallowCloneIsReported() throws {
        let origin = try TestRepository()
        for n in 0..<3 { try origin.commit("chore: \(n)") }
        let clonePath = try makeTempDirectory(prefix: "relctl-shallow")
        defer { try? FileManager.default.removeItem(atPath: clonePath) }
        try FileManager.default.removeItem(atPath: clonePath)
        try origin.clone(to: clonePath, depth: 1)
        let git = try Repository(at: clonePath)
        let head = try #require(try git.headCommit())
        #expect { try git.firstParent(of: head) } throws: { ($0 as? GitError)?.kind == .shallowHistory }
    }
}
