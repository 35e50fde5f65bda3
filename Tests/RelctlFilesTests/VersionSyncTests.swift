import Foundation
import Testing
import RelctlCore
import RelctlJSON
import RelctlTestSupport
@testable import RelctlFiles

/// A throwaway project folder built from fixtures.
final class TempProject {
    let root: String

    init(_ files: [String: String]) throws {
        root = NSTemporaryDirectory() + "relctl-files-\(UUID().uuidString)"
        for (path, text) in files { try write(path, text) }
    }

    func write(_ path: String, _ text: String) throws {
        let url = URL(fileURLWithPath: root + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))) }
    func text(_ path: String) throws -> String { String(decoding: try bytes(path), as: UTF8.self) }

    /// Every regular file's bytes, for "nothing changed" checks.
    func snapshot() throws -> [String: [UInt8]] {
        try fileTree(at: root).mapValues { Array($0) }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}

/// A bare React Native app with package.json, pbxproj (app + test target), Info.plist with $(…), Groovy Gradle.
func bareReactNative() throws -> TempProject {
    try TempProject([
        "package.json": try Fixtures.text("json", "package.before"),
        "ios/Trailhead.xcodeproj/project.pbxproj": try Fixtures.text("pbxproj", "react-native.before"),
        "ios/Trailhead/Info.plist": try Fixtures.text("plist", "react-native-indirection.before"),
        "android/app/build.gradle": try Fixtures.text("gradle", "groovy-comment-and-flavors.before"),
    ])
}

let bareEntries = [
    FileEntry(path: "package.json", format: .json),
    FileEntry(path: "ios/Trailhead.xcodeproj/project.pbxproj", format: .pbxproj),
    FileEntry(path: "ios/Trailhead/Info.plist", format: .plist),
    FileEntry(path: "android/app/build.gradle", format: .gradle),
]

@Suite struct VersionSyncTests {
    @Test func syncWritesStoreSafeVersionsAndIsIdempotent() throws {
        let project = try bareReactNative()
        let plan = try SyncPlan.make(try CurrentVersions.read(root: project.root, entries: bareEntries), version: "1.5.0-beta.1", iosBuild: "12", androidBuild: "2")
        #expect(plan.changes.map(\.path) == bareEntries.map(\.path))
        #expect(plan.changes.map(\.isChanged) == [true, true, false, true])
        try plan.write()
        #expect(try project.text("package.json").contains("\"version\": \"1.5.0-beta.1\""))
        let pbx = try project.text("ios/Trailhead.xcodeproj/project.pbxproj")
        #expect(pbx.components(separatedBy: "MARKETING_VERSION = 1.5.0;").count == 3)
        #expect(pbx.components(separatedBy: "CURRENT_PROJECT_VERSION = 12;").count == 3)
        let gradle = try project.text("android/app/build.gradle")
        #expect(gradle.contains("versionCode 2\n        versionName \"1.5.0-beta.1\""))
        #expect(gradle.contains("// versionCode 1\n") && gradle.contains("versionCode 5\n"))
        for change in plan.changes { #expect(try project.text(change.path) == change.newText) }

        let again = try SyncPlan.make(try CurrentVersions.read(root: project.root, entries: bareEntries), version: "1.5.0-beta.1", iosBuild: "12", androidBuild: "2")
        #expect(again.changes.allSatisfy { !$0.isChanged })

        let current = try CurrentVersions.read(root: project.root, entries: bareEntries)
        #expect(current.drift.isEmpty, "\(current.drift)")
        #expect(current.highestIOSBuild == "12" && current.highestAndroidBuild == "2")
    }

    @Test func anyErrorThrowsBeforeWriting() throws {
        let project = try bareReactNative()
        let before = try project.snapshot()
        let cases: [([FileEntry], String, String?, String?, String)] = [
            (bareEntries + [FileEntry(path: "app.json", format: .expo)], "1.6.0", nil, nil, "app.json: file not found"),
            (bareEntries, "2.2.0.0", nil, nil, "ios/Trailhead.xcodeproj/project.pbxproj:65: iOS marketing version \"2.2.0.0\" is not accepted"),
            (bareEntries, "1.6.0", "12", "0", "android/app/build.gradle:18: Android versionCode \"0\" is not a positive integer"),
            // Within one version (the files hold 1.0): CFBundleVersion must go up. A new version's may start again.
            (bareEntries, "1.0.0", "0", "2", "ios/Trailhead.xcodeproj/project.pbxproj:62: iOS build number 0 is not greater than the current 1"),
            ([bareEntries[2]], "1.6.0", nil, nil, "ios/Trailhead/Info.plist:10: CFBundleShortVersionString is $(MARKETING_VERSION)"),
        ]
        for (entries, version, ios, android, expected) in cases {
            do {
                let plan = try SyncPlan.make(try CurrentVersions.read(root: project.root, entries: entries), version: version, iosBuild: ios, androidBuild: android)
                try plan.write()
                Issue.record("expected \(expected)")
            } catch {
                #expect(error.description.hasPrefix(expected), "\(error.description)")
            }
            #expect(try project.snapshot() == before)
        }
    }

    @Test func gradlePropertyMustBeCoveredByAPropertiesEntry() throws {
        let gradle = "android {\n    defaultConfig {\n        versionCode Integer.parseInt(APP_VERSION_CODE)\n        versionName APP_VERSION_NAME\n    }\n}\n"
        let project = try TempProject([
            "android/app/build.gradle": gradle,
            "android/gradle.properties": try Fixtures.text("properties", "app-version.before"),
        ])
        let gradleOnly = [FileEntry(path: "android/app/build.gradle", format: .gradle)]
        do {
            _ = try SyncPlan.make(try CurrentVersions.read(root: project.root, entries: gradleOnly), version: "10.3.0", androidBuild: "4083")
            Issue.record("expected an uncovered-property error")
        } catch {
            #expect(error.line == 3)
            #expect(error.message.contains("Gradle property APP_VERSION_CODE, which no files entry covers"))
        }
        let detected = VersionFileDetection.entries(root: project.root)
        #expect(detected.map(\.format) == [.gradle, .properties])
        let plan = try SyncPlan.make(try CurrentVersions.read(root: project.root, entries: detected), version: "10.3.0", androidBuild: "4083")
        try plan.write()
        #expect(try project.text("android/gradle.properties") == (try Fixtures.text("properties", "app-version.after")))
        #expect(try project.text("android/app/build.gradle") == gradle)
    }

    @Test func driftIsReported() throws {
        let project = try TempProject([
            "package.json": "{\"version\": \"1.3.0-beta.2\"}",
            "app.json": "{\"expo\": {\"version\": \"1.3.0\", \"ios\": {\"buildNumber\": \"7\"}, \"android\": {\"versionCode\": 9}}}",
            "pubspec.yaml": "version: 1.2.0+007\n",
        ])
        let entries = [FileEntry(path: "package.json", format: .json), FileEntry(path: "app.json", format: .expo),
                       FileEntry(path: "pubspec.yaml", format: .pubspec)]
        let current = try CurrentVersions.read(root: project.root, entries: entries)
        #expect(current.drift.map(\.field) == [.marketing, .androidBuild])
        #expect(current.drift.first?.description == "marketing differs: package.json:1 1.3.0-beta.2, app.json:1 1.3.0, pubspec.yaml:1 1.2.0")
        #expect(current.files[2].iosBuild == "007")
        #expect(current.highestAndroidBuild == "9")
    }

    @Test func strategyPlanIncrementsTheHighestBuild() throws {
        let project = try TempProject([
            "app.json": try Fixtures.text("expo", "managed-json5.before"),
            "pubspec.yaml": "version: 1.4.0+60\n",
        ])
        let entries = [FileEntry(path: "app.json", format: .expo), FileEntry(path: "pubspec.yaml", format: .pubspec)]
        let current = try CurrentVersions.read(root: project.root, entries: entries)
        let builds = try BuildNumberPolicy.next(strategy: .increment, shared: true, currentIOS: current.highestIOSBuild,
                                                currentAndroid: current.highestAndroidBuild, version: "1.5.0-rc.1", environment: [:])
        let plan = try SyncPlan.make(current, version: "1.5.0-rc.1", iosBuild: builds.ios, androidBuild: builds.android)
        #expect(plan.iosBuild == "61" && plan.androidBuild == "61")
        #expect(plan.changes[0].target.marketing == "1.5.0")
        #expect(plan.changes[1].newText == "version: 1.5.0+61\n")
    }

    @Test func transactionalWriterRestoresEverythingOnFailure() throws {
        let project = try TempProject(["a.txt": "alpha\n", "b.txt": "beta\r\nno newline", "d.txt": "delta\n"])
        try FileManager.default.createDirectory(atPath: project.root + "/c.txt", withIntermediateDirectories: true)
        chmod(project.root + "/a.txt", 0o640)
        let before = try project.snapshot()
        let writes = [
            FileWrite(path: project.root + "/a.txt", oldBytes: Array("alpha\n".utf8), newBytes: Array("ALPHA\n".utf8)),
            FileWrite(path: project.root + "/b.txt", oldBytes: Array("beta\r\nno newline".utf8), newBytes: Array("BETA".utf8)),
            FileWrite(path: project.root + "/c.txt", oldBytes: [], newBytes: Array("x".utf8)),
            FileWrite(path: project.root + "/d.txt", oldBytes: Array("delta\n".utf8), newBytes: Array("DELTA\n".utf8)),
        ]
        // c.txt is a directory: the pre-check refuses before anything is written.
        #expect(throws: FileEditError.self) { try TransactionalWriter.write(writes) }
        #expect(try project.snapshot() == before)

        // Bypass the pre-check to fail in the middle of writing.
        do {
            try TransactionalWriter.writeWithoutCheck(writes)
            Issue.record("expected a write failure")
        } catch {
            #expect(error.path.hasSuffix("c.txt"))
            #expect(error.hint == "restored 2 file(s) already written")
        }
        #expect(try project.snapshot() == before)
        let attributes = try FileManager.default.attributesOfItem(atPath: project.root + "/a.txt")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: project.root).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func successfulWriteKeepsFileMode() throws {
        let project = try TempProject(["run.sh": "echo 1\n"])
        chmod(project.root + "/run.sh", 0o755)
        try TransactionalWriter.write([FileWrite(path: project.root + "/run.sh", oldBytes: Array("echo 1\n".utf8), newBytes: Array("echo 2\n".utf8))])
        #expect(try project.text("run.sh") == "echo 2\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: project.root + "/run.sh")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o755)
    }

    @Test func detectFilesFindsLiteralVersionsOnly() throws {
        let project = try TempProject([
            "app.json": "{\"expo\": {\"version\": \"1.0.0\"}}",
            "package.json": "{\"name\": \"x\", \"version\": \"1.0.0\"}",
            "ios/Trailhead.xcodeproj/project.pbxproj": try Fixtures.text("pbxproj", "react-native.before"),
            "ios/Trailhead/Info.plist": try Fixtures.text("plist", "react-native-indirection.before"),
            "ios/Widget/Info.plist": try Fixtures.text("plist", "literal-crlf-no-final-newline.before"),
            "ios/Pods/Foo/Info.plist": try Fixtures.text("plist", "literal-crlf-no-final-newline.before"),
            "android/app/build.gradle.kts": try Fixtures.text("gradle", "kotlin-trailing-comment.before"),
            "Config/Release.xcconfig": try Fixtures.text("xcconfig", "build.before"),
            "Config/Other.xcconfig": "SWIFT_VERSION = 5.0\n",
            "node_modules/x/Build.xcconfig": try Fixtures.text("xcconfig", "build.before"),
        ])
        // The Xcode project tells which Info.plists and .xcconfig files are the app's: ios/Widget/Info.plist and
        // Config/Release.xcconfig belong to no target of it.
        let detected = VersionFileDetection.entries(root: project.root)
        #expect(detected.map(\.path) == ["app.json", "package.json", "ios/Trailhead.xcodeproj/project.pbxproj",
                                         "android/app/build.gradle.kts"])
        #expect(detected.map(\.format) == [.expo, .json, .pbxproj, .gradle])
        // Without a project, Info.plists under ios/ and .xcconfig files anywhere sensible are proposed, but not one
        // holding another version than the app (4.2.1 against app.json's 1.0.0: another product).
        try FileManager.default.removeItem(atPath: project.root + "/ios/Trailhead.xcodeproj")
        let withoutProject = VersionFileDetection.run(root: project.root)
        #expect(withoutProject.entries.map(\.path) == ["app.json", "package.json", "ios/Widget/Info.plist", "android/app/build.gradle.kts"])
        #expect(withoutProject.notes == ["left out Config/Release.xcconfig: it holds version 4.2.1, the app 1.0.0 (another product)"])
        try project.write("app.json", "{\"expo\": {\"version\": \"4.2.1\"}}")
        try project.write("package.json", "{\"name\": \"x\", \"version\": \"4.2.1\"}")
        #expect(VersionFileDetection.entries(root: project.root).map(\.path).contains("Config/Release.xcconfig"))
    }
}

@Suite struct FileEntryDecodingTests {
    func decode(_ json: String) throws -> FileEntry {
        let node = try JSONDocument.parse(json, allowJSON5: false)
        return try FileEntry(from: node, configPath: ".relctl.json")
    }

    @Test func decodesOptions() throws {
        let e = try decode(#"{"path": "ios/App.xcodeproj/project.pbxproj", "format": "pbxproj", "targets": ["App", "Widget"]}"#)
        #expect(e.format == .pbxproj && e.options.targets == ["App", "Widget"])
        let j = try decode(#"{"path": "app/package.json", "format": "json", "keyPath": "expo.version"}"#)
        #expect(j.options.keyPath == ["expo", "version"])
        let r = try decode(#"{"path": "V.swift", "format": "regex", "pattern": "v = \"(?<version>[0-9.]+)\"", "field": "marketing"}"#)
        #expect(r.options.pattern != nil && r.options.field == .marketing)
        let p = try decode(#"{"path": "pubspec.yaml", "format": "pubspec", "padBuildNumber": true}"#)
        #expect(p.options.padBuildNumber)
        #expect(try decode(#"{"path": "x", "format": "expo-js"}"#).format == .expoJS)
    }

    @Test(arguments: [
        ("{\n  \"path\": \"a\",\n  \"format\": \"json\",\n  \"keypath\": \"x\"\n}", 4, "unknown key \"keypath\" in files entry a"),
        ("{\n  \"path\": \"a\",\n  \"format\": \"gradle\",\n  \"targets\": [\"App\"]\n}", 4, "option \"targets\" does not apply to format gradle"),
        ("{\n  \"path\": \"a\",\n  \"format\": \"pbxproj\",\n  \"targets\": \"App\"\n}", 4, "targets must be an array of strings, found a string"),
        ("{\n  \"path\": 3,\n  \"format\": \"json\"\n}", 2, "path must be a string, found a number"),
        ("{\n  \"path\": \"a\",\n  \"format\": \"yaml\"\n}", 3, "unknown format \"yaml\""),
        ("{\n  \"path\": \"a\"\n}", 1, "files entry a without \"format\""),
        ("{\n  \"path\": \"a\",\n  \"format\": \"regex\",\n  \"pattern\": \"v=(\\\\d+)\"\n}", 4, "regex pattern has no (?<version>…) group"),
        ("{\n  \"path\": \"a\",\n  \"format\": \"pubspec\",\n  \"padBuildNumber\": \"yes\"\n}", 4, "padBuildNumber must be a boolean, found a string"),
        ("[1]", 1, "a files entry must be an object, found an array"),
    ])
    func rejects(json: String, line: Int, message: String) throws {
        do {
            _ = try decode(json)
            Issue.record("accepted \(json)")
        } catch let error as FileEditError {
            #expect(error.line == line)
            #expect(error.message == message)
            #expect(error.description.hasPrefix(".relctl.json:\(line): "))
        }
    }
}
