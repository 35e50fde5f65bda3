import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

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
        #expect(isSymbolicLink(repo.path + "/app.json"))
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
        // One line: relative path, one `error:`, the fix in parentheses last.
        #expect(result.stderr == "error: CHANGELOG.md: is a symbolic link to docs/CHANGES.md; nothing was changed (point the files entry / changelog.path at the real file)\n",
                "\(result.stderr)")
        #expect(try repo.snapshot() == before)
        #expect(isSymbolicLink(repo.path + "/CHANGELOG.md"))
        #expect(try repo.git(["tag", "-l", "v1.3.0"]).isEmpty)
    }

    @Test func byteOrderMarkFilesSyncAndLatin1IsOneLine() throws {
        let repo = try TestRepository()
        try repo.write("package.json", "")
        try Data([0xEF, 0xBB, 0xBF] + Array(packageJSON("1.2.0").utf8)).write(to: URL(fileURLWithPath: repo.path + "/package.json"))
        try writeConfig(repo, files: [("package.json", "json")])
        let sync = relctl(["sync", "1.3.0"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: repo.path + "/package.json"))) == [0xEF, 0xBB, 0xBF] + Array(packageJSON("1.3.0").utf8))

        try Data(Array("{\"version\": \"1.3.0\", \"author\": \"Ren".utf8) + [0xE9, 0x22, 0x7D]).write(to: URL(fileURLWithPath: repo.path + "/package.json"))
        let before = try repo.snapshot()
        let latin1 = relctl(["sync", "1.4.0"], in: repo.path)
        #expect(latin1.code == 1)
        #expect(latin1.stderr == "error: package.json: not valid UTF-8 text (byte 0xE9 at offset 35); relctl edits UTF-8 files only — convert it with iconv -f latin1 -t utf-8\n")
        #expect(try repo.snapshot() == before)
    }
}
