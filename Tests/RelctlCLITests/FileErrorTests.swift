import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

#if canImport(Glibc)
import Glibc
#endif

/// True when `path` itself (not what it points to) is a symbolic link.
func isLink(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK
}

@Suite("Version files relctl refuses, reported on one line")
struct FileErrorTests {
    @Test(arguments: ["current", "sync", "release"])
    func symlinkedVersionFileIsRefusedBeforeAnythingIsWritten(command: String) throws {
        let repo = try releaseRepository(["feat: x"])
        try repo.write("config/app.json", expoAppJSON)
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/app.json", withDestinationPath: "config/app.json")
        try writeConfig(repo, files: [("app.json", "expo")])
        try repo.commitAll("chore: linked app.json")
        let before = try repo.snapshot()
        let result = relctl(command == "sync" ? ["sync", "1.3.0"] : [command], in: repo.path)
        #expect(result.code == 1, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.contains("error") }
        #expect(lines == ["error: app.json: is a symbolic link to config/app.json (point the files entry at the real file, config/app.json; relctl does not write through links)"],
                "\(result.stderr)")
        #expect(!result.stderr.contains(repo.path), "\(result.stderr)")
        #expect(try repo.snapshot() == before)
        #expect(isLink(repo.path + "/app.json"))
    }

    @Test func symlinkedChangelogIsNotReplaced() throws {
        let repo = try releaseRepository(["feat: x"])
        try FileManager.default.removeItem(atPath: repo.path + "/CHANGELOG.md")
        try repo.write("docs/CHANGES.md", "# Changes\n")
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/CHANGELOG.md", withDestinationPath: "docs/CHANGES.md")
        try repo.commitAll("chore: linked changelog")
        let before = try repo.snapshot()
        let result = relctl(["release"], in: repo.path, environment: fixedDate)
        #expect(result.code == 1, "\(result.stderr)")
        // One line: relative path, one `error:`.
        #expect(result.stderr == "error: CHANGELOG.md: is a symbolic link to docs/CHANGES.md (point the files entry / changelog.path at the real file); nothing was changed\n",
                "\(result.stderr)")
        #expect(try repo.snapshot() == before)
        #expect(isLink(repo.path + "/CHANGELOG.md"))
        #expect(try repo.git(["tag", "-l", "v1.3.0"]).isEmpty)
    }
}
