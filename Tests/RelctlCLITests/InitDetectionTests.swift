import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// `relctl init` finds every place that holds the version, and nothing that does not: --dry-run, the remote's default
// branch, wrapped Gradle assignments, an .xcconfig including a .properties file Gradle also reads, XcodeGen, Expo
// configs reading package.json, eas.json, JavaScript tooling beside a native app, and the other tracked files
// holding the version. Each case runs init, then current and sync on what init wrote.

private let settingsKts = "rootProject.name = \"Trail\"\ninclude(\":app\")\n"

/// The entries of a config, each as compact JSON with its members in the file's order.
private func entries(_ config: String) throws -> [String] {
    let object = try JSONSerialization.jsonObject(with: Data(config.utf8)) as? [String: Any]
    let files = object?["files"] as? [[String: Any]] ?? []
    return try files.map { String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) }
}

private func configObject(_ config: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(config.utf8)) as? [String: Any] ?? [:]
}

@Suite("init --dry-run")
struct InitDryRunTests {
    func androidApp() throws -> TestRepository {
        let repo = try TestRepository()
        try repo.write("settings.gradle.kts", settingsKts)
        try repo.write("app/build.gradle.kts", "android {\n    defaultConfig {\n        versionCode = 12\n        versionName = \"1.4.0\"\n    }\n}\n")
        try repo.commitAll("chore: the app")
        return repo
    }

    static let expectedConfig = """
    {
      "tagFormat": "v{version}",
      "files": [
        {
          "path": "app/build.gradle.kts",
          "format": "gradle"
        }
      ],
      "buildNumber": {
        "strategy": "increment",
        "shared": true
      }
    }

    """

    @Test func printsTheFileListAndTheConfigAndWritesNothing() throws {
        let repo = try androidApp()
        let before = try repo.snapshot()
        let result = relctl(["init", "--dry-run"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == "app/build.gradle.kts                         gradle     version 1.4.0, Android build 12\n\n" + Self.expectedConfig)
        #expect(result.stderr == "dry run: .relctl.json was not written; run relctl init to write it\n")
        #expect(try repo.snapshot() == before)
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.relctl.json"))

        // What it printed is what init writes.
        let written = relctl(["init"], in: repo.path)
        #expect(written.code == 0, "\(written.stderr)")
        #expect(try repo.read(".relctl.json") == Self.expectedConfig)
    }

    @Test func withAConfigAlreadyThereItShowsWhatItDetectsAndInitKeepsRefusing() throws {
        let repo = try androidApp()
        try repo.write(".relctl.json", "{\"files\": []}\n")
        let dry = relctl(["init", "--dry-run"], in: repo.path)
        #expect(dry.code == 0, "\(dry.stderr)")
        #expect(dry.stdout.hasSuffix("\n" + Self.expectedConfig))
        #expect(dry.stderr == "note: .relctl.json already exists and was left as it is: this is what relctl init detects now; relctl init (without --dry-run) refuses to overwrite it\ndry run: .relctl.json was not written; run relctl init to write it\n")
        #expect(try repo.read(".relctl.json") == "{\"files\": []}\n")
        let real = relctl(["init"], in: repo.path)
        #expect(real.code == 1)
        #expect(real.stderr == "error: .relctl.json already exists in \(repo.path); relctl init never overwrites it (edit it, or delete it and run relctl init again; relctl init --dry-run shows what it would write)\n")
        #expect(try repo.read(".relctl.json") == "{\"files\": []}\n")
    }

    @Test func jsonCarriesTheConfigText() throws {
        let repo = try androidApp()
        let result = relctl(["init", "--dry-run", "--json"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        let object = try configObject(result.stdout)
        #expect(object["dryRun"] as? Bool == true)
        #expect(object["configExists"] as? Bool == false)
        #expect(object["configText"] as? String == Self.expectedConfig)
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.relctl.json"))
    }

    @Test func nothingFoundIsStillAFailure() throws {
        let repo = try TestRepository()
        try repo.commit("chore: empty")
        let result = relctl(["init", "--dry-run"], in: repo.path)
        #expect(result.code == 1)
        #expect(result.stderr.hasPrefix("error: no version files found in "))
    }
}

@Suite("init: branches from the remote's default branch")
struct InitDefaultBranchTests {
    /// A clone of a repository whose default branch is `branch`.
    func clone(defaultBranch branch: String) throws -> TestRepository {
        let origin = try TestRepository(branch: branch)
        try origin.write("settings.gradle.kts", settingsKts)
        try origin.write("app/build.gradle.kts", "android {\n    defaultConfig {\n        versionCode = 3\n        versionName = \"0.3.0\"\n    }\n}\n")
        try origin.commitAll("chore: the app")
        let destination = try makeTempDirectory(prefix: "relctl-clone")
        try FileManager.default.removeItem(atPath: destination)
        try origin.clone(to: destination)
        return try TestRepository(existing: destination)
    }

    @Test func developIsWritten() throws {
        let repo = try clone(defaultBranch: "develop")
        defer { try? FileManager.default.removeItem(atPath: repo.path) }
        let result = relctl(["init"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        let config = try repo.read(".relctl.json")
        #expect(config.hasPrefix("{\n  \"tagFormat\": \"v{version}\",\n  \"branches\": [\n    \"develop\"\n  ],\n  \"files\": ["), "\(config)")
        expectTranscript(["init"], result, matches: "init/default-branch-develop.txt", repo: repo)
        // The config is valid and the branch releases.
        try repo.git(["add", ".relctl.json"])
        try repo.git(["commit", "-q", "-m", "chore: relctl"])
        let next = relctl(["release", "--dry-run"], in: repo.path)
        #expect(!next.stderr.contains("not a release branch"), "\(next.stderr)")
    }

    @Test func mainWritesNoBranches() throws {
        let repo = try clone(defaultBranch: "main")
        defer { try? FileManager.default.removeItem(atPath: repo.path) }
        #expect(relctl(["init"], in: repo.path).code == 0)
        #expect(!(try repo.read(".relctl.json")).contains("branches"))
    }
}

@Suite("init: Gradle, xcconfig and XcodeGen layouts")
struct InitNativeLayoutTests {
    @Test(arguments: [true, false])
    func wrappedGradleAssignments(_ kotlin: Bool) throws {
        let repo = try TestRepository()
        let script = kotlin ? "app/build.gradle.kts" : "app/build.gradle"
        try repo.write(kotlin ? "settings.gradle.kts" : "settings.gradle", kotlin ? settingsKts : "include ':app'\n")
        try repo.write(script, """
        android {
            defaultConfig {
                applicationId = "com.example.trail"
                versionCode =
                    12
                versionName =
                    "1.4.0"
            }
        }

        """)
        try repo.commitAll("chore: the app")
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        #expect(initResult.stdout == CurrentCommand.pad(script, 44) + " gradle     version 1.4.0, Android build 12\n")
        let current = relctl(["current"], in: repo.path)
        #expect(current.code == 0)
        #expect(current.stdout == "\(script) (gradle)\n  marketing      1.4.0        line 7\n  Android build  12           line 5\n")
        let before = try repo.read(script)
        #expect(relctl(["sync", "1.5.0"], in: repo.path).code == 0)
        // The values on their own lines are edited where they are, the layout kept.
        #expect(try repo.read(script) == before.replacingOccurrences(of: "versionCode =\n            12\n        versionName =\n            \"1.4.0\"\n",
                                                                      with: "versionCode =\n            13\n        versionName =\n            \"1.5.0\"\n"))
        #expect(try repo.read(script) != before)
    }

    /// iOS reads the version through an .xcconfig that includes the version.properties Gradle reads.
    func sharedPropertiesApp() throws -> TestRepository {
        let repo = try TestRepository()
        try repo.write("version.properties", "VERSION_NAME=2.6.0\nVERSION_CODE=260\n")
        try repo.write("settings.gradle", "include ':app'\n")
        try repo.write("app/build.gradle", """
        def props = new Properties()
        rootProject.file('version.properties').withInputStream { props.load(it) }
        android {
            defaultConfig {
                versionCode props['VERSION_CODE'].toInteger()
                versionName props['VERSION_NAME']
            }
        }

        """)
        try repo.write("ios/Config/Version.xcconfig", "#include \"../../version.properties\"\nMARKETING_VERSION = $(VERSION_NAME)\nCURRENT_PROJECT_VERSION = $(VERSION_CODE)\n")
        try repo.write("ios/Trail.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "Trail", targets: [
            T("Trail", T.application, ["INFOPLIST_FILE": "Trail/Info.plist"], base: ["Debug": "Config/Version.xcconfig", "Release": "Config/Version.xcconfig"]),
        ]).text)
        try repo.write("ios/Trail/Info.plist", infoPlist(marketing: "$(MARKETING_VERSION)", build: "$(CURRENT_PROJECT_VERSION)"))
        try repo.commitAll("chore: the app")
        return repo
    }

    @Test func anXcconfigIncludingAPropertiesFile() throws {
        let repo = try sharedPropertiesApp()
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        #expect(try entries(repo.read(".relctl.json")) == [
            #"{"format":"pbxproj","path":"ios\/Trail.xcodeproj\/project.pbxproj"}"#,
            #"{"format":"properties","path":"version.properties","versionCodeKey":"VERSION_CODE","versionNameKey":"VERSION_NAME"}"#,
        ])
        let current = relctl(["current"], in: repo.path)
        #expect(current.code == 0, "\(current.stdout)\(current.stderr)")
        let sync = relctl(["sync", "2.7.0"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(try repo.read("version.properties") == "VERSION_NAME=2.7.0\nVERSION_CODE=261\n")
        #expect(relctl(["current"], in: repo.path).code == 0)
    }

    func xcodeGenApp(_ spec: String) throws -> TestRepository {
        let repo = try TestRepository()
        try repo.write("project.yml", spec)
        try repo.write("Trail/App.swift", "import SwiftUI\n")
        try repo.commitAll("chore: the app")
        return repo
    }

    static let xcodeGenSpec = """
    name: Trail
    options:
      bundleIdPrefix: com.example
    settings:
      base:
        MARKETING_VERSION: 3.4.0
        CURRENT_PROJECT_VERSION: "341"
    targets:
      Trail:
        type: application
        platform: iOS
        sources: [Trail]
        info:
          path: Trail/Info.plist
          properties:
            CFBundleShortVersionString: $(MARKETING_VERSION)
            CFBundleVersion: $(CURRENT_PROJECT_VERSION)

    """

    @Test func xcodeGenWithoutACommittedProject() throws {
        let repo = try xcodeGenApp(Self.xcodeGenSpec)
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        #expect(initResult.stdout == CurrentCommand.pad("project.yml", 44) + " regex      version 3.4.0, build 341\n")
        #expect(relctl(["current"], in: repo.path).code == 0)
        // A prerelease is written as its core (the App Store's rule), and the summary names what was written.
        let sync = relctl(["sync", "3.5.0-beta.1"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(sync.stderr.hasPrefix("updated project.yml: marketing 3.4.0 → 3.5.0, build 341 → 342\n"), "\(sync.stderr)")
        #expect(sync.stderr.hasSuffix("synced 3.5.0-beta.1 (3.5.0 in project.yml), iOS build 342, Android build 342: 1 of 1 file updated\n"), "\(sync.stderr)")
        #expect(try repo.read("project.yml") == Self.xcodeGenSpec
            .replacingOccurrences(of: "3.4.0", with: "3.5.0").replacingOccurrences(of: "\"341\"", with: "\"342\""))
    }

    @Test func xcodeGenSettingTheVersionTwiceIsNamedNotGuessed() throws {
        let spec = Self.xcodeGenSpec.replacingOccurrences(of: "    type: application\n", with: "    type: application\n    settings:\n      MARKETING_VERSION: 3.4.0\n")
        let repo = try xcodeGenApp(spec)
        let initResult = relctl(["init"], in: repo.path)
        expectTranscript(["init"], initResult, matches: "init/xcodegen-version-set-twice.txt", repo: repo)
        // Following the advice: one setting, then init adds it.
        try repo.write("project.yml", Self.xcodeGenSpec)
        try FileManager.default.removeItem(atPath: repo.path + "/.relctl.json")
        let again = relctl(["init"], in: repo.path)
        #expect(again.stdout == CurrentCommand.pad("project.yml", 44) + " regex      version 3.4.0, build 341\n")
    }

    @Test func aJavaScriptToolingPackageBesideANativeAppIsNotTheApp() throws {
        let repo = try TestRepository()
        try repo.write("settings.gradle.kts", settingsKts)
        try repo.write("app/build.gradle.kts", "android {\n    defaultConfig {\n        versionCode = 40\n        versionName = \"4.0.1\"\n    }\n}\n")
        try repo.write("package.json", "{\n  \"name\": \"trail-tooling\",\n  \"version\": \"4.0.1\",\n  \"private\": true,\n  \"devDependencies\": {\n    \"@commitlint/cli\": \"^19.0.0\",\n    \"husky\": \"^9.0.0\"\n  }\n}\n")
        try repo.commitAll("chore: the app")
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        #expect(try entries(repo.read(".relctl.json")) == [#"{"format":"gradle","path":"app\/build.gradle.kts"}"#])
        #expect(initResult.stderr.hasPrefix("note: left out package.json (version 4.0.1): it depends on no react-native, expo or Capacitor package, so it is the JavaScript tooling beside the native app, not the app"))
        #expect(relctl(["current"], in: repo.path).code == 0)
    }
}

@Suite("init: Expo configs that read package.json, and eas.json")
struct InitExpoTests {
    static let packageJSON = "{\n  \"name\": \"acme\",\n  \"version\": \"2.7.1\",\n  \"dependencies\": {\n    \"expo\": \"~52.0.0\",\n    \"react-native\": \"0.76.5\"\n  }\n}\n"

    static let configs: [(name: String, text: String)] = [
        ("app.config.ts", """
        import type { ExpoConfig } from "expo/config";
        import pkg from "./package.json";

        const config: ExpoConfig = {
          name: "Acme",
          slug: "acme",
          version: pkg.version,
          ios: { bundleIdentifier: "com.acme.app", buildNumber: "57" },
          android: { package: "com.acme.app", versionCode: 57 },
        };

        export default config;

        """),
        ("app.config.js", """
        import { version } from './package.json';

        export default {
          expo: {
            name: 'Acme',
            version,
            ios: { buildNumber: '57' },
            android: { versionCode: 57 },
          },
        };

        """),
        ("app.config.js", """
        module.exports = ({ config }) => ({
          ...config,
          version: require('./package.json').version,
          ios: { ...config.ios, buildNumber: '57' },
          android: { ...config.android, versionCode: 57 },
        });

        """),
        ("app.config.js", """
        const pkg = require("./package.json")
        const VERSION = pkg.version

        module.exports = {
          version: VERSION,
          ios: { buildNumber: "57" },
          android: { versionCode: 57 },
        }

        """),
    ]

    func expoApp(_ index: Int, eas: String? = nil) throws -> TestRepository {
        let repo = try TestRepository()
        try repo.write("package.json", Self.packageJSON)
        try repo.write(Self.configs[index].name, Self.configs[index].text)
        if let eas { try repo.write("eas.json", eas) }
        try repo.commitAll("chore: the app")
        return repo
    }

    @Test(arguments: 0..<4)
    func theVersionInPackageJSONAndTheBuildsInTheConfig(_ index: Int) throws {
        let repo = try expoApp(index)
        let name = Self.configs[index].name
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        #expect(initResult.stdout == CurrentCommand.pad(name, 44) + " expo-js    version from package.json, iOS build 57, Android build 57\n"
            + CurrentCommand.pad("package.json", 44) + " json       version 2.7.1\n")
        #expect(!initResult.stderr.contains("move the version"), "\(initResult.stderr)")
        let current = relctl(["current"], in: repo.path)
        expectTranscript(["current"], current, matches: "init/expo-js-version-from-package-json-\(index)-\(name).txt", repo: repo)
        #expect(!current.stdout.contains("no version values found"))
        let sync = relctl(["sync", "2.8.0"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(try repo.read("package.json") == Self.packageJSON.replacingOccurrences(of: "2.7.1", with: "2.8.0"))
        #expect(try repo.read(name) == Self.configs[index].text.replacingOccurrences(of: "57", with: "58"))
    }

    @Test func withoutThePackageEntrySyncNamesTheEntryToAdd() throws {
        let repo = try expoApp(0)
        try repo.write(".relctl.json", "{\"files\": [{\"path\": \"app.config.ts\", \"format\": \"expo-js\"}]}\n")
        let sync = relctl(["sync", "2.8.0"], in: repo.path)
        #expect(sync.code == 1)
        #expect(sync.stderr == "error: app.config.ts:7: version is the version of package.json (pkg.version), which no files entry covers (add {\"path\": \"package.json\", \"format\": \"json\"})\n", "\(sync.stderr)")
        // Following the advice.
        try repo.write(".relctl.json", "{\"files\": [{\"path\": \"app.config.ts\", \"format\": \"expo-js\"}, {\"path\": \"package.json\", \"format\": \"json\"}]}\n")
        let package = try repo.read("package.json")
        #expect(relctl(["sync", "2.8.0"], in: repo.path).code == 0)
        #expect(try repo.read("package.json") == package.replacingOccurrences(of: "\"version\": \"2.7.1\"", with: "\"version\": \"2.8.0\""))
        #expect(try repo.read("package.json") != package)
    }

    @Test func aConfigHoldingNoVersionIsAnErrorForCurrent() throws {
        let repo = try TestRepository()
        try repo.write("app.config.js", "export default ({ config }) => ({ ...config, name: 'Acme' });\n")
        try repo.write(".relctl.json", "{\"files\": [{\"path\": \"app.config.js\", \"format\": \"expo-js\"}]}\n")
        try repo.commitAll("chore: the app")
        let current = relctl(["current"], in: repo.path)
        #expect(current.code == 1)
        #expect(current.stdout == "app.config.js (expo-js)\n  (no version values found)\n")
        #expect(current.stderr == "error: app.config.js: no version value found in this expo-js file; write version:, ios.buildNumber and android.versionCode there (literals, or version: pkg.version with package.json listed too), or mark the line holding the literal with // relctl-version\n")
    }

    @Test func remoteAppVersionSourceKeepsTheBuildNumbers() throws {
        let repo = try expoApp(0, eas: "{\n  \"cli\": { \"version\": \">= 12.0.0\", \"appVersionSource\": \"remote\" },\n  \"build\": { \"production\": { \"autoIncrement\": true } }\n}\n")
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        let config = try configObject(repo.read(".relctl.json"))
        #expect((config["buildNumber"] as? [String: Any])?["strategy"] as? String == "keep")
        expectTranscript(["init"], initResult, matches: "init/eas-remote-app-version-source.txt", repo: repo)
        #expect(!initResult.stderr.contains("warning"))
        // A release moves the version and leaves the build numbers to EAS.
        let sync = relctl(["sync", "2.8.0"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(try repo.read("app.config.ts") == Self.configs[0].text)
    }

    @Test func aLocalSourceWithAutoIncrementWarnsAndTheAdviceWorks() throws {
        let eas = "{\n  \"build\": {\n    \"preview\": {},\n    \"production\": { \"autoIncrement\": true }\n  }\n}\n"
        let repo = try expoApp(0, eas: eas)
        let initResult = relctl(["init"], in: repo.path)
        expectTranscript(["init"], initResult, matches: "init/eas-local-source-with-auto-increment.txt", repo: repo)
        #expect((try configObject(repo.read(".relctl.json"))["buildNumber"] as? [String: Any])?["strategy"] as? String == "increment")
        // Following the advice: the remote source, then init keeps the build numbers and warns no more.
        try repo.write("eas.json", "{\n  \"cli\": { \"appVersionSource\": \"remote\" },\n  \"build\": { \"production\": { \"autoIncrement\": true } }\n}\n")
        try FileManager.default.removeItem(atPath: repo.path + "/.relctl.json")
        let again = relctl(["init"], in: repo.path)
        #expect(!again.stderr.contains("warning"), "\(again.stderr)")
        #expect((try configObject(repo.read(".relctl.json"))["buildNumber"] as? [String: Any])?["strategy"] as? String == "keep")
    }
}

@Suite("init: other files holding the version")
struct InitOtherPlacesTests {
    static let versionXML = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n    <string name=\"app_version\" translatable=\"false\">4.1.2</string>\n</resources>\n"
    static let rootPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    	<key>PreferenceSpecifiers</key>
    	<array>
    		<dict>
    			<key>Type</key>
    			<string>PSTitleValueSpecifier</string>
    			<key>DefaultValue</key>
    			<string>4.1.2</string>
    		</dict>
    	</array>
    </dict>
    </plist>

    """

    func app() throws -> TestRepository {
        let repo = try TestRepository()
        try repo.write("settings.gradle.kts", settingsKts)
        try repo.write("app/build.gradle.kts", "android {\n    defaultConfig {\n        versionCode = 412\n        versionName = \"4.1.2\"\n    }\n}\n")
        try repo.write("app/src/main/res/values/version.xml", Self.versionXML)
        try repo.write("app/version/version.properties", "versionName=4.1.2\nversionCode=412\n")
        try repo.write("fdroid.properties", "# F-Droid\nCurrentVersion=4.1.2\nCurrentVersionCode=412\n")
        try repo.write("Settings.bundle/Root.plist", Self.rootPlist)
        try repo.write("packaging/trail.desktop", "[Desktop Entry]\nName=Trail\nX-AppVersion=4.1.2\n")
        try repo.write("packaging/trail.iss", "[Setup]\nAppVersion=4.1.2\nOutputBaseFilename=trail-4.1.2-setup\n")
        // Not places of the version: history, a dependency, a longer number, an untracked file, node_modules.
        try repo.write("CHANGELOG.md", "## 4.1.2\n- fixes\n")
        try repo.write("app/deps.gradle", "implementation(\"com.example:lib:4.1.20\")\nlegacy = \"14.1.2\"\n")
        try repo.write("node_modules/x/package.json", "{\"version\": \"4.1.2\"}\n")
        try repo.commitAll("chore: the app")
        try repo.write("notes.properties", "version=4.1.2\n")
        return repo
    }

    @Test func knownFormatsAreAddedTheRestNamedWithAPatternThatWorks() throws {
        let repo = try app()
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        #expect(try entries(repo.read(".relctl.json")) == [
            #"{"format":"gradle","path":"app\/build.gradle.kts"}"#,
            #"{"format":"properties","path":"app\/version\/version.properties","versionCodeKey":"versionCode","versionNameKey":"versionName"}"#,
            #"{"format":"properties","path":"fdroid.properties","versionCodeKey":"CurrentVersionCode","versionNameKey":"CurrentVersion"}"#,
        ])
        let lines = initResult.stderr.split(separator: "\n").map(String.init)
        let named = lines.filter { $0.hasPrefix("  ") && $0.contains(":") && !$0.hasPrefix("  1.") && !$0.dropFirst(2).first!.isNumber }
        #expect(lines.filter { $0.hasPrefix("note: other files hold") } == ["note: other files hold 4.1.2 and are not in 'files'; if sync should write them, add the entry shown to 'files' in .relctl.json:"], "\(initResult.stderr)")
        #expect(named == [
            #"  Settings.bundle/Root.plist:11  {"path": "Settings.bundle/Root.plist", "format": "regex", "pattern": "^[ \\t]*<string>(?<version>[0-9]+(?:\\.[0-9]+)+(?:-[0-9A-Za-z.]+)?)</string>"}"#,
            #"  app/src/main/res/values/version.xml:3  {"path": "app/src/main/res/values/version.xml", "format": "regex", "pattern": "^[ \\t]*<string name=\"app_version\" translatable=\"false\">(?<version>[0-9]+(?:\\.[0-9]+)+(?:-[0-9A-Za-z.]+)?)</string>"}"#,
            #"  packaging/trail.desktop:3  {"path": "packaging/trail.desktop", "format": "regex", "pattern": "^[ \\t]*X-AppVersion=(?<version>[0-9]+(?:\\.[0-9]+)+(?:-[0-9A-Za-z.]+)?)"}"#,
            #"  packaging/trail.iss:2  {"path": "packaging/trail.iss", "format": "regex", "pattern": "^[ \\t]*AppVersion=(?<version>[0-9]+(?:\\.[0-9]+)+(?:-[0-9A-Za-z.]+)?)"} (line 3 holds it too; this entry leaves it as it is)"#,
        ], "\(initResult.stderr)")

        // Pasting each suggestion into 'files' works: current agrees, sync writes every place.
        var config = try repo.read(".relctl.json")
        let pasted = named.map { line -> String in
            let entry = line[line.range(of: "{")!.lowerBound...]
            return String(entry[...entry.range(of: "}", options: .backwards)!.lowerBound])
        }
        config = config.replacingOccurrences(of: "  ],\n  \"buildNumber\"", with: "  ,\n" + pasted.joined(separator: ",\n") + "\n  ],\n  \"buildNumber\"")
            .replacingOccurrences(of: "}\n  ,\n", with: "},\n")
        try repo.write(".relctl.json", config)
        let current = relctl(["current"], in: repo.path)
        #expect(current.code == 0, "\(config)\n\(current.stdout)\(current.stderr)")
        let sync = relctl(["sync", "4.2.0"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(try repo.read("app/src/main/res/values/version.xml") == Self.versionXML.replacingOccurrences(of: ">4.1.2<", with: ">4.2.0<"))
        #expect(try repo.read("Settings.bundle/Root.plist") == Self.rootPlist.replacingOccurrences(of: "4.1.2", with: "4.2.0"))
        #expect(try repo.read("packaging/trail.desktop") == "[Desktop Entry]\nName=Trail\nX-AppVersion=4.2.0\n")
        #expect(try repo.read("packaging/trail.iss") == "[Setup]\nAppVersion=4.2.0\nOutputBaseFilename=trail-4.1.2-setup\n")
        #expect(try repo.read("fdroid.properties") == "# F-Droid\nCurrentVersion=4.2.0\nCurrentVersionCode=413\n")
        #expect(try repo.read("app/deps.gradle") == "implementation(\"com.example:lib:4.1.20\")\nlegacy = \"14.1.2\"\n")
        #expect(try repo.read("CHANGELOG.md") == "## 4.1.2\n- fixes\n")
    }
}

@Suite("adopt judges the application target")
struct AdoptApplicationTargetTests {
    @Test func aListedXcconfigNoTargetReadsDoesNotStopAdopt() throws {
        let repo = try TestRepository()
        try repo.write("ios/Trail.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "Trail", targets: [
            T("Trail", T.application, ["INFOPLIST_FILE": "Trail/Info.plist", "MARKETING_VERSION": "2.43.0", "CURRENT_PROJECT_VERSION": "90"]),
        ]).text)
        try repo.write("ios/Trail/Info.plist", infoPlist(marketing: "$(MARKETING_VERSION)", build: "$(CURRENT_PROJECT_VERSION)"))
        // A leftover xcconfig no target is based on, still at Xcode's 1.0.
        try repo.write("ios/Config/Old.xcconfig", "MARKETING_VERSION = 1.0\n")
        try repo.write(".relctl.json", "{\"files\": [{\"path\": \"ios/Trail.xcodeproj/project.pbxproj\", \"format\": \"pbxproj\"}, {\"path\": \"ios/Config/Old.xcconfig\", \"format\": \"xcconfig\"}]}\n")
        try repo.commitAll("chore: the app at 2.43.0")
        let adopt = relctl(["adopt", "--dry-run"], in: repo.path)
        #expect(adopt.code == 0, "\(adopt.stderr)")
        #expect(adopt.stdout.hasPrefix("relctl adopt --dry-run: nothing will be changed\n\nversion:  2.43.0 (every version file holds it; no release tag is reachable from HEAD)\n"), "\(adopt.stdout)")
    }
}
