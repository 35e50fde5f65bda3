import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlFiles

/// A rollback restores only what its own run wrote: a file that another process changed since is left alone.
@Suite("Undoing only what this run wrote")
struct OwnedUndoTests {
    @Test func onlyFilesStillHoldingTheWrittenBytesAreRestored() throws {
        let project = try TempProject([
            "package.json": "{\n  \"version\": \"1.2.3\"\n}\n",
            "app.json": "{\n  \"expo\": { \"version\": \"1.2.3\" }\n}\n",
            "pubspec.yaml": "version: 1.2.3+7\n",
        ])
        func write(_ path: String, _ new: String) throws -> FileWrite {
            FileWrite(path: project.root + "/" + path, oldBytes: try project.bytes(path), newBytes: Array(new.utf8),
                      displayPath: path)
        }
        let writes = [
            try write("package.json", "{\n  \"version\": \"1.3.0\"\n}\n"),
            try write("app.json", "{\n  \"expo\": { \"version\": \"1.3.0\" }\n}\n"),
            try write("pubspec.yaml", "version: 1.3.0+8\n"),
            FileWrite(path: project.root + "/CHANGELOG.md", oldBytes: nil, newBytes: Array("# Changelog\n".utf8),
                      displayPath: "CHANGELOG.md"),
        ]
        // Written, except pubspec.yaml (the run stopped before it); then someone else rewrites app.json.
        try TransactionalWriter.write([writes[0], writes[1], writes[3]])
        let theirs = "{\n  \"expo\": { \"version\": \"1.3.1\" }\n}\n"
        try Data(theirs.utf8).write(to: URL(fileURLWithPath: project.root + "/app.json"))

        let result = TransactionalWriter.undoOwned(writes)
        #expect(result.restored == ["CHANGELOG.md", "package.json"])
        #expect(result.notOwned == ["app.json"])
        #expect(result.failed.isEmpty)
        #expect(try project.bytes("package.json") == writes[0].oldBytes)
        #expect(try project.bytes("app.json") == Array(theirs.utf8))
        #expect(try project.bytes("pubspec.yaml") == writes[2].oldBytes)
        #expect(!FileManager.default.fileExists(atPath: project.root + "/CHANGELOG.md"))
    }
}
