import Foundation
import Testing
import RelctlCore
@testable import RelctlFiles

#if canImport(Glibc)
import Glibc
#endif

/// True when `path` itself (not what it points to) is a symbolic link.
func isSymbolicLink(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK
}

@Suite("Version files that relctl must not damage")
struct FileSafetyTests {
    /// `app.json -> config/app.json` and `CHANGELOG.md -> docs/CHANGES.md`.
    func linkedProject() throws -> TempProject {
        let project = try TempProject([
            "config/app.json": "{\n  \"expo\": {\n    \"version\": \"1.0.0\"\n  }\n}\n",
            "package.json": "{\n  \"version\": \"1.0.0\"\n}\n",
            "docs/CHANGES.md": "# Changes\n",
        ])
        try FileManager.default.createSymbolicLink(atPath: project.root + "/app.json", withDestinationPath: "config/app.json")
        try FileManager.default.createSymbolicLink(atPath: project.root + "/CHANGELOG.md", withDestinationPath: "docs/CHANGES.md")
        return project
    }

    @Test func syncRefusesASymlinkedVersionFileBeforeWriting() throws {
        let project = try linkedProject()
        let before = try project.snapshot()
        let entries = [FileEntry(path: "package.json", format: .json), FileEntry(path: "app.json", format: .expo)]
        let error = #expect(throws: FileEditError.self) {
            _ = try SyncPlan.make(root: project.root, entries: entries, version: "1.1.0")
        }
        #expect(error?.path == "app.json")
        #expect(error?.message == "is a symbolic link to config/app.json")
        #expect(error?.hint?.contains("point the files entry at the real file, config/app.json") == true, "\(String(describing: error))")
        #expect(throws: FileEditError.self) { _ = try CurrentVersions.read(root: project.root, entries: entries) }
        #expect(try project.snapshot() == before)
        #expect(isSymbolicLink(project.root + "/app.json"))
    }

    @Test func writerRefusesSymlinksBeforeWritingAnything() throws {
        let project = try linkedProject()
        let before = try project.snapshot()
        let writes = [
            FileWrite(path: project.root + "/package.json", oldBytes: try project.bytes("package.json"), newBytes: Array("{}\n".utf8)),
            FileWrite(path: project.root + "/CHANGELOG.md", oldBytes: Array("# Changes\n".utf8), newBytes: Array("# Changes\n\n## 1.1.0\n".utf8)),
        ]
        let error = #expect(throws: FileEditError.self) { try TransactionalWriter.write(writes) }
        #expect(error?.path.hasSuffix("CHANGELOG.md") == true)
        #expect(error?.message == "is a symbolic link to docs/CHANGES.md")
        #expect(error?.hint == "point the files entry / changelog.path at the real file")
        #expect(try project.snapshot() == before)
        #expect(isSymbolicLink(project.root + "/CHANGELOG.md"))

        // Even without the up-front check, a link is never replaced by a regular file.
        let failure = #expect(throws: FileEditError.self) { try TransactionalWriter.writeWithoutCheck(Array(writes.reversed())) }
        #expect(failure?.message.contains("symbolic link") == true, "\(String(describing: failure))")
        #expect(isSymbolicLink(project.root + "/CHANGELOG.md"))
        #expect(try project.snapshot() == before)
    }

    @Test func errorDescriptionIsOneLineWithoutItsOwnErrorPrefix() {
        #expect(FileEditError(path: "ios/App/Info.plist", line: 8, message: "bad", hint: "fix it").description == "ios/App/Info.plist:8: bad (fix it)")
        #expect(FileEditError(path: "app.json", message: "file not found").description == "app.json: file not found")
    }

    @Test func writerErrorsNameTheRootRelativePath() throws {
        let project = try linkedProject()
        try FileManager.default.createDirectory(atPath: project.root + "/.git", withIntermediateDirectories: true)
        let link = FileWrite(path: project.root + "/CHANGELOG.md", oldBytes: Array("# Changes\n".utf8), newBytes: Array("x".utf8))
        let error = #expect(throws: FileEditError.self) { try TransactionalWriter.write([link]) }
        #expect(error?.description == "CHANGELOG.md: is a symbolic link to docs/CHANGES.md (point the files entry / changelog.path at the real file)")

        let stale = FileWrite(path: project.root + "/config/app.json", oldBytes: Array("old".utf8), newBytes: Array("x".utf8))
        let changed = #expect(throws: FileEditError.self) { try TransactionalWriter.write([stale]) }
        #expect(changed?.description == "config/app.json: file changed on disk since it was read (run the command again)")

        // A sync names files as its entries do.
        let plan = try SyncPlan.make(root: project.root, entries: [FileEntry(path: "package.json", format: .json)], version: "1.1.0")
        try project.write("package.json", "{\n  \"version\": \"1.0.1\"\n}\n")
        let raced = #expect(throws: FileEditError.self) { try plan.write() }
        #expect(raced?.path == "package.json")
        #expect(raced?.description.contains(project.root) == false)
    }
}
