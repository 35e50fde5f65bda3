import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// A Flutter app that is not at the repository root: a Dart workspace at the root, the app in `app/`, its packages
// (a library, a plugin with its example app) in `packages/`.

@Suite("Flutter monorepo: init finds the app below the root")
struct FlutterMonorepoTests {
    func monorepo(apps: [String] = ["app"]) throws -> TestRepository {
        let repo = try TestRepository()
        try repo.write("pubspec.yaml", "name: _beam_workspace\npublish_to: none\n\nenvironment:\n  sdk: ^3.6.0\n\nworkspace:\n"
                       + apps.map { "  - \($0)\n" }.joined() + "  - packages/beam_core\n  - packages/beam_share\n")
        for (i, app) in apps.enumerated() {
            try repo.write("\(app)/pubspec.yaml", "name: beam_\(i)\ndescription: Send files nearby.\npublish_to: \"none\"\nresolution: workspace\n\nversion: 1.6.\(i)+3\(i)\n\ndependencies:\n  flutter:\n    sdk: flutter\n")
            try repo.write("\(app)/ios/Runner.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "Runner", targets: [
                T("Runner", T.application, ["CURRENT_PROJECT_VERSION": "$(FLUTTER_BUILD_NUMBER)",
                                            "MARKETING_VERSION": "$(FLUTTER_BUILD_NAME)", "INFOPLIST_FILE": "Runner/Info.plist"]),
            ]).text)
            try repo.write("\(app)/ios/Runner/Info.plist", infoPlist(marketing: "$(FLUTTER_BUILD_NAME)", build: "$(FLUTTER_BUILD_NUMBER)"))
            try repo.write("\(app)/android/app/build.gradle", "android {\n    defaultConfig {\n        versionCode flutter.versionCode\n        versionName flutter.versionName\n    }\n}\n")
        }
        try repo.write("packages/beam_core/pubspec.yaml", "name: beam_core\nversion: 0.4.0\nresolution: workspace\n")
        // A plugin: platform code, but no app project; its example app is one folder further down.
        try repo.write("packages/beam_share/pubspec.yaml", "name: beam_share\nversion: 0.2.1\n\ndependencies:\n  flutter:\n    sdk: flutter\n\nflutter:\n  plugin:\n    platforms:\n      ios:\n        pluginClass: BeamSharePlugin\n")
        try repo.write("packages/beam_share/ios/Classes/BeamSharePlugin.swift", "import Flutter\n")
        try repo.write("packages/beam_share/android/src/main/AndroidManifest.xml", "<manifest/>\n")
        try repo.write("packages/beam_share/example/pubspec.yaml", "name: example\nversion: 1.0.0+1\n\ndependencies:\n  flutter:\n    sdk: flutter\n")
        try repo.write("packages/beam_share/example/android/app/build.gradle", "android {\n}\n")
        try repo.commitAll("chore: the workspace")
        return repo
    }

    @Test func initFindsTheAppsPubspecAndSyncWritesIt() throws {
        let repo = try monorepo()
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        // pubspec.yaml stands for the Runner project and the Gradle file that read it (flutter build sets them).
        #expect(initResult.stdout == "app/pubspec.yaml                             pubspec    version 1.6.0, build 30\n", "\(initResult.stdout)")
        let config = try repo.read(".relctl.json")
        Golden.expect(config, matches: "init/flutter-workspace-app.relctl.json")
        #expect(!config.contains("packages/") && !config.contains("\"pubspec.yaml\""), "\(config)")

        let current = relctl(["current"], in: repo.path)
        #expect(current.code == 0, "\(current.stderr)")
        #expect(current.stdout == "app/pubspec.yaml (pubspec)\n  marketing      1.6.0        line 6\n  shared build   30           line 6\n", "\(current.stdout)")

        let sync = relctl(["sync", "1.7.0"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        // Only the app's pubspec changed (version: 1.7.0+31); the package and the workspace root are as they were.
        #expect(try repo.git(["status", "--porcelain"]) == " M app/pubspec.yaml\n?? .relctl.json\n")
        let diff = try repo.git(["diff", "--", "app/pubspec.yaml", "packages/beam_core/pubspec.yaml", "pubspec.yaml"])
        Golden.expect(diff, matches: "sync/flutter-workspace-app.diff")
    }

    /// Several apps in the Dart workspace are not guessed between: each is a project of its own (issue 19).
    @Test func severalAppsAreProjectsNotGuessed() throws {
        let repo = try monorepo(apps: ["apps/phone", "apps/kiosk"])
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        #expect(initResult.stdout == """
        project phone (Flutter app) in apps/phone, tagFormat phone-v{version}
          apps/phone/pubspec.yaml                      pubspec    version 1.6.0, build 30
        project kiosk (Flutter app) in apps/kiosk, tagFormat kiosk-v{version}
          apps/kiosk/pubspec.yaml                      pubspec    version 1.6.1, build 31

        """, "\(initResult.stdout)")
        #expect(initResult.stderr.hasPrefix("""
        note: found 2 projects (pubspec.yaml workspace): each with its own version, tags, build numbers and changelog
        note: left out pubspec.yaml: the Dart workspace root, not an app
        note: left out packages/beam_core: a library or tooling package (no app.json/app.config, no android/app or ios/*.xcodeproj, not a Flutter app) that no app depends on
        note: left out packages/beam_share: a library or tooling package (no app.json/app.config, no android/app or ios/*.xcodeproj, not a Flutter app) that no app depends on

        """), "\(initResult.stderr)")
    }

    @Test func aRootPubspecWithAVersionIsTheAppAsBefore() throws {
        let repo = try monorepo()
        try repo.write("pubspec.yaml", "name: beam\nversion: 2.0.0+200\n\ndependencies:\n  flutter:\n    sdk: flutter\n")
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        let config = try repo.read(".relctl.json")
        Golden.expect(config, matches: "init/flutter-root-pubspec-with-a-version.relctl.json")
        #expect(!config.contains("app/pubspec.yaml"), "\(config)")
    }
}
