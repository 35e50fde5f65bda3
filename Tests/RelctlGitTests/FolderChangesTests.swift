import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

@Suite("Which project folders a commit changes (FolderChanges), against git diff --name-only")
struct FolderChangesTests {
    @Test func eachCommitIsComparedWithItsFirstParentForEveryFolderAtOnce() throws {
        let repo = try TestRepository()
        try repo.write("apps/consumer/a.js", "a\n")
        try repo.write("apps/driver/a.js", "a\n")
        try repo.write("packages/ui/a.js", "a\n")
        let root = try repo.commitAll("chore: initial")
        let consumer = try repo.commit("fix: c", file: "apps/consumer/deep/b.js")
        try repo.write("apps/consumer/c.js", "c\n")
        try repo.write("apps/driver/c.js", "c\n")
        let both = try repo.commitAll("feat: both")
        let readme = try repo.commit("docs: readme", file: "README.md")
        let empty = try repo.emptyCommit("chore: nothing")
        // A file where a folder was: apps/driver becomes a file.
        try repo.git(["rm", "-rq", "apps/driver"])
        try repo.write("apps/driver", "now a file\n")
        let replaced = try repo.commitAll("refactor!: driver moved out")
        try repo.git(["checkout", "-q", "-b", "side", consumer])
        let side = try repo.commit("feat: ui", file: "packages/ui/button.js")
        try repo.git(["checkout", "-q", "main"])
        try repo.git(["merge", "-q", "--no-ff", "-m", "Merge side", "side"])
        let merge = try repo.head()

        let repository = try Repository(at: repo.path)
        let changes = FolderChanges(repository: repository, folders: ["apps/consumer", "apps/driver", "packages/ui", "apps", ""])
        func changed(_ sha: String, _ parent: String?) throws -> [Bool] {
            try changes.changed(try #require(ObjectID(hex: sha)), firstParent: parent.flatMap { ObjectID(hex: $0) })
        }
        #expect(try changed(root, nil) == [true, true, true, true, true])
        #expect(try changed(consumer, root) == [true, false, false, true, true])
        #expect(try changed(both, consumer) == [true, true, false, true, true])
        #expect(try changed(readme, both) == [false, false, false, false, true])
        #expect(try changed(empty, readme) == [false, false, false, false, false])
        #expect(try changed(replaced, empty) == [false, true, false, true, true])
        #expect(try changed(side, consumer) == [false, false, true, false, true])
        // The merge brought in the side branch's ui change (against its first parent, `replaced`).
        #expect(try changed(merge, replaced) == [false, false, true, false, true])
        // The same answers as git for every commit of the history.
        for sha in try repo.shas("HEAD") {
            let parent = try repo.git(["rev-list", "--parents", "-n", "1", sha]).split(separator: " ").dropFirst().first.map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
            let names = try repo.git(["diff", "--name-only", "--no-renames", parent ?? "4b825dc642cb6eb9a060e54bf8d69288fbee4904", sha]).split(separator: "\n")
            let expected = changes.folders.map { folder in names.contains { folder.isEmpty || $0 == folder || $0.hasPrefix(folder + "/") } }
            #expect(try changed(sha, parent) == expected, "\(sha)")
        }
    }
}
