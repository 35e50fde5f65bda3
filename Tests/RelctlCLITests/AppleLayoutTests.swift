import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// End to end on Apple layouts: init → current → sync --dry-run → sync → current, in real git repositories.

@Suite("Apple layouts: init, current, sync")
struct AppleLayoutTests {
    @Test(arguments: AppleAppShape.allCases)
    func initCurrentSyncOnEveryLayout(shape: AppleAppShape) throws {
        let repo = try shape.make()
        let (old, new, build, _) = shape.version

        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        let entries = shape.detected.map { entry in
            "    {\n      \"path\": \"\(entry.path)\",\n      \"format\": \"\(entry.format)\"" + (entry.options.isEmpty ? "" : ",\n      " + entry.options) + "\n    }"
        }
        #expect(try repo.read(".relctl.json") == "{\n  \"tagFormat\": \"v{version}\",\n  \"files\": [\n" + entries.joined(separator: ",\n")
                + "\n  ],\n  \"buildNumber\": {\n    \"strategy\": \"increment\",\n    \"shared\": true\n  }\n}\n")
        #expect(!initResult.stderr.contains("warning:"), "\(initResult.stderr)")

        // What init writes, current accepts: no drift, and every target shown where its version lives.
        let current = relctl(["current"], in: repo.path)
        #expect(!current.stdout.contains("not in 'files'") && !current.stdout.contains("not set"), "\(current.stdout)")

        // The dry run changes no byte and names what it would write.
        let snapshot = try repo.snapshot()
        let dryRun = relctl(["sync", new, "--dry-run"], in: repo.path)
        #expect(try repo.snapshot() == snapshot)

        let sync = relctl(["sync", new], in: repo.path)
        #expect(try shape.checkSynced(repo) == [])

        let after = relctl(["current", "--json"], in: repo.path)
        #expect(!after.stdout.contains("\"value\":\"\(old)\"") && !after.stdout.contains("\"value\":\"\(build)\""), "\(after.stdout)")
        // Messages for an app without Android never mention it.
        if !shape.detected.contains(where: { $0.format == "gradle" || $0.format == "pubspec" }) {
            for text in [initResult.stderr, initResult.stdout, sync.stderr, dryRun.stderr, current.stdout] {
                #expect(!text.contains("Android"), "\(text)")
            }
        }
        // A second sync of the same version changes nothing.
        let again = relctl(["sync", new], in: repo.path)
        // init's notes (the files it left out), every target where its version lives, the diff of the dry run, the
        // sync, the versions after it, and a second sync with nothing to write.
        expectTranscript([(["init"], initResult), (["current"], current), (["sync", new, "--dry-run"], dryRun), (["sync", new], sync),
                          (["current", "--json"], after), (["sync", new], again)],
                         matches: "apple/init-current-sync-\(shape).txt", repo: repo)
    }

    @Test func currentJSONReportsEveryTargetOfAProject() throws {
        let repo = try AppleAppShape.reactNativeExtensions.make()
        #expect(relctl(["init"], in: repo.path).code == 0)
        let json = relctl(["current", "--json"], in: repo.path)
        #expect(json.code == 0, "\(json.stderr)")
        let pbxproj = try repo.read("ios/Pantry.xcodeproj/project.pbxproj")
        // The app's Release build number: the first CURRENT_PROJECT_VERSION after the end of the app's Debug
        // configuration (the project's own Debug configuration comes first), counted in the whole file.
        let projectDebug = try #require(pbxproj.range(of: "name = Debug;"))
        let appDebugEnd = try #require(pbxproj.range(of: "name = Debug;", range: projectDebug.upperBound..<pbxproj.endIndex)).upperBound
        let releaseSetting = try #require(pbxproj.range(of: "CURRENT_PROJECT_VERSION = 31", range: appDebugEnd..<pbxproj.endIndex))
        let buildLine = pbxproj[..<releaseSetting.lowerBound].filter { $0 == "\n" }.count + 1
        // Every target but the test bundle, each with its Release values and where they live.
        expectTranscript(["current", "--json"], json, matches: "apple/current--json-every-target.txt", repo: repo)
        #expect(!json.stdout.contains("PantryTests"))
        // The line the transcript holds for the app's build number is the one counted in the project file.
        #expect(json.stdout.components(separatedBy: #"{"name":"Pantry","productType":"com.apple.product-type.application","configuration":"Release","marketing":{"value":"2.4.0","path":"ios/Pantry/Info.plist","line":10,"setting":"CFBundleShortVersionString","indirection":null},"iosBuild":{"value":"31","path":"ios/Pantry.xcodeproj/project.pbxproj","line":\#(buildLine),"#).count == 2, "\(json.stdout)")
    }

    @Test func anExtensionBehindTheAppIsDriftThatSyncRepairs() throws {
        let repo = try AppleAppShape.reactNativeExtensions.make()
        try repo.write("ios/NotificationService/Info.plist",
                       infoPlist(marketing: "2.3.0", build: "30", extensionPoint: "com.apple.usernotifications.service"))
        let initResult = relctl(["init"], in: repo.path)
        // Found and kept in step; the app target agrees with the other files, so init names the extension's drift
        // without calling the app's files in disagreement.
        #expect(!initResult.stderr.contains("the files disagree"), "\(initResult.stderr)")
        let current = relctl(["current"], in: repo.path)
        expectTranscript([(["init"], initResult), (["current"], current)], matches: "apple/extension-behind-the-app.txt", repo: repo,
                         sections: [(".relctl.json", try repo.read(".relctl.json"))])
        #expect(relctl(["sync", "2.5.0"], in: repo.path).code == 0)
        #expect(relctl(["current"], in: repo.path).code == 0)
        #expect(try repo.read("ios/NotificationService/Info.plist")
                == infoPlist(marketing: "2.5.0", build: "32", extensionPoint: "com.apple.usernotifications.service"))
    }

    @Test func aTargetWhoseFileIsNotListedIsDriftAndSyncNamesTheFileToAdd() throws {
        let repo = try AppleAppShape.reactNativeExtensions.make()
        try repo.write("ios/ShareExtension/Info.plist", infoPlist(marketing: "1.0", build: "1", extensionPoint: "com.apple.share-services"))
        try writeConfig(repo, files: [("package.json", "json"), ("ios/Pantry.xcodeproj/project.pbxproj", "pbxproj"),
                                      ("ios/Pantry/Info.plist", "plist")])
        let current = relctl(["current"], in: repo.path)
        expectTranscript(["current"], current, matches: "apple/target-file-not-listed.txt", repo: repo)
        let snapshot = try repo.snapshot()
        let sync = relctl(["sync", "2.5.0"], in: repo.path)
        #expect(sync.code == 1)
        #expect(sync.stderr == "error: ios/ShareExtension/Info.plist:10: holds CFBundleShortVersionString 1.0 for target ShareExtension of ios/Pantry.xcodeproj/project.pbxproj, but no files entry writes it (add {\"path\": \"ios/ShareExtension/Info.plist\", \"format\": \"plist\"} to 'files', or leave the target out with \"targets\")\n")
        #expect(try repo.snapshot() == snapshot)
    }

    @Test func aVersionInAnUnlistedXcconfigNamesTheFileAndItsIncludes() throws {
        let repo = try AppleAppShape.includedXcconfig.make()
        try writeConfig(repo, files: [("ios/Ledger.xcodeproj/project.pbxproj", "pbxproj")])
        let current = relctl(["current"], in: repo.path)
        expectTranscript(["current"], current, matches: "apple/unlisted-included-xcconfig.txt", repo: repo)
        let sync = relctl(["sync", "3.2.0"], in: repo.path)
        #expect(sync.code == 1)
        #expect(sync.stderr == "error: ios/Config/Version.xcconfig:2: holds MARKETING_VERSION 3.1.0 for target Ledger of ios/Ledger.xcodeproj/project.pbxproj (included from ios/Config/Base.xcconfig ← ios/Config/Debug.xcconfig), but no files entry writes it (add {\"path\": \"ios/Config/Version.xcconfig\", \"format\": \"xcconfig\"} to 'files', or leave the target out with \"targets\")\n", "\(sync.stderr)")
    }

    @Test func aTargetWithNoVersionAnywhereIsRefusedWithTheTarget() throws {
        let repo = try TestRepository()
        try repo.write("App.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "App", targets: [
            T("App", T.application, ["MARKETING_VERSION": "1.0.0", "CURRENT_PROJECT_VERSION": "3"]),
            T("Clip", T.appExtension, ["INFOPLIST_FILE": "Clip/Info.plist"]),
        ]).text)
        try repo.write("Clip/Info.plist", infoPlist(marketing: "$(MARKETING_VERSION)", build: "$(CURRENT_PROJECT_VERSION)"))
        try writeConfig(repo, files: [("App.xcodeproj/project.pbxproj", "pbxproj")])
        expectTranscript(["current"], relctl(["current"], in: repo.path), matches: "apple/target-with-no-version.txt", repo: repo)
        let sync = relctl(["sync", "1.1.0"], in: repo.path)
        #expect(sync.code == 1)
        #expect(sync.stderr == "error: App.xcodeproj/project.pbxproj: MARKETING_VERSION is not set in target Clip, configuration Debug (set it in Xcode (Build Settings → Versioning) or leave the target out with \"targets\")\n", "\(sync.stderr)")
    }

    @Test func onlyBuildWritesTheBuildNumberAlone() throws {
        let repo = try AppleAppShape.includedXcconfig.make()
        try repo.write(".relctl.json", """
        {
          "files": [
            {"path": "ios/Ledger.xcodeproj/project.pbxproj", "format": "pbxproj", "only": "build"},
            {"path": "ios/Config/Build.xcconfig", "format": "xcconfig", "only": "build"}
          ]
        }

        """)
        let current = relctl(["current"], in: repo.path)
        expectTranscript(["current"], current, matches: "apple/only-build.txt", repo: repo)
        #expect(!current.stdout.contains("marketing"), "\(current.stdout)")
        let versionBefore = try repo.read("ios/Config/Version.xcconfig")
        let sync = relctl(["sync", "3.2.0"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(try repo.read("ios/Config/Build.xcconfig") == "CURRENT_PROJECT_VERSION = 413 // CI reads this\n")
        #expect(try repo.read("ios/Config/Version.xcconfig") == versionBefore)
    }

    @Test(arguments: [
        (#"{"path": "ios/Config/Build.xcconfig", "format": "xcconfig", "only": "version"}"#,
         #".relctl.json:3: 'files': only must be "build" or "marketing", found "version" ("only": "build" writes the build number alone, "only": "marketing" the version alone)"#),
        (#"{"path": "ios/Config/Build.xcconfig", "format": "xcconfig", "only": true}"#,
         #".relctl.json:3: 'files': only must be "build" or "marketing", found a boolean"#),
        (#"{"path": "package.json", "format": "json", "only": "build"}"#,
         #".relctl.json:3: 'files': option "only" does not apply to format json (allowed keys for json: field, format, keyPath, path)"#),
    ])
    func onlyIsValidated(entry: String, expected: String) throws {
        let repo = try AppleAppShape.includedXcconfig.make()
        try repo.write(".relctl.json", "{\n  \"files\": [\n    \(entry)\n  ]\n}\n")
        let result = relctl(["current"], in: repo.path)
        #expect(result.code == 1)
        #expect(result.stderr.hasPrefix("error: " + expected), "\(result.stderr)")
    }

    @Test func initNeverWritesAConfigItsCurrentReportsAsDrift() throws {
        // Every layout, and a React Native template whose package.json still says 0.0.1.
        for shape in AppleAppShape.allCases {
            let repo = try shape.make()
            #expect(relctl(["init"], in: repo.path).code == 0)
            #expect(relctl(["current"], in: repo.path).code == 0, "\(shape)")
        }
        let repo = try AppleAppShape.reactNativeExtensions.make()
        try repo.write("package.json", "{\n  \"name\": \"pantry\",\n  \"version\": \"0.0.1\",\n  \"private\": true\n}\n")
        let initResult = relctl(["init"], in: repo.path)
        expectTranscript(["init"], initResult, matches: "apple/init-leaves-out-a-template-package-json.txt", repo: repo)
        #expect(!(try repo.read(".relctl.json")).contains("\"package.json\""))
        #expect(relctl(["current"], in: repo.path).code == 0)
    }

    @Test func aWatchAppBehindTheAppIsKeptAndShownAsDrift() throws {
        let repo = try AppleAppShape.rootProjectWatchApp.make()
        let text = try repo.read("Stride.xcodeproj/project.pbxproj")
        // The watch extension's Release configuration still says 5.1.0.
        let parts = text.components(separatedBy: "MARKETING_VERSION = 5.2.0;")
        let older = parts.enumerated().map { $0.offset == 0 ? $0.element : ($0.offset == 6 ? "MARKETING_VERSION = 5.1.0;" : "MARKETING_VERSION = 5.2.0;") + $0.element }.joined()
        try repo.write("Stride.xcodeproj/project.pbxproj", older)
        #expect(relctl(["init"], in: repo.path).code == 0)
        let current = relctl(["current"], in: repo.path)
        expectTranscript(["current"], current, matches: "apple/watch-app-behind-the-app.txt", repo: repo)
        #expect(relctl(["sync", "5.3.0"], in: repo.path).code == 0)
        #expect(relctl(["current"], in: repo.path).code == 0)
        #expect(!(try repo.read("Stride.xcodeproj/project.pbxproj")).contains("5.1.0"))
    }

    @Test func aRegexDisplayStringCarriesTheBuildAndAnXYZPatternGetsTheCore() throws {
        let repo = try TestRepository()
        try repo.write("package.json", "{\n  \"name\": \"site\",\n  \"version\": \"4.1.0\"\n}\n")
        try repo.write("About.md", "# About\n\nVersion 4.1.0 (72), built by CI.\n")
        try repo.write("Sources/Version.swift", "enum AppVersion {\n    static let current = \"4.1.0\"\n}\n")
        try repo.write(".relctl.json", """
        {
          "files": [
            {"path": "package.json", "format": "json"},
            {"path": "About.md", "format": "regex", "pattern": "Version (?<version>[0-9]+\\\\.[0-9]+\\\\.[0-9]+) \\\\((?<build>[0-9]+)\\\\)"},
            {"path": "Sources/Version.swift", "format": "regex", "pattern": "static let current = \\"(?<version>[0-9.]+)\\""}
          ]
        }

        """)
        let current = relctl(["current"], in: repo.path)
        expectTranscript(["current"], current, matches: "apple/regex-display-string.txt", repo: repo)
        for (version, build) in [("4.2.0-beta.1", "73"), ("4.2.0-beta.2", "74"), ("4.2.0", "75")] {
            let sync = relctl(["sync", version], in: repo.path)
            #expect(sync.code == 0, "\(version): \(sync.stderr)")
            #expect(!sync.stderr.contains("warning"), "\(sync.stderr)")
            #expect(try repo.read("About.md") == "# About\n\nVersion \(version.prefix(5)) (\(build)), built by CI.\n")
            #expect(try repo.read("Sources/Version.swift") == "enum AppVersion {\n    static let current = \"4.2.0\"\n}\n")
            #expect(try repo.read("package.json") == "{\n  \"name\": \"site\",\n  \"version\": \"\(version)\"\n}\n")
            #expect(relctl(["current"], in: repo.path).code == 0)
        }
    }
}

@Suite("init: conditional xcconfig settings")
struct InitConditionalXcconfigTests {
    @Test func initLeavesOutAnXcconfigSyncRefusesAndSyncSucceeds() throws {
        let repo = try TestRepository()
        try repo.write("ios/App.xcodeproj/project.pbxproj", pbxproj(marketing: "1.2.0", build: "12"))
        try repo.write("ios/Config/Release.xcconfig", "MARKETING_VERSION = 1.2.0\nMARKETING_VERSION[sdk=macosx*] = 1.2.0\n")
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        let config = try repo.read(".relctl.json")
        #expect(config == "{\n  \"tagFormat\": \"v{version}\",\n  \"files\": [\n    {\n      \"path\": \"ios/App.xcodeproj/project.pbxproj\",\n      \"format\": \"pbxproj\"\n    }\n  ],\n  \"buildNumber\": {\n    \"strategy\": \"increment\",\n    \"shared\": true\n  }\n}\n", "\(config)")
        let sync = relctl(["sync", "1.3.0"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(try repo.read("ios/App.xcodeproj/project.pbxproj") == pbxproj(marketing: "1.3.0", build: "13"))
        // The refused file is left alone.
        #expect(try repo.read("ios/Config/Release.xcconfig") == "MARKETING_VERSION = 1.2.0\nMARKETING_VERSION[sdk=macosx*] = 1.2.0\n")
    }
}
