import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// Which Xcode values stand for the app: a build setting no target reads (its Info.plist literal wins) is no
// version at all, and an extension left at Xcode's `1.0` is drift to repair, never a floor the app must stay above.

@Suite("Xcode: settings no target reads, extensions above the app")
struct XcodeTargetUseTests {
    /// A bare React Native app whose share extension was created with `GENERATE_INFOPLIST_FILE` and Xcode's
    /// `MARKETING_VERSION = <dead>`, while its Info.plist (which wins) holds the app's version.
    func reactNativeApp(deadMarketing: String) throws -> TestRepository {
        let repo = try TestRepository()
        try repo.write("package.json", "{\n  \"name\": \"courier\",\n  \"version\": \"3.3.0\"\n}\n")
        try repo.write("android/app/build.gradle", "android {\n    defaultConfig {\n        versionCode 51\n        versionName \"3.3.0\"\n    }\n}\n")
        try repo.write("ios/Courier.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "Courier", targets: [
            T("Courier", T.application, ["INFOPLIST_FILE": "Courier/Info.plist", "CURRENT_PROJECT_VERSION": "51"]),
            T("CourierShare", T.appExtension, ["INFOPLIST_FILE": "CourierShare/Info.plist", "GENERATE_INFOPLIST_FILE": "YES",
                                               "MARKETING_VERSION": deadMarketing, "CURRENT_PROJECT_VERSION": "51"]),
        ]).text)
        try repo.write("ios/Courier/Info.plist", infoPlist(marketing: "3.3.0", build: "$(CURRENT_PROJECT_VERSION)"))
        try repo.write("ios/CourierShare/Info.plist", infoPlist(marketing: "3.3.0", build: "51", extensionPoint: "com.apple.share-services"))
        try repo.commitAll("chore: the app at 3.3.0")
        // The version the stores have is set in its own commit; later commits leave it.
        for path in ["package.json", "android/app/build.gradle", "ios/Courier/Info.plist", "ios/CourierShare/Info.plist"] {
            try repo.write(path, try repo.read(path).replacingOccurrences(of: "3.3.0", with: "3.4.0"))
        }
        try repo.commitAll("chore: version 3.4.0")
        try repo.commit("fix: share sheet title")
        return repo
    }

    @Test(arguments: ["1.0", "9.0"])
    func aSettingNoTargetReadsIsNeitherDriftNorAFloor(deadMarketing: String) throws {
        let repo = try reactNativeApp(deadMarketing: deadMarketing)
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        #expect(!initResult.stderr.contains("disagree"), "\(initResult.stderr)")

        // The dead setting is shown as not used, the targets where they read their version; no drift.
        let current = relctl(["current"], in: repo.path)
        let json = relctl(["current", "--json"], in: repo.path)
        #expect(!json.stdout.contains(#""marketing":{"value":"\#(deadMarketing)""#), "\(json.stdout)")

        // adopt tags the version the app has, on the commit that set it.
        let setIt = try repo.git(["rev-parse", "--short=12", "HEAD~1"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let adopt = relctl(["adopt", "--dry-run"], in: repo.path)
        expectTranscript([(["init"], initResult), (["current"], current), (["current", "--json"], json), (["adopt", "--dry-run"], adopt)],
                         matches: "xcode-targets/dead-marketing-\(deadMarketing).txt", repo: repo)
        #expect(adopt.stdout.split(separator: "\n").first { $0.hasPrefix("tag:      ") }?.hasPrefix("tag:      v3.4.0 (annotated) on \(setIt)") == true, "\(adopt.stdout)")

        // A sync is measured against the app's 3.4.0, not the dead value, and keeps that value in step.
        let shareBefore = try repo.read("ios/CourierShare/Info.plist")
        let sync = relctl(["sync", "3.5.0"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        let pbxproj = try repo.read("ios/Courier.xcodeproj/project.pbxproj")
        #expect(pbxproj.components(separatedBy: "MARKETING_VERSION = 3.5.0;").count == 3, "\(pbxproj)")
        #expect(try repo.read("ios/CourierShare/Info.plist") == shareBefore.replacingOccurrences(of: "<string>3.4.0</string>", with: "<string>3.5.0</string>")
            .replacingOccurrences(of: "<string>51</string>", with: "<string>52</string>"))
        #expect(relctl(["current"], in: repo.path).code == 0)
    }

    /// A Flutter app still at 0.x whose widget extension kept Xcode's `1.0` / `1`, added after the version was set.
    func flutterAppWithStaleWidget(tagged: Bool) throws -> TestRepository {
        let repo = try TestRepository()
        let project = { (widget: Bool) in
            XcodeFixtureProject(name: "Runner", targets: [
                T("Runner", T.application, ["CURRENT_PROJECT_VERSION": "$(FLUTTER_BUILD_NUMBER)",
                                            "MARKETING_VERSION": "$(FLUTTER_BUILD_NAME)", "INFOPLIST_FILE": "Runner/Info.plist"]),
            ] + (widget ? [T("ScoresWidgetExtension", T.appExtension, ["CURRENT_PROJECT_VERSION": "1", "MARKETING_VERSION": "1.0",
                                                                         "INFOPLIST_FILE": "ScoresWidget/Info.plist"])] : [])).text
        }
        try repo.write("pubspec.yaml", "name: scores\npublish_to: 'none'\nversion: 0.9.2+000902\n")
        try repo.write("ios/Runner.xcodeproj/project.pbxproj", project(false))
        try repo.write("ios/Runner/Info.plist", infoPlist(marketing: "$(FLUTTER_BUILD_NAME)", build: "$(FLUTTER_BUILD_NUMBER)"))
        try repo.commitAll("chore: scores app")
        try repo.write("pubspec.yaml", "name: scores\npublish_to: 'none'\nversion: 0.9.3+000903\n")
        try repo.commitAll("chore: version 0.9.3")
        if tagged { try repo.tag("v0.9.3") }
        try repo.write("ios/Runner.xcodeproj/project.pbxproj", project(true))
        try repo.write("ios/ScoresWidget/Info.plist", infoPlist(marketing: "$(MARKETING_VERSION)", build: "$(CURRENT_PROJECT_VERSION)",
                                                                extensionPoint: "com.apple.widgetkit-extension"))
        try repo.commitAll("feat: home screen widget")
        return repo
    }

    @Test func anExtensionAboveTheAppIsRepairedBySyncAndReleaseNotRefused() throws {
        let repo = try flutterAppWithStaleWidget(tagged: true)
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        // The app target agrees with pubspec.yaml: not "the files disagree", but the widget's drift is named.
        #expect(!initResult.stderr.contains("the files disagree"), "\(initResult.stderr)")
        expectTranscript(["init"], initResult, matches: "xcode-targets/extension-above-the-app-init.txt", repo: repo)
        #expect(relctl(["current"], in: repo.path).code == 2)
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.commitAll("chore: relctl config")

        let release = relctl(["release", "--dry-run"], in: repo.path, environment: repo.goldenEnvironment())
        expectTranscript(["release", "--dry-run"], release, matches: "xcode-targets/extension-above-the-app-release--dry-run.txt", repo: repo)
        #expect(relctl(["next"], in: repo.path).stderr == "")

        let pbxprojBefore = try repo.read("ios/Runner.xcodeproj/project.pbxproj")
        let sync = relctl(["sync", "0.10.0"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(try repo.read("pubspec.yaml") == "name: scores\npublish_to: 'none'\nversion: 0.10.0+000904\n")
        let pbxproj = try repo.read("ios/Runner.xcodeproj/project.pbxproj")
        // The widget's stale 1.0 / 1 now follow the app, in every configuration.
        #expect(pbxproj == pbxprojBefore.replacingOccurrences(of: "MARKETING_VERSION = 1.0;", with: "MARKETING_VERSION = 0.10.0;")
            .replacingOccurrences(of: "CURRENT_PROJECT_VERSION = 1;", with: "CURRENT_PROJECT_VERSION = 904;"), "\(pbxproj)")
        #expect(relctl(["current"], in: repo.path).code == 0)
    }

    @Test func adoptFindsTheCommitThatSetTheAppsVersionNotTheOneThatAddedAnExtension() throws {
        let repo = try flutterAppWithStaleWidget(tagged: false)
        #expect(relctl(["init"], in: repo.path).code == 0)
        let setIt = try repo.git(["rev-parse", "--short=12", "HEAD~1"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let adopt = relctl(["adopt", "--dry-run"], in: repo.path)
        expectTranscript(["adopt", "--dry-run"], adopt, matches: "xcode-targets/adopt-finds-the-commit-that-set-the-version.txt", repo: repo)
        #expect(adopt.stdout.split(separator: "\n").first { $0.hasPrefix("tag:      ") } == "tag:      v0.9.3 (annotated) on \(setIt), the commit that set 0.9.3 in pubspec.yaml", "\(adopt.stdout)")
    }

}
