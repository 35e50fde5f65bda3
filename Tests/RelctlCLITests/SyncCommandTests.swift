import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// End-to-end tests of `relctl init`, `current` and `sync` on real git repositories shaped like mobile apps.

// MARK: - App shapes

let expoAppJSON = """
{
  "expo": {
    "name": "Trail",
    "slug": "trail",
    "version": "1.2.0",
    "ios": {
      "bundleIdentifier": "com.example.trail",
      "buildNumber": "12"
    },
    "android": {
      "package": "com.example.trail",
      "versionCode": 12
    }
  }
}

"""

func packageJSON(_ version: String) -> String {
    "{\n  \"name\": \"trail\",\n  \"version\": \"\(version)\",\n  \"private\": true,\n  \"scripts\": {\n    \"start\": \"expo start\"\n  }\n}\n"
}

/// A project.pbxproj with an application target (Debug, Release) and a unit-test target that relctl leaves alone.
func pbxproj(marketing: String, build: String) -> String {
    """
    // !$*UTF8*$!
    {
    \tarchiveVersion = 1;
    \tclasses = {
    \t};
    \tobjectVersion = 54;
    \tobjects = {

    /* Begin PBXNativeTarget section */
    \t\t13B07F861A680F5B00A75B9A /* App */ = {
    \t\t\tisa = PBXNativeTarget;
    \t\t\tbuildConfigurationList = 13B07F931A680F5B00A75B9A /* Build configuration list for PBXNativeTarget "App" */;
    \t\t\tname = App;
    \t\t\tproductName = App;
    \t\t\tproductType = "com.apple.product-type.application";
    \t\t};
    \t\t00E356ED1AD99517003FC87E /* AppTests */ = {
    \t\t\tisa = PBXNativeTarget;
    \t\t\tbuildConfigurationList = 00E357021AD99517003FC87E /* Build configuration list for PBXNativeTarget "AppTests" */;
    \t\t\tname = AppTests;
    \t\t\tproductName = AppTests;
    \t\t\tproductType = "com.apple.product-type.bundle.unit-test";
    \t\t};
    /* End PBXNativeTarget section */

    /* Begin XCBuildConfiguration section */
    \t\t00E356F61AD99517003FC87E /* Debug */ = {
    \t\t\tisa = XCBuildConfiguration;
    \t\t\tbuildSettings = {
    \t\t\t\tCURRENT_PROJECT_VERSION = 1;
    \t\t\t\tMARKETING_VERSION = 1.0;
    \t\t\t};
    \t\t\tname = Debug;
    \t\t};
    \t\t13B07F941A680F5B00A75B9A /* Debug */ = {
    \t\t\tisa = XCBuildConfiguration;
    \t\t\tbuildSettings = {
    \t\t\t\tCURRENT_PROJECT_VERSION = \(build);
    \t\t\t\tINFOPLIST_FILE = App/Info.plist;
    \t\t\t\tMARKETING_VERSION = \(marketing);
    \t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = com.example.app;
    \t\t\t};
    \t\t\tname = Debug;
    \t\t};
    \t\t13B07F951A680F5B00A75B9A /* Release */ = {
    \t\t\tisa = XCBuildConfiguration;
    \t\t\tbuildSettings = {
    \t\t\t\tCURRENT_PROJECT_VERSION = \(build);
    \t\t\t\tINFOPLIST_FILE = App/Info.plist;
    \t\t\t\tMARKETING_VERSION = \(marketing);
    \t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = com.example.app;
    \t\t\t};
    \t\t\tname = Release;
    \t\t};
    /* End XCBuildConfiguration section */

    /* Begin XCConfigurationList section */
    \t\t00E357021AD99517003FC87E /* Build configuration list for PBXNativeTarget "AppTests" */ = {
    \t\t\tisa = XCConfigurationList;
    \t\t\tbuildConfigurations = (
    \t\t\t\t00E356F61AD99517003FC87E /* Debug */,
    \t\t\t);
    \t\t\tdefaultConfigurationName = Release;
    \t\t};
    \t\t13B07F931A680F5B00A75B9A /* Build configuration list for PBXNativeTarget "App" */ = {
    \t\t\tisa = XCConfigurationList;
    \t\t\tbuildConfigurations = (
    \t\t\t\t13B07F941A680F5B00A75B9A /* Debug */,
    \t\t\t\t13B07F951A680F5B00A75B9A /* Release */,
    \t\t\t);
    \t\t\tdefaultConfigurationName = Release;
    \t\t};
    /* End XCConfigurationList section */
    \t};
    \trootObject = 83CBB9F71A601CBA00E9B192 /* Project object */;
    }

    """
}

let infoPlistWithBuildSettings = """
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
\t<key>CFBundleDisplayName</key>
\t<string>Trail</string>
\t<key>CFBundleShortVersionString</key>
\t<string>$(MARKETING_VERSION)</string>
\t<key>CFBundleVersion</key>
\t<string>$(CURRENT_PROJECT_VERSION)</string>
</dict>
</plist>

"""

let reactNativeGradle = """
apply plugin: "com.android.application"

android {
    namespace "com.example.trail"
    defaultConfig {
        applicationId "com.example.trail"
        minSdkVersion rootProject.ext.minSdkVersion
        // versionCode 1 was the first upload
        versionCode 12
        versionName "1.2.0"
    }
}

"""

let flutterGradle = """
android {
    namespace = "com.example.trail"
    defaultConfig {
        applicationId = "com.example.trail"
        versionCode = flutter.versionCode
        versionName = flutter.versionName
    }
}

"""

let pubspec = """
name: trail
description: A trail app.
publish_to: 'none'

version: 1.2.0+12

environment:
  sdk: ^3.5.0

"""

/// A git repository holding one app shape.
enum AppShape: String, CaseIterable, CustomTestStringConvertible {
    case expo, reactNative, flutter

    var testDescription: String { rawValue }

    func make() throws -> TestRepository {
        let repo = try TestRepository()
        switch self {
        case .expo:
            try repo.write("app.json", expoAppJSON)
            try repo.write("package.json", packageJSON("1.2.0"))
        case .reactNative:
            try repo.write("app.json", "{\n  \"name\": \"Trail\",\n  \"displayName\": \"Trail\"\n}\n")
            try repo.write("package.json", packageJSON("1.2.0"))
            try repo.write("ios/App.xcodeproj/project.pbxproj", pbxproj(marketing: "1.2.0", build: "12"))
            try repo.write("ios/App/Info.plist", infoPlistWithBuildSettings)
            try repo.write("android/app/build.gradle", reactNativeGradle)
        case .flutter:
            try repo.write("pubspec.yaml", pubspec)
            try repo.write("ios/Runner.xcodeproj/project.pbxproj",
                           pbxproj(marketing: "\"$(FLUTTER_BUILD_NAME)\"", build: "\"$(FLUTTER_BUILD_NUMBER)\""))
            try repo.write("android/app/build.gradle.kts", flutterGradle)
        }
        return repo
    }

    /// What `relctl init` should find, in order.
    var detected: [(path: String, format: String)] {
        switch self {
        case .expo: return [("app.json", "expo"), ("package.json", "json")]
        case .reactNative: return [("package.json", "json"), ("ios/App.xcodeproj/project.pbxproj", "pbxproj"),
                                   ("android/app/build.gradle", "gradle")]
        case .flutter: return [("pubspec.yaml", "pubspec")]
        }
    }
}

/// The 1-based line of the first line containing `needle`.
func lineOf(_ needle: String, in text: String) -> Int {
    let lines = text.components(separatedBy: "\n")
    return (lines.firstIndex { $0.contains(needle) } ?? -1) + 1
}

func writeConfig(_ repo: TestRepository, files: [(String, String)], extra: String = "") throws {
    let entries = files.map { "    {\"path\": \"\($0.0)\", \"format\": \"\($0.1)\"}" }.joined(separator: ",\n")
    try repo.write(".relctl.json", "{\n  \"files\": [\n\(entries)\n  ]\(extra.isEmpty ? "" : ",\n  " + extra)\n}\n")
}

/// A sync that must fail: the app, its config files, the arguments, extra config, and the expected stderr start.
struct SyncFailure: Sendable, CustomTestStringConvertible {
    let name: String
    let shape: AppShape
    let files: [(String, String)]
    let arguments: [String]
    let extra: String
    /// A replacement in one file of the app before the run: (path, old text, new text).
    let edit: (String, String, String)?
    let expected: @Sendable (TestRepository) throws -> String

    init(_ name: String, _ shape: AppShape, _ files: [(String, String)], _ arguments: [String], _ extra: String,
         edit: (String, String, String)? = nil, _ expected: @escaping @Sendable (TestRepository) throws -> String) {
        (self.name, self.shape, self.files, self.arguments, self.extra, self.edit, self.expected) = (name, shape, files, arguments, extra, edit, expected)
    }

    var testDescription: String { name }
}

// MARK: - Tests

@Suite("relctl init, current, sync")
struct SyncCommandTests {
    @Test(arguments: AppShape.allCases)
    func initCurrentSyncCurrent(shape: AppShape) throws {
        let repo = try shape.make()

        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        #expect(initResult.stdout.split(separator: "\n").map { $0.split(separator: " ").prefix(2).joined(separator: " ") }
                == shape.detected.map { "\($0.path) \($0.format)" })
        let config = try repo.read(".relctl.json")
        let expectedFiles = shape.detected.map { "    {\n      \"path\": \"\($0.path)\",\n      \"format\": \"\($0.format)\"\n    }" }
        #expect(config == "{\n  \"tagFormat\": \"v{version}\",\n  \"files\": [\n" + expectedFiles.joined(separator: ",\n")
                + "\n  ],\n  \"buildNumber\": {\n    \"strategy\": \"increment\",\n    \"shared\": true\n  }\n}\n")

        let before = relctl(["current", "--json"], in: repo.path)
        let sync = relctl(["sync", "1.3.0"], in: repo.path)
        let after = relctl(["current"], in: repo.path)
        // init's report, the versions before, what sync updated, the versions after (1.3.0 and build 13 everywhere).
        expectTranscript([(["init"], initResult), (["current", "--json"], before), (["sync", "1.3.0"], sync), (["current"], after)],
                         matches: "sync/init-current-sync-current-\(shape).txt", repo: repo)
        #expect(!after.stdout.contains("1.2.0") && !after.stdout.contains(" 12 "), "\(after.stdout)")
        switch shape {
        case .expo:
            #expect(try repo.read("app.json") == expoAppJSON.replacingOccurrences(of: "1.2.0", with: "1.3.0")
                .replacingOccurrences(of: "\"12\"", with: "\"13\"").replacingOccurrences(of: "versionCode\": 12", with: "versionCode\": 13"))
        case .reactNative:
            #expect(try repo.read("ios/App.xcodeproj/project.pbxproj") == pbxproj(marketing: "1.3.0", build: "13"))
            #expect(try repo.read("android/app/build.gradle") == reactNativeGradle.replacingOccurrences(of: "versionCode 12", with: "versionCode 13")
                .replacingOccurrences(of: "1.2.0", with: "1.3.0"))
        case .flutter:
            #expect(try repo.read("pubspec.yaml") == pubspec.replacingOccurrences(of: "1.2.0+12", with: "1.3.0+13"))
        }
        if shape != .flutter { #expect(try repo.read("package.json") == packageJSON("1.3.0")) }
    }

    @Test func syncTwiceChangesNothingTheSecondTime() throws {
        let repo = try AppShape.reactNative.make()
        #expect(relctl(["init"], in: repo.path).code == 0)
        #expect(relctl(["sync", "1.3.0"], in: repo.path).code == 0)
        let snapshot = try repo.snapshot()
        let again = relctl(["sync", "1.3.0", "--json"], in: repo.path)
        #expect(again.code == 0, "\(again.stderr)")
        #expect(try repo.snapshot() == snapshot)
        #expect(again.stdout == #"{"schemaVersion":1,"version":"1.3.0","iosBuild":"13","androidBuild":"13","dryRun":false,"files":[{"path":"package.json","changed":false},{"path":"ios/App.xcodeproj/project.pbxproj","changed":false},{"path":"android/app/build.gradle","changed":false}]}"# + "\n")
        #expect(again.stderr == "note: every file already holds 1.3.0; build numbers kept (pass --build N to set them)\nall 3 files already hold 1.3.0, iOS build 13, Android build 13; nothing to write\n", "\(again.stderr)")
        // Going back is refused (the stores refuse a lower version), unless --allow-downgrade says it is meant.
        let refused = relctl(["sync", "1.2.5"], in: repo.path)
        #expect(refused.code == 1)
        #expect(refused.stderr == "error: package.json:3: 1.2.5 is lower than 1.3.0, the version this file holds, and the stores refuse a version below the last one; nothing was written (pass --allow-downgrade to write it anyway, e.g. to undo a mistaken sync)\n", "\(refused.stderr)")
        #expect(try repo.snapshot() == snapshot)
        let back = relctl(["sync", "1.2.5", "--dry-run", "--allow-downgrade"], in: repo.path)
        #expect(back.code == 0)
        #expect(back.stderr.hasPrefix("warning: 1.2.5 is lower than 1.3.0 in package.json:3; it would be written anyway (--allow-downgrade)\n"), "\(back.stderr)")
        #expect(try repo.snapshot() == snapshot)
        // A new version moves the build numbers on again.
        #expect(relctl(["sync", "1.3.1"], in: repo.path).code == 0)
        #expect(try repo.read("android/app/build.gradle") == reactNativeGradle.replacingOccurrences(of: "versionCode 12", with: "versionCode 14")
            .replacingOccurrences(of: "1.2.0", with: "1.3.1"))
    }

    @Test func dryRunPrintsADiffAndChangesNoByte() throws {
        let repo = try AppShape.expo.make()
        #expect(relctl(["init"], in: repo.path).code == 0)
        let snapshot = try repo.snapshot()
        let result = relctl(["sync", "1.3.0", "--dry-run"], in: repo.path)
        #expect(try repo.snapshot() == snapshot)
        // The diff of both files, what would be updated, and that nothing was written.
        expectTranscript(["sync", "1.3.0", "--dry-run"], result, matches: "sync/dry-run-expo.txt", repo: repo)

        let json = relctl(["sync", "1.3.0", "--dry-run", "--json"], in: repo.path)
        #expect(json.stdout == #"{"schemaVersion":1,"version":"1.3.0","iosBuild":"13","androidBuild":"13","dryRun":true,"files":[{"path":"app.json","changed":true},{"path":"package.json","changed":true}]}"# + "\n")
        #expect(try repo.snapshot() == snapshot)
    }

    @Test func prereleaseGoesWholeToAndroidAndAsItsCoreToIOS() throws {
        let repo = try AppShape.reactNative.make()
        try writeConfig(repo, files: [("package.json", "json"), ("ios/App.xcodeproj/project.pbxproj", "pbxproj"),
                                      ("ios/App/Info.plist", "plist"), ("android/app/build.gradle", "gradle")])
        let result = relctl(["sync", "1.3.0-beta.1"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try repo.read("ios/App.xcodeproj/project.pbxproj") == pbxproj(marketing: "1.3.0", build: "13"))
        #expect(try repo.read("android/app/build.gradle") == reactNativeGradle.replacingOccurrences(of: "versionCode 12", with: "versionCode 13")
            .replacingOccurrences(of: "1.2.0", with: "1.3.0-beta.1"))
        #expect(try repo.read("package.json") == packageJSON("1.3.0-beta.1"))
        #expect(try repo.read("ios/App/Info.plist") == infoPlistWithBuildSettings)
        let current = relctl(["current"], in: repo.path)
        // The Info.plist's marketing version is the build setting, set in the project file (1.3.0, not the beta).
        expectTranscript(["current"], current, matches: "sync/prerelease-current.txt", repo: repo)
        #expect(!result.stderr.contains("warning:"), "\(result.stderr)")
        // The final release of the same marketing version is a later build.
        let final = relctl(["sync", "1.3.0"], in: repo.path)
        #expect(final.code == 0)
        #expect(!final.stderr.contains("warning:"), "\(final.stderr)")
        #expect(try repo.read("android/app/build.gradle") == reactNativeGradle.replacingOccurrences(of: "versionCode 12", with: "versionCode 14")
            .replacingOccurrences(of: "1.2.0", with: "1.3.0"))
    }

    @Test func flutterIndirectionsPointAtPubspec() throws {
        let repo = try AppShape.flutter.make()
        try writeConfig(repo, files: [("pubspec.yaml", "pubspec"), ("ios/Runner.xcodeproj/project.pbxproj", "pbxproj")])
        let current = relctl(["current"], in: repo.path)
        let json = relctl(["current", "--json"], in: repo.path)
        // The project's settings point at pubspec.yaml, as text and as JSON.
        expectTranscript([(["current"], current), (["current", "--json"], json)], matches: "sync/flutter-indirections.txt", repo: repo)
        let sync = relctl(["sync", "1.3.0"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(try repo.read("pubspec.yaml") == pubspec.replacingOccurrences(of: "1.2.0+12", with: "1.3.0+13"))
        #expect(try repo.read("ios/Runner.xcodeproj/project.pbxproj")
                == pbxproj(marketing: "\"$(FLUTTER_BUILD_NAME)\"", build: "\"$(FLUTTER_BUILD_NUMBER)\""))
    }

    static let failures: [SyncFailure] = [
        SyncFailure("computed versionCode", .reactNative, [("package.json", "json"), ("android/app/build.gradle", "gradle")], ["1.3.0"], "",
                    edit: ("android/app/build.gradle", "versionCode 12", "versionCode getBuildNumber()"),
         { _ in "error: android/app/build.gradle:9: versionCode is a computed value (getBuildNumber()), so relctl cannot increment it (write a literal" }),
        SyncFailure("computed versionCode with --build", .reactNative, [("package.json", "json"), ("android/app/build.gradle", "gradle")],
                    ["1.3.0", "--build", "20"], "", edit: ("android/app/build.gradle", "versionCode 12", "versionCode getBuildNumber()"),
         { _ in "error: android/app/build.gradle:9: versionCode is a computed value (getBuildNumber()), relctl edits only literals (write a literal" }),
        SyncFailure("computed versionName (Flutter)", .flutter, [("pubspec.yaml", "pubspec"), ("android/app/build.gradle.kts", "gradle")], ["1.3.0"], "",
         { _ in "error: android/app/build.gradle.kts:6: versionName is a computed value (flutter.versionName), relctl edits only literals (the value comes from pubspec.yaml; use a pubspec entry instead of this Gradle file)" }),
        SyncFailure("missing file", .expo, [("app.json", "expo"), ("ios/App/Info.plist", "plist")], ["1.3.0"], "",
         { _ in "error: ios/App/Info.plist: file not found (fix the path in .relctl.json or run relctl init)" }),
        SyncFailure("versionCode above Google Play's maximum", .reactNative,
         [("package.json", "json"), ("ios/App.xcodeproj/project.pbxproj", "pbxproj"), ("android/app/build.gradle", "gradle")],
         ["1.3.0", "--build", "2100000001"], "",
         { _ in "error: android/app/build.gradle:9: Android versionCode 2100000001 is above Google Play's maximum" }),
        SyncFailure("build number going backwards", .reactNative,
         [("package.json", "json"), ("ios/App.xcodeproj/project.pbxproj", "pbxproj"), ("android/app/build.gradle", "gradle")],
         ["1.3.0", "--build", "7"], "",
         // A new version's iOS builds start again (App Store Connect compares them within a version); versionCode never.
         { repo in "error: android/app/build.gradle:\(lineOf("versionCode 12", in: try repo.read("android/app/build.gradle"))): Android versionCode 7 is not greater than the current 12" }),
        SyncFailure("uncovered $(MARKETING_VERSION)", .reactNative, [("ios/App/Info.plist", "plist")], ["1.3.0"], "",
         { _ in "error: ios/App/Info.plist:8: CFBundleShortVersionString is $(MARKETING_VERSION); the real value lives in the build setting MARKETING_VERSION" }),
        SyncFailure("env strategy without its variable", .expo, [("app.json", "expo")], ["1.3.0"],
         #""buildNumber": {"strategy": "env", "variable": "CI_BUILD"}"#,
         { _ in "error: .relctl.json:5: environment variable CI_BUILD is not set (buildNumber strategy env: " }),
        SyncFailure("fromVersion slot overflow", .expo, [("app.json", "expo")], ["1.300.0"], #""buildNumber": {"strategy": "fromVersion"}"#,
         { _ in "error: .relctl.json:5: minor 300 of 1.300.0 overflows its 2-digit slot in the build number" }),
        SyncFailure("not a semantic version", .expo, [("app.json", "expo")], ["1.3"], "",
         { _ in "error: '1.3' is not a semantic version (" }),
        SyncFailure("a tag instead of a version", .expo, [("app.json", "expo")], ["v1.3.0"], "",
         { _ in "error: 'v1.3.0' is a tag name, not a version; drop the leading 'v': relctl sync 1.3.0" }),
        SyncFailure("build not a number", .expo, [("app.json", "expo")], ["1.3.0", "--build", "12a"], "",
         { _ in "error: --build '12a' is not a positive whole number" }),
    ]

    @Test(arguments: failures)
    func failureNamesTheLineAndChangesNoByte(failure: SyncFailure) throws {
        let (name, shape, files, arguments, extra, expected) = (failure.name, failure.shape, failure.files, failure.arguments,
                                                                failure.extra, failure.expected)
        let repo = try shape.make()
        try writeConfig(repo, files: files, extra: extra)
        if let (path, old, new) = failure.edit {
            let text = try repo.read(path)
            try #require(text.contains(old), "the set-up edit finds \(old) in \(path)")
            try repo.write(path, text.replacingOccurrences(of: old, with: new))
        }
        let snapshot = try repo.snapshot()
        for dryRun in [false, true] {
            let result = relctl(["sync"] + arguments + (dryRun ? ["--dry-run"] : []), in: repo.path)
            #expect(result.code == 1, "\(name): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(name)")
            #expect(result.stderr.hasPrefix(try expected(repo)), "\(name): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(name): \(result.stderr)")
            #expect(try repo.snapshot() == snapshot, "\(name)")
        }
    }

    @Test func driftExitsTwoAndNamesTheFiles() throws {
        let repo = try AppShape.reactNative.make()
        #expect(relctl(["init"], in: repo.path).code == 0)
        try repo.write("package.json", packageJSON("1.1.0"))
        try repo.write("android/app/build.gradle", reactNativeGradle.replacingOccurrences(of: "versionCode 12", with: "versionCode 15"))
        let result = relctl(["current"], in: repo.path)
        let json = relctl(["current", "--json"], in: repo.path)
        // Exit 2, every file and line of the drifting field, and how to align them; the same as JSON.
        expectTranscript([(["current"], result), (["current", "--json"], json)], matches: "sync/drift.txt", repo: repo)

        // Android alone carries versionCode: a different value there is no drift, a second Android file would be.
        #expect(!result.stderr.contains("androidBuild"))
        // sync aligns everything again.
        #expect(relctl(["sync", "1.3.0"], in: repo.path).code == 0)
        #expect(relctl(["current"], in: repo.path).code == 0)
        #expect(try repo.read("android/app/build.gradle") == reactNativeGradle.replacingOccurrences(of: "versionCode 12", with: "versionCode 16")
            .replacingOccurrences(of: "1.2.0", with: "1.3.0"))
        #expect(try repo.read("ios/App.xcodeproj/project.pbxproj") == pbxproj(marketing: "1.3.0", build: "16"))
    }

    @Test func initNeverOverwritesAndWritesNothingWhenNothingIsFound() throws {
        let repo = try AppShape.expo.make()
        try repo.write(".relctl.json", "{\"tagFormat\": \"app-v{version}\"}\n")
        let refused = relctl(["init"], in: repo.path)
        #expect(refused.code == 1)
        #expect(refused.stderr == "error: .relctl.json already exists in \(repo.path); relctl init never overwrites it (edit it, or delete it and run relctl init again; relctl init --dry-run shows what it would write)\n")
        #expect(try repo.read(".relctl.json") == "{\"tagFormat\": \"app-v{version}\"}\n")

        let empty = try TestRepository()
        try empty.write("README.md", "# nothing here\n")
        let none = relctl(["init"], in: empty.path)
        #expect(none.code == 1)
        #expect(none.stderr.hasPrefix("error: no version files found in \(empty.path)"))
        #expect(!FileManager.default.fileExists(atPath: empty.path + "/.relctl.json"))

        let notRepo = try makeTempDirectory(prefix: "relctl-plain")
        defer { try? FileManager.default.removeItem(atPath: notRepo) }
        expectTranscript(["init"], relctl(["init"], in: notRepo), matches: "sync/init-outside-a-repository.txt", placeholders: [(notRepo, "<folder>")])
    }

    @Test func withoutFilesTheCommandsSuggestInit() throws {
        let repo = try AppShape.expo.make()
        for command in [["current"], ["sync", "1.3.0"]] {
            let result = relctl(command, in: repo.path)
            #expect(result.code == 1)
            #expect(result.stderr == "error: no .relctl.json at \(repo.path): relctl does not know this app's version files or tag format yet; run 'relctl init' to create it (or pass --config PATH)\n")
        }
        try repo.write(".relctl.json", "{\"tagFormat\": \"v{version}\"}\n")
        let result = relctl(["current"], in: repo.path)
        #expect(result.code == 1)
        #expect(result.stderr.hasPrefix("error: .relctl.json lists no version files ('files' is missing or empty); run 'relctl init'"))
    }

    @Test(arguments: [
        ("\"files\": [\n    {\"path\": \"app.json\", \"format\": \"expo\", \"keyPath\": \"x\"}\n  ]",
         ".relctl.json:3: 'files': option \"keyPath\" does not apply to format expo (allowed keys for expo: format, path)"),
        ("\"files\": [\n    {\"path\": \"app.json\",\n     \"format\": \"yaml\"}\n  ]",
         ".relctl.json:4: 'files': unknown format \"yaml\" (one of: expo, json, expo-js, pbxproj, plist, xcconfig, gradle, properties, version-catalog, pubspec, regex)"),
        ("\"files\": [\n    \"app.json\"\n  ]", ".relctl.json:3: 'files': a files entry must be an object, found a string"),
        ("\"files\": {\"path\": \"app.json\"}", ".relctl.json:2: 'files' must be an array, not an object"),
        ("\"files\": [\n    {\"path\": \"app.json\", \"format\": \"expo\"},\n    {\"path\": \"app.json\", \"format\": \"json\"}\n  ]",
         ".relctl.json:4: 'files': app.json is listed twice (also at line 3); keep one entry per file"),
        ("\"buildNumber\": {\"strategy\": \"incremnt\"}", ".relctl.json:2: 'buildNumber.strategy' is \"incremnt\"; did you mean \"increment\"?"),
        ("\"buildNumber\": {\"strategy\": \"git\"}", ".relctl.json:2: 'buildNumber.strategy' is \"git\"; use one of \"increment\", \"perVersion\", \"fromVersion\", \"env\", \"keep\""),
        ("\"buildNumber\": {\n    \"strategy\": \"increment\",\n    \"variable\": \"X\"\n  }",
         ".relctl.json:4: 'buildNumber.variable' applies only to strategy \"env\", not \"increment\"; remove it or set \"strategy\": \"env\""),
        ("\"buildNumber\": {\n    \"digits\": [2, 2]\n  }",
         ".relctl.json:3: 'buildNumber.digits' applies only to strategy \"fromVersion\", not \"increment\"; remove it or set \"strategy\": \"fromVersion\""),
        ("\"buildNumber\": {\"strategy\": \"env\"}", ".relctl.json:2: 'buildNumber.variable' is required with strategy \"env\""),
        ("\"buildNumber\": {\"strategy\": \"env\", \"variable\": \"RUN-NUMBER\"}", ".relctl.json:2: 'buildNumber.variable' \"RUN-NUMBER\" is not an environment variable name"),
        ("\"buildNumber\": {\"strategy\": \"env\", \"variable\": \"N\", \"offset\": 1.5}", ".relctl.json:2: 'buildNumber.offset' must be a whole number, not 1.5"),
        ("\"buildNumber\": {\"strategy\": \"fromVersion\", \"digits\": [2, 9]}", ".relctl.json:2: 'buildNumber.digits' entries must be whole numbers from 1 to 6 (digits per version part), not 9"),
        ("\"buildNumber\": {\"strategy\": \"fromVersion\", \"digits\": [4, 4], \"prereleaseDigits\": 2}", ".relctl.json:2: 'buildNumber.digits' and 'prereleaseDigits' add up to 10 digits"),
        ("\"buildNumber\": {\"shared\": \"yes\"}", ".relctl.json:2: 'buildNumber.shared' must be true or false, not a string"),
        ("\"buildNumber\": {\"strategy\": \"keep\", \"sharde\": true}", ".relctl.json:2: unknown key 'buildNumber.sharde'; did you mean 'buildNumber.shared'?"),
        ("\"buildNumber\": \"increment\"", ".relctl.json:2: 'buildNumber' must be an object, not a string"),
    ])
    func configErrorsNameTheLine(body: String, expected: String) throws {
        let repo = try AppShape.expo.make()
        try repo.write(".relctl.json", "{\n  \(body)\n}\n")
        let snapshot = try repo.snapshot()
        for command in [["current"], ["sync", "1.3.0"]] {
            let result = relctl(command, in: repo.path)
            #expect(result.code == 1)
            #expect(result.stderr.hasPrefix("error: " + expected), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        #expect(try repo.snapshot() == snapshot)
    }

    @Test func configExposesTheDecodedValues() throws {
        let config = try Config.parse("""
        {"files": [{"path": "android/gradle.properties", "format": "properties", "versionCodeKey": "APP_CODE"}],
         "buildNumber": {"strategy": "env", "variable": "GITHUB_RUN_NUMBER", "offset": 1000}}
        """, path: ".relctl.json")
        #expect(config.files.map(\.path) == ["android/gradle.properties"])
        #expect(config.files[0].options.versionCodeKey == "APP_CODE")
        #expect(config.buildNumber.strategy == .env(name: "GITHUB_RUN_NUMBER", offset: 1000))
        #expect(config.buildNumber.line == 2)
        let defaults = try Config.parse("{}", path: ".relctl.json")
        #expect(defaults.files.isEmpty && defaults.buildNumber.strategy == .increment && defaults.buildNumber.shared)
        let fromVersion = try Config.parse(#"{"buildNumber": {"strategy": "fromVersion", "digits": [3, 3], "prereleaseDigits": 2}}"#, path: "x")
        #expect(fromVersion.buildNumber.strategy == .fromVersion(digits: [3, 3], prereleaseDigits: 2))
    }

    @Test(arguments: [
        (#""buildNumber": {"strategy": "fromVersion"}"#, [String: String](), "10300", "10300"),
        (#""buildNumber": {"strategy": "fromVersion", "digits": [2, 2], "prereleaseDigits": 2}"#, [:], "1030099", "1030099"),
        (#""buildNumber": {"strategy": "env", "variable": "GITHUB_RUN_NUMBER", "offset": 1000}"#, ["GITHUB_RUN_NUMBER": "77"], "1077", "1077"),
        (#""buildNumber": {"strategy": "keep"}"#, [:], "12", "30"),
        (#""buildNumber": {"strategy": "increment", "shared": false}"#, [:], "13", "31"),
        (#""buildNumber": {"strategy": "increment"}"#, [:], "31", "31"),
    ])
    func buildNumberStrategies(extra: String, environment: [String: String], ios: String, android: String) throws {
        let repo = try TestRepository()
        try repo.write("app.json", expoAppJSON.replacingOccurrences(of: "\"versionCode\": 12", with: "\"versionCode\": 30"))
        try writeConfig(repo, files: [("app.json", "expo")], extra: extra)
        let result = relctl(["sync", "1.3.0", "--json"], in: repo.path, environment: environment)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"schemaVersion":1,"version":"1.3.0","iosBuild":"\#(ios)","androidBuild":"\#(android)","dryRun":false,"files":[{"path":"app.json","changed":true}]}"# + "\n")
        let text = try repo.read("app.json")
        #expect(text == expoAppJSON.replacingOccurrences(of: "1.2.0", with: "1.3.0").replacingOccurrences(of: "\"buildNumber\": \"12\"", with: "\"buildNumber\": \"\(ios)\"")
            .replacingOccurrences(of: "\"versionCode\": 12", with: "\"versionCode\": \(android)"))
        // Deterministic strategies are idempotent too.
        let again = relctl(["sync", "1.3.0"], in: repo.path, environment: environment)
        #expect(again.code == 0, "\(again.stderr)")
        #expect(try repo.read("app.json") == text)
    }

    @Test func helpDocumentsBehaviourAndExitCodes() {
        // The whole help texts are golden files (GoldenOutputHelpTests); here, that each has its usage and exit codes.
        for command in ["init", "current", "sync"] {
            let help = relctl(["help", command], in: "/")
            #expect(help.code == 0)
            let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first { $0.hasPrefix("USAGE: ") } .map { $0.hasPrefix("USAGE: relctl \(command)") } == true, "\(command)")
            #expect(lines.filter { $0.hasPrefix("EXIT CODES: ") }.count == 1, "\(command)")
        }
        #expect(relctl(["--help"], in: "/").stdout.split(separator: "\n").filter { $0.hasPrefix("  sync                    Write a version") }.count == 1)
        let usage = relctl(["sync"], in: "/")
        #expect(usage.code == 64)
        #expect(usage.stderr.hasPrefix("error: missing argument <version>\n"))
    }

    @Test func realBinaryEndToEnd() throws {
        let repo = try AppShape.reactNative.make()
        let initResult = try runRelctl(["init"], in: repo.path)
        #expect(initResult.status == 0, "\(initResult.stderr)")
        let sync = try runRelctl(["sync", "2.0.0", "--json", "--repo", repo.path + "/ios"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.hasPrefix(#"{"schemaVersion":1,"version":"2.0.0","iosBuild":"13","androidBuild":"13","dryRun":false,"#))
        #expect(try repo.read("ios/App.xcodeproj/project.pbxproj") == pbxproj(marketing: "2.0.0", build: "13"))

        try repo.write("package.json", packageJSON("1.9.0"))
        let drift = try runRelctl(["current"], in: repo.path + "/android")
        #expect(drift.status == 2)
        #expect(drift.stderr.hasPrefix("error: version drift: marketing differs: package.json:3 1.9.0,"))

        let bad = try runRelctl(["sync", "2.1.0", "--build", "2100000001"], in: repo.path)
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("error: android/app/build.gradle:9: Android versionCode 2100000001 is above Google Play's maximum"))
        #expect(try repo.read("package.json") == packageJSON("1.9.0"))
    }
}

@Suite("Build numbers that cannot be undone")
struct BuildNumberJumpCommandTests {
    /// A React Native app whose iOS build is timestamp-like while Android's versionCode is still 1.
    func app(buildNumber: String) throws -> TestRepository {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write("package.json", packageJSON("1.2.0"))
        try repo.write("ios/App.xcodeproj/project.pbxproj", pbxproj(marketing: "1.2.0", build: "1703279999"))
        try repo.write("android/app/build.gradle", reactNativeGradle.replacingOccurrences(of: "versionCode 12", with: "versionCode 1"))
        try writeConfig(repo, files: [("package.json", "json"), ("ios/App.xcodeproj/project.pbxproj", "pbxproj"),
                                      ("android/app/build.gradle", "gradle")], extra: "\"buildNumber\": \(buildNumber)")
        try repo.commitAll("chore: app")
        return repo
    }

    @Test func aSharedCounterNeverCarriesATimestampIntoVersionCode() throws {
        let repo = try app(buildNumber: #"{"strategy": "increment", "shared": true}"#)
        let pbxprojBefore = try repo.read("ios/App.xcodeproj/project.pbxproj")
        for arguments in [["sync", "1.3.0"], ["sync", "1.3.0", "--dry-run"], ["release", "--dry-run"]] {
            try? repo.tag("v1.2.0")
            if arguments[0] == "release" { try repo.commit("feat: x") }
            let result = relctl(arguments, in: repo.path)
            expectTranscript(arguments, result, matches: "sync/shared-counter-timestamp-jump-\(arguments.joined(separator: "-")).txt", repo: repo)
        }
        #expect(try repo.read("android/app/build.gradle") == reactNativeGradle.replacingOccurrences(of: "versionCode 12", with: "versionCode 1"))
        #expect(try repo.read("ios/App.xcodeproj/project.pbxproj") == pbxprojBefore)
    }

    @Test func separateCountersOrAnExplicitLimitLetTheSyncThrough() throws {
        let separate = try app(buildNumber: #"{"strategy": "increment", "shared": false}"#)
        let result = relctl(["sync", "1.3.0"], in: separate.path)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try separate.read("android/app/build.gradle") == reactNativeGradle.replacingOccurrences(of: "versionCode 12", with: "versionCode 2")
            .replacingOccurrences(of: "1.2.0", with: "1.3.0"))
        #expect(try separate.read("ios/App.xcodeproj/project.pbxproj") == pbxproj(marketing: "1.3.0", build: "1703280000"))

        let unlimited = try app(buildNumber: #"{"strategy": "increment", "maxJump": 0}"#)
        #expect(relctl(["sync", "1.3.0"], in: unlimited.path).code == 0)
        #expect(try unlimited.read("android/app/build.gradle") == reactNativeGradle.replacingOccurrences(of: "versionCode 12", with: "versionCode 1703280000")
            .replacingOccurrences(of: "1.2.0", with: "1.3.0"))
    }

    @Test func anExplicitBuildIsCheckedTooAndTheLimitIsConfigurable() throws {
        let repo = try AppShape.expo.make()
        try writeConfig(repo, files: [("app.json", "expo"), ("package.json", "json")], extra: #""buildNumber": {"maxJump": 100}"#)
        let snapshot = try repo.snapshot()
        let refused = relctl(["sync", "1.3.0", "--build", "113"], in: repo.path)
        expectTranscript(["sync", "1.3.0", "--build", "113"], refused, matches: "sync/explicit-build-jump-over-max.txt", repo: repo)
        #expect(try repo.snapshot() == snapshot)
        #expect(relctl(["sync", "1.3.0", "--build", "112"], in: repo.path).code == 0)

        try writeConfig(repo, files: [("app.json", "expo")], extra: #""buildNumber": {"maxJump": -1}"#)
        let bad = relctl(["current"], in: repo.path)
        expectTranscript(["current"], bad, matches: "sync/max-jump-negative.txt", repo: repo)
    }
}

@Suite("fromVersion never reuses a build number")
struct FromVersionReuseTests {
    @Test(arguments: [AppShape.expo, .flutter])
    func theNextBetaWithoutPrereleaseDigitsIsRefusedWithTheFix(shape: AppShape) throws {
        let repo = try shape.make()
        let files: [(String, String)] = shape == .expo ? [("app.json", "expo"), ("package.json", "json")] : [("pubspec.yaml", "pubspec")]
        try writeConfig(repo, files: files, extra: #""buildNumber": {"strategy": "fromVersion"}"#)
        try repo.commitAll("chore: app")
        let first = relctl(["sync", "1.3.0-beta.1"], in: repo.path)
        #expect(first.code == 0, "\(first.stderr)")
        let snapshot = try repo.snapshot()
        for version in ["1.3.0-beta.2", "1.3.0"] {
            let again = relctl(["sync", version], in: repo.path)
            expectTranscript(["sync", version], again, matches: "sync/from-version-reused-\(shape)-\(version).txt", repo: repo)
            #expect(try repo.snapshot() == snapshot)
        }
        // Syncing the same version again is still "nothing to write".
        let same = relctl(["sync", "1.3.0-beta.1"], in: repo.path)
        #expect(same.code == 0, "\(same.stderr)")
        #expect(try repo.snapshot() == snapshot)
    }

    @Test func withPrereleaseDigitsEveryBetaAndTheFinalGetTheirOwnNumber() throws {
        let repo = try AppShape.expo.make()
        try writeConfig(repo, files: [("app.json", "expo"), ("package.json", "json")],
                        extra: #""buildNumber": {"strategy": "fromVersion", "prereleaseDigits": 2}"#)
        for (version, build) in [("1.3.0-beta.1", "1030001"), ("1.3.0-beta.2", "1030002"), ("1.3.0", "1030099")] {
            let result = relctl(["sync", version, "--json"], in: repo.path)
            #expect(result.code == 0, "\(result.stderr)")
            #expect(result.stdout == #"{"schemaVersion":1,"version":"\#(version)","iosBuild":"\#(build)","androidBuild":"\#(build)","dryRun":false,"files":[{"path":"app.json","changed":true},{"path":"package.json","changed":true}]}"# + "\n")
        }
    }
}

@Suite("Messages for one-platform apps")
struct OnePlatformMessageTests {
    @Test func anIOSOnlyAppIsNeverToldAboutAndroid() throws {
        let repo = try TestRepository()
        try repo.write("ios/App.xcodeproj/project.pbxproj", pbxproj(marketing: "1.2.0", build: "12"))
        try writeConfig(repo, files: [("ios/App.xcodeproj/project.pbxproj", "pbxproj")])
        try repo.commitAll("chore: app")
        for arguments in [["sync", "1.3.0", "--dry-run"], ["sync", "1.3.0", "--build", "20", "--dry-run"], ["sync", "1.3.0", "--build", "20"],
                          ["sync", "1.3.0", "--build", "20"], ["current"]] {
            let result = relctl(arguments, in: repo.path)
            #expect(result.code == 0, "\(arguments): \(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains("Android"), "\(arguments): \(result.stderr)")
        }
        let again = relctl(["sync", "1.3.0", "--build", "20"], in: repo.path)
        #expect(again.stderr == "the 1 file already holds 1.3.0, iOS build 20; nothing to write\n", "\(again.stderr)")
    }

    @Test func anAndroidOnlyAppIsNeverToldAboutIOS() throws {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write("app/build.gradle", reactNativeGradle)
        try writeConfig(repo, files: [("app/build.gradle", "gradle")])
        try repo.commitAll("chore: app")
        try repo.tag("v1.2.0")
        try repo.commit("feat: widgets")
        for arguments in [["sync", "1.3.0", "--dry-run"], ["sync", "1.3.0", "--build", "20", "--dry-run"], ["current"], ["next"], ["release", "--dry-run"]] {
            let result = relctl(arguments, in: repo.path)
            #expect(result.code == 0, "\(arguments): \(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains("iOS"), "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains("App Store"), "\(arguments): \(result.stderr)")
        }
        let dry = relctl(["sync", "1.3.0", "--dry-run"], in: repo.path)
        expectTranscript(["sync", "1.3.0", "--dry-run"], dry, matches: "sync/android-only-dry-run.txt", repo: repo)
        // The equal-version refusal names the Android store, not App Store Connect.
        #expect(relctl(["sync", "1.3.0"], in: repo.path).code == 0)
        try repo.commitAll("chore: hand sync")
        let equal = relctl(["release", "--dry-run"], in: repo.path)
        expectTranscript(["release", "--dry-run"], equal, matches: "sync/android-only-equal-version-refused.txt", repo: repo)
        #expect(!equal.stderr.contains("App Store"))
    }
}
