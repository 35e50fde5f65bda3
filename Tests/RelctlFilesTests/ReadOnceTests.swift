import Foundation
import Testing
import RelctlCore
@testable import RelctlFiles

/// Read once, parse once, plan in memory: each file is read from disk once per run (an Xcode project's .xcconfig
/// files too), and planning works on what was read.
@Suite("Read once, parse once, plan in memory")
struct ReadOnceTests {
    /// An Expo app whose Xcode target takes its version from an .xcconfig.
    func expoWithXcconfig() throws -> (TempProject, [FileEntry]) {
        let project = try TempProject([
            "app.json": #"{"expo": {"version": "1.0.0", "ios": {"buildNumber": "3"}, "android": {"versionCode": 3}}}"# + "\n",
            "package.json": #"{"name": "app", "version": "1.0.0"}"# + "\n",
            "ios/App.xcodeproj/project.pbxproj": miniProject(target: "", targetBase: "baseConfigurationReference = F1;"),
            "ios/Support/App.xcconfig": "MARKETING_VERSION = 1.0.0\nCURRENT_PROJECT_VERSION = 3\n",
        ])
        return (project, [
            FileEntry(path: "app.json", format: .expo),
            FileEntry(path: "package.json", format: .json),
            FileEntry(path: "ios/App.xcodeproj/project.pbxproj", format: .pbxproj),
            FileEntry(path: "ios/Support/App.xcconfig", format: .xcconfig),
        ])
    }

    @Test func planningReadsNothingFromDisk() throws {
        let (project, entries) = try expoWithXcconfig()
        let current = try CurrentVersions.read(root: project.root, entries: entries)
        try FileManager.default.removeItem(atPath: project.root)

        // The version alone, then with build numbers: both from the files as read.
        let marketingOnly = try SyncPlan.make(current, version: "1.1.0")
        #expect(marketingOnly.changes.map(\.isChanged) == [true, true, false, true])
        let plan = try SyncPlan.make(current, version: "1.1.0", iosBuild: "4", androidBuild: "4")
        #expect(plan.changes.map(\.isChanged) == [true, true, false, true])
        #expect(plan.changes[3].newText == "MARKETING_VERSION = 1.1.0\nCURRENT_PROJECT_VERSION = 4\n")
        #expect(plan.writes.map(\.displayPath) == ["app.json", "package.json", "ios/Support/App.xcconfig"])
        #expect(plan.writes.map(\.path) == plan.changes.filter(\.isChanged).map(\.absolutePath))
    }

    @Test func aFileIsReadOnceAndAFailureIsRemembered() throws {
        let project = try TempProject(["version.txt": "one\n"])
        let files = ProjectFiles(root: project.root)
        #expect(try files.text("version.txt") == "one\n")
        try project.write("version.txt", "two\n")
        #expect(try files.text("version.txt") == "one\n")
        #expect(try ProjectFiles(root: project.root).text("version.txt") == "two\n")

        #expect(throws: FileEditError.self) { try files.text("missing.txt") }
        try project.write("missing.txt", "here now\n")
        let again = #expect(throws: FileEditError.self) { try files.text("missing.txt") }
        #expect(again?.message == "file not found")
    }

    @Test func anXcodeProjectAndTheEntryOfItsXcconfigShareOneRead() throws {
        let (project, entries) = try expoWithXcconfig()
        let files = ProjectFiles(root: project.root)
        let pbxproj = try FileVersions.load(entries[2], from: files)
        #expect(pbxproj.targets.first?.marketing.kind == .xcconfig)
        #expect(pbxproj.targets.first?.marketing.value == "1.0.0")
        // Changed on disk after the project was resolved: the entry sees the text the project saw.
        try project.write("ios/Support/App.xcconfig", "MARKETING_VERSION = 9.9.9\nCURRENT_PROJECT_VERSION = 3\n")
        let xcconfig = try FileVersions.load(entries[3], from: files)
        #expect(xcconfig.marketing == "1.0.0")
    }

    @Test func theFilesAfterAPlanAreWhatTheDiskHoldsOnceItIsWritten() throws {
        let (project, entries) = try expoWithXcconfig()
        let current = try CurrentVersions.read(root: project.root, entries: entries)
        let plan = try SyncPlan.make(current, version: "1.2.0-beta.1", iosBuild: "7", androidBuild: "7")
        try plan.write()
        let after = try current.afterWriting(plan)
        let fresh = try CurrentVersions.read(root: project.root, entries: entries)
        #expect(after.files.map(\.text) == fresh.files.map(\.text))
        #expect(after.files.map(\.locations) == fresh.files.map(\.locations))
        #expect(after.files.map(\.targets) == fresh.files.map(\.targets))
        #expect(after.files.map(\.marketing) == ["1.2.0", "1.2.0-beta.1", nil, "1.2.0"])  // the project holds no version itself
    }

    @Test func theLiteralLoopSkipsIndirectionsUnchangedValuesAndSharedBytes() throws {
        let locations = [
            VersionLocation(field: .marketing, value: "1.0.0", line: 1, range: 0..<5),
            VersionLocation(field: .marketing, value: "1.0.0", line: 2, range: 0..<5),   // a setting two configurations inherit
            VersionLocation(field: .iosBuild, value: "$(BUILD)", line: 3, range: 10..<18, indirection: .buildSetting("BUILD")),
            VersionLocation(field: .androidBuild, value: "7", line: 4, range: 20..<21),
            VersionLocation(field: .androidBuild, value: "8", line: 5, range: 30..<31),
        ]
        let edits = try literalEdits(locations, target: VersionTarget(marketing: "2.0.0", iosBuild: "9", androidBuild: "8")) { location, value in
            location.field == .marketing ? "\"\(value)\"" : value
        }
        #expect(edits == [TextEdit(range: 0..<5, replacement: "\"2.0.0\""), TextEdit(range: 20..<21, replacement: "8")])
        let none = try literalEdits(locations, target: VersionTarget())
        #expect(none.isEmpty)
    }

    @Test func aRegexFileIsMatchedOnceWhenParsedAndOncePerNewText() throws {
        let text = "name = app\nversion = 1.0.0\n"
        let parsed = try RegexEditor(pattern: #"version = (?<version>[0-9.]+)"#).parse(text, path: "version.txt")
        let target = VersionTarget(marketing: "1.1.0-beta.1")
        let first = try parsed.edits(for: target)
        // The pattern admits no prerelease: the core is written, and the file keeps only cores.
        #expect(first == [TextEdit(range: 21..<26, replacement: "1.1.0")])
        #expect(try parsed.edits(for: target) == first)
        #expect(parsed.keepsPrerelease == false)
    }
}
