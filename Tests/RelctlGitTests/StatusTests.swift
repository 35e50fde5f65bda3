import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

@Suite("git status through libgit2")
struct StatusTests {
    @Test func filesKeptOutBySparseCheckoutAreNotChanges() throws {
        let repo = try TestRepository()
        try repo.write("app/app.json", "{}\n")
        try repo.write("docs/guide.md", "# guide\n")
        try repo.write("web/index.html", "<html></html>\n")
        try repo.commitAll("chore: init")
        try repo.git(["sparse-checkout", "set", "--no-cone", "/app/", "/.relctl.json"])
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/docs/guide.md"))
        #expect(try repo.git(["status", "--porcelain"]) == "")
        let git = try Repository(at: repo.path)
        #expect(try git.status().isEmpty)
        // A real change beside them is still seen; so is deleting a file that is in the sparse set.
        try repo.write("app/app.json", "{\"v\": 2}\n")
        #expect(try git.status().map(\.path) == ["app/app.json"])
        try FileManager.default.removeItem(atPath: repo.path + "/app/app.json")
        #expect(try git.status().map(\.path) == ["app/app.json"])
    }

    @Test func untrackedFilesAreListedOneByOneAndIgnoredFilesNot() throws {
        let repo = try TestRepository()
        try repo.write(".gitignore", "build/\n")
        try repo.commitAll("chore: init")
        try repo.write("ios/App/Info.plist", "<plist/>\n")
        try repo.write("build/output.txt", "ignored\n")
        let git = try Repository(at: repo.path)
        let status = try git.status()
        #expect(status == [StatusEntry(path: "ios/App/Info.plist", untracked: true)])
        try repo.git(["add", "ios/App/Info.plist"])
        #expect(try git.status() == [StatusEntry(path: "ios/App/Info.plist", untracked: false)])
    }
}
