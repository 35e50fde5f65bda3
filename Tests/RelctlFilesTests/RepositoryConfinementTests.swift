import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlFiles

/// The check right before a write: the tree can change after the config was checked (a folder replaced by a link
/// leading out), and the write must then not follow it.
@Suite("Writes stay inside the repository")
struct RepositoryConfinementTests {
    @Test func aFolderSwappedForALinkAfterPlanningIsNotWrittenThrough() throws {
        let root = try makeTempDirectory(prefix: "relctl-root")
        let outside = try makeTempDirectory(prefix: "relctl-outside")
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try FileManager.default.createDirectory(atPath: root + "/ios", withIntermediateDirectories: true)
        try Data("inside 1.0.0\n".utf8).write(to: URL(fileURLWithPath: root + "/app.txt"))
        try Data("version 1.0.0\n".utf8).write(to: URL(fileURLWithPath: root + "/ios/version.txt"))
        try Data("version 1.0.0\n".utf8).write(to: URL(fileURLWithPath: outside + "/version.txt"))
        let writes = [
            FileWrite(path: root + "/app.txt", oldBytes: Array("inside 1.0.0\n".utf8), newBytes: Array("inside 1.1.0\n".utf8), displayPath: "app.txt"),
            FileWrite(path: root + "/ios/version.txt", oldBytes: Array("version 1.0.0\n".utf8), newBytes: Array("version 1.1.0\n".utf8),
                      displayPath: "ios/version.txt"),
        ]
        // The planned folder becomes a link to a folder holding the very same bytes.
        try FileManager.default.removeItem(atPath: root + "/ios")
        try FileManager.default.createSymbolicLink(atPath: root + "/ios", withDestinationPath: outside)
        #expect(throws: FileEditError.self) { try TransactionalWriter.write(writes) }
        do { try TransactionalWriter.write(writes) } catch {
            #expect(error.rendered() == "ios/version.txt: leads outside the repository through a symbolic link (relctl writes only inside the repository; replace the link with the folder itself)")
        }
        #expect(try String(contentsOfFile: outside + "/version.txt", encoding: .utf8) == "version 1.0.0\n")
        #expect(try String(contentsOfFile: root + "/app.txt", encoding: .utf8) == "inside 1.0.0\n")
    }

    @Test func aLinkThatStaysInsideIsWrittenThrough() throws {
        let root = try makeTempDirectory(prefix: "relctl-root")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/alias", withDestinationPath: "real")
        try Data("v 1\n".utf8).write(to: URL(fileURLWithPath: root + "/real/v.txt"))
        try TransactionalWriter.write([FileWrite(path: root + "/alias/v.txt", oldBytes: Array("v 1\n".utf8), newBytes: Array("v 2\n".utf8),
                                                 displayPath: "alias/v.txt")])
        #expect(try String(contentsOfFile: root + "/real/v.txt", encoding: .utf8) == "v 2\n")
        #expect(RepositoryConfinement.escapingLink("alias/v.txt", root: root) == nil)
    }

    @Test func escapingLinksAreNamed() throws {
        let root = try makeTempDirectory(prefix: "relctl-root")
        let outside = try makeTempDirectory(prefix: "relctl-outside")
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try FileManager.default.createDirectory(atPath: root + "/a", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/a/b", withDestinationPath: "../../" + URL(fileURLWithPath: outside).lastPathComponent)
        let escape = try #require(RepositoryConfinement.escapingLink("a/b/c/app.json", root: root))
        #expect(escape.link == "a/b")
        #expect(RepositoryConfinement.escapingLink("a/new/app.json", root: root) == nil)
        #expect(RepositoryConfinement.escapingLink("missing/app.json", root: root) == nil)
    }
}
