import Foundation
import Testing
import RelctlCore
import RelctlTestSupport
@testable import RelctlFiles

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
            _ = try SyncPlan.make(try CurrentVersions.read(root: project.root, entries: entries), version: "1.1.0")
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
        let plan = try SyncPlan.make(try CurrentVersions.read(root: project.root, entries: [FileEntry(path: "package.json", format: .json)]), version: "1.1.0")
        try project.write("package.json", "{\n  \"version\": \"1.0.1\"\n}\n")
        let raced = #expect(throws: FileEditError.self) { try plan.write() }
        #expect(raced?.path == "package.json")
        #expect(raced?.description.contains(project.root) == false)
    }
}

@Suite("Byte order marks and encodings")
struct EncodingTests {
    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    func writeBytes(_ project: TempProject, _ path: String, _ bytes: [UInt8]) throws {
        try project.write(path, "")
        try Data(bytes).write(to: URL(fileURLWithPath: project.root + "/" + path))
    }

    @Test func filesWithAByteOrderMarkSyncAndKeepIt() throws {
        let project = try TempProject([:])
        let packageJSON = "{\n  \"name\": \"trail\",\n  \"version\": \"1.0.0\"\n}\n"
        let appJSON = "{\n  \"expo\": {\n    \"version\": \"1.0.0\",\n    \"ios\": {\"buildNumber\": \"7\"},\n    \"android\": {\"versionCode\": 7}\n  }\n}\n"
        let pubspec = "version: 1.0.0+7\nname: trail\n"
        try writeBytes(project, "package.json", Self.bom + Array(packageJSON.utf8))
        try writeBytes(project, "app.json", Self.bom + Array(appJSON.utf8))
        try writeBytes(project, "pubspec.yaml", Self.bom + Array(pubspec.utf8))
        let entries = [FileEntry(path: "package.json", format: .json), FileEntry(path: "app.json", format: .expo),
                       FileEntry(path: "pubspec.yaml", format: .pubspec)]
        let current = try CurrentVersions.read(root: project.root, entries: entries)
        #expect(current.files.map(\.marketing) == ["1.0.0", "1.0.0", "1.0.0"])
        #expect(current.files[1].iosBuild == "7")
        let plan = try SyncPlan.make(try CurrentVersions.read(root: project.root, entries: entries), version: "1.1.0", iosBuild: "8", androidBuild: "8")
        // The planned old text is exactly what is on disk, so the writer's "changed on disk" check passes.
        for change in plan.changes { #expect(Array(change.oldText.utf8) == (try project.bytes(change.path)), "\(change.path)") }
        try plan.write()
        // Golden: the mark stays; only the version bytes differ.
        #expect(try project.bytes("package.json") == Self.bom + Array(packageJSON.replacingOccurrences(of: "1.0.0", with: "1.1.0").utf8))
        #expect(try project.bytes("app.json") == Self.bom + Array(appJSON.replacingOccurrences(of: "1.0.0", with: "1.1.0")
            .replacingOccurrences(of: "\"7\"", with: "\"8\"").replacingOccurrences(of: "versionCode\": 7", with: "versionCode\": 8").utf8))
        #expect(try project.bytes("pubspec.yaml") == Self.bom + Array("version: 1.1.0+8\nname: trail\n".utf8))
        // And a second sync reads them back.
        let again = try SyncPlan.make(try CurrentVersions.read(root: project.root, entries: entries), version: "1.1.0", iosBuild: "8", androidBuild: "8")
        #expect(again.changes.allSatisfy { !$0.isChanged })
    }

    @Test func latin1FileIsRefusedWithAConversionHint() throws {
        let project = try TempProject([:])
        // "Café" in Latin-1: 0xE9 at offset 38.
        let bytes = Array("{\n  \"version\": \"1.0.0\",\n  \"name\": \"Caf".utf8) + [0xE9] + Array("\"\n}\n".utf8)
        try writeBytes(project, "package.json", bytes)
        let before = try project.snapshot()
        let error = #expect(throws: FileEditError.self) {
            _ = try SyncPlan.make(try CurrentVersions.read(root: project.root, entries: [FileEntry(path: "package.json", format: .json)]), version: "1.1.0")
        }
        #expect(error?.description == "package.json: not valid UTF-8 text (byte 0xE9 at offset 38); relctl edits UTF-8 files only — convert it with iconv -f latin1 -t utf-8")
        #expect(try project.snapshot() == before)
    }

    @Test(arguments: [
        ([0x41, 0x42], nil), ([0xC3, 0xA9], nil), ([0xF0, 0x9F, 0x98, 0x80], nil), ([0xEF, 0xBB, 0xBF, 0x41], nil),
        ([0x41, 0xE9, 0x42], 1), ([0xC0, 0x80], 0), ([0xED, 0xA0, 0x80], 0), ([0x41, 0xE2, 0x82], 1), ([0xF5, 0x80, 0x80, 0x80], 0),
    ] as [([UInt8], Int?)])
    func utf8Validation(bytes: [UInt8], offset: Int?) {
        #expect(TextFile.firstInvalidUTF8Offset(bytes) == offset)
    }
}
