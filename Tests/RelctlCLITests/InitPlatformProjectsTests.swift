import Foundation
import Testing
import RelctlTestSupport

// `relctl init` on a Kotlin Multiplatform repository whose iOS and Android apps are released apart (Droidcon's
// shape: iOS 6.1.7 build 60107, Android 1.0.3 versionCode 10003): one project per platform, and build numbers
// derived from the version (`fromVersion`) when every one the files hold is. Each case follows init's advice.

private func kmpApp(ios: String, iosBuild: String, android: String, versionCode: String) throws -> TestRepository {
    let repo = try TestRepository()
    try repo.write("settings.gradle.kts", "rootProject.name = \"Droidcon\"\ninclude(\":androidApp\")\ninclude(\":shared\")\n")
    try repo.write("androidApp/build.gradle.kts", """
    plugins {
        id("com.android.application")
    }

    android {
        defaultConfig {
            applicationId = "co.touchlab.droidcon"
            versionCode = \(versionCode)
            versionName = "\(android)"
        }
    }

    """)
    try repo.write("shared/build.gradle.kts", "plugins {\n    kotlin(\"multiplatform\")\n}\n")
    try repo.write("shared/src/commonMain/kotlin/Schedule.kt", "class Schedule\n")
    try repo.write("iosApp/iosApp.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "iosApp", targets: [
        T("iosApp", T.application, ["GENERATE_INFOPLIST_FILE": "YES", "SDKROOT": "iphoneos", "MARKETING_VERSION": ios,
                                    "CURRENT_PROJECT_VERSION": iosBuild]),
    ]).text)
    try repo.commitAll("chore: the apps")
    return repo
}

@Suite("init: an iOS and an Android app released apart")
struct InitPlatformProjectsTests {
    @Test func eachPlatformIsAProjectAndBuildsFollowTheVersion() throws {
        let repo = try kmpApp(ios: "6.1.7", iosBuild: "60107", android: "1.0.3", versionCode: "10003")
        let (initRun, transcript) = goldenRun(repo, ["init"])
        #expect(initRun.code == 0, "\(initRun.stderr)")
        #expect(initRun.stdout == """
        project ios (iOS app (version 6.1.7)) in ., tagFormat ios-v{version}
          iosApp/iosApp.xcodeproj/project.pbxproj      pbxproj    version 6.1.7, iOS build 60107
        project android (Android app (version 1.0.3)) in ., tagFormat android-v{version}
          androidApp/build.gradle.kts                  gradle     version 1.0.3, Android build 10003

        """, "\(initRun.stdout)")
        // The notes say why there are two projects (6.1.7 and 1.0.3, majors apart) and how the builds follow the version.
        Golden.expect(transcript, matches: "init/platform-projects-ios-and-android.txt")
        #expect(try repo.read(".relctl.json").hasSuffix("  \"buildNumber\": {\n    \"strategy\": \"fromVersion\"\n  }\n}\n"))

        // init's next steps: commit, adopt each project, then a release of both after a feature in shared code.
        _ = try repo.commitAll("chore: add relctl config")
        let adopt = relctl(["adopt", "--project", "ios", "--project", "android"], in: repo.path, environment: repo.gitEnvironment())
        #expect(adopt.code == 0, "\(adopt.stderr)")
        try repo.write("shared/src/commonMain/kotlin/Schedule.kt", "class Schedule(val days: Int)\n")
        _ = try repo.commitAll("feat: the schedule shows every day")
        let release = relctl(["release", "--all"], in: repo.path, environment: repo.gitEnvironment())
        #expect(release.code == 0, "\(release.stderr)")
        #expect(release.stdout == "ios 6.2.0\nandroid 1.1.0\n", "\(release.stdout)")
        // The release changed exactly the versions and builds: versionCode 10100, versionName 1.1.0, 60200 and 6.2.0.
        Golden.expect(try repo.git(["diff", "HEAD~1", "HEAD", "--", "androidApp/build.gradle.kts", "iosApp/iosApp.xcodeproj/project.pbxproj"]),
                      matches: "init/platform-projects-release-diff.txt")
        #expect(try repo.git(["tag", "--points-at", "HEAD"]) == "android-v1.1.0\nios-v6.2.0\n")
    }

    /// Versions apart below the major are drift in one app, not two apps: one files list, and the warning.
    @Test func versionsApartBelowTheMajorAreOneApp() throws {
        let repo = try kmpApp(ios: "2.3.0", iosBuild: "45", android: "2.3.1", versionCode: "46")
        let initRun = relctl(["init"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(initRun.code == 0, "\(initRun.stderr)")
        let config = try repo.read(".relctl.json")
        #expect(!config.contains("\"projects\""), "\(config)")
        // The warning on the files that disagree, and the config written: one files list, builds counted on (increment).
        expectTranscript(["init"], initRun, matches: "init/platform-versions-apart-below-the-major.txt", repo: repo, sections: [(".relctl.json", config)])
    }

    /// Two apps (three-digit slots): fromVersion with its digits.
    @Test func threeDigitSlotsAreWrittenWithTheirDigits() throws {
        let repo = try kmpApp(ios: "6.1.7", iosBuild: "6001007", android: "1.0.3", versionCode: "1000003")
        let initRun = relctl(["init"], in: repo.path)
        #expect(initRun.code == 0, "\(initRun.stderr)")
        #expect(try repo.read(".relctl.json").hasSuffix("  \"buildNumber\": {\n    \"strategy\": \"fromVersion\",\n    \"digits\": [\n      3,\n      3\n    ]\n  }\n}\n"))
    }

    /// One version's build number proves nothing (10203 for 1.2.3 may be counted by hand): increment.
    @Test(arguments: [
        ("20304", "2.3.4", "increment", "\n    \"strategy\": \"increment\",\n    \"shared\": true\n  }"),
        ("20305", "2.3.4", "increment", "\n    \"strategy\": \"increment\",\n    \"shared\": true\n  }"),
        ("1", "0.0.1", "increment", "\n    \"strategy\": \"increment\",\n    \"shared\": true\n  }"),
    ])
    func oneAppsBuildIsCountedOn(versionCode: String, version: String, strategy: String, buildNumber: String) throws {
        let repo = try TestRepository()
        try repo.write("settings.gradle", "include ':app'\n")
        try repo.write("app/build.gradle", "android {\n    defaultConfig {\n        versionCode \(versionCode)\n        versionName \"\(version)\"\n    }\n}\n")
        try repo.commitAll("chore: the app")
        let (initRun, transcript) = goldenRun(repo, ["init"])
        #expect(initRun.code == 0, "\(initRun.stderr)")
        let config = try repo.read(".relctl.json")
        #expect(config.hasSuffix("\"buildNumber\": {" + buildNumber + "\n}\n"), "\(config)")
        // The note names the strategy (\(strategy)) and why.
        Golden.expect(transcript, matches: "init/one-app-build-\(versionCode)-for-\(version).txt")
        // What init wrote is what sync reads: a sync to the next patch derives the build again (or counts on).
        let sync = relctl(["sync", "2.3.5"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
    }
}
