import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// Several native apps in one build: two Android application modules (distinct applicationIds and versionCodes, tag
// prefixes from the existing tags), an app whose canary flavour has its own versionCode, an Xcode project with an
// iOS and a Mac app on different versions. init proposes a project each; what it writes syncs without refusal, and
// `current` reports no drift between different apps' build numbers.

private func projectsOf(_ config: String) throws -> [[String: Any]] {
    let object = try JSONSerialization.jsonObject(with: Data(config.utf8)) as? [String: Any]
    return object?["projects"] as? [[String: Any]] ?? []
}

private func filesJSON(_ project: [String: Any]) throws -> String {
    let files = project["files"] ?? []
    return String(decoding: try JSONSerialization.data(withJSONObject: ["files": files], options: [.sortedKeys]), as: UTF8.self)
}

private func moduleScript(_ id: String, code: Int) -> String {
    """
    plugins {
        alias(libs.plugins.android.application)
        alias(libs.plugins.kotlin.android)
    }

    android {
        namespace = "\(id)"
        compileSdk = 34

        defaultConfig {
            applicationId = "\(id)"
            minSdk = 24
            targetSdk = 34
            versionCode = \(code)
            versionName = project.property("VERSION_NAME") as String
        }
    }

    dependencies {
        implementation(project(":core"))
    }

    """
}

@Suite("init: two Android apps in one Gradle build")
struct InitTwoAndroidAppsTests {
    func shop() throws -> TestRepository {
        let repo = try TestRepository()
        try repo.write("settings.gradle.kts", "pluginManagement {\n    repositories {\n        google()\n        mavenCentral()\n    }\n}\nrootProject.name = \"Shop\"\ninclude(\":appa\")\ninclude(\":appb\", \":core\")\n")
        try repo.write("gradle.properties", "org.gradle.jvmargs=-Xmx2048m\nandroid.useAndroidX=true\nVERSION_NAME=22.0.0\n")
        try repo.write("appa/build.gradle.kts", moduleScript("com.shop.a", code: 220_004))
        try repo.write("appb/build.gradle.kts", moduleScript("com.shop.b", code: 310))
        try repo.write("core/build.gradle.kts", "plugins {\n    alias(libs.plugins.android.library)\n}\n\nandroid {\n    namespace = \"com.shop.core\"\n}\n")
        try repo.commitAll("chore: two apps")
        try repo.tag("APPA-21.0.0")
        try repo.tag("APPA-22.0.0")
        try repo.tag("APPB_21_0")
        try repo.tag("APPB_22_0")
        return repo
    }

    @Test func oneProjectPerApplicationModuleWithTheTagsTheyHave() throws {
        let repo = try shop()
        let result = relctl(["init"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == """
        project appa (Android app com.shop.a) in appa, tagFormat APPA-{version}
          appa/build.gradle.kts                        gradle     Android build 220004, values in gradle.properties
          gradle.properties                            properties version 22.0.0
        project appb (Android app com.shop.b) in appb, tagFormat appb-v{version}
          appb/build.gradle.kts                        gradle     Android build 310, values in gradle.properties
          gradle.properties                            properties version 22.0.0

        """, "\(result.stdout)")
        #expect(result.stderr == """
        note: found 2 projects (settings.gradle application modules): each with its own version, tags, build numbers and changelog
        note: gradle.properties is listed by appa, appb: a release of one writes it for all; release them together (--all), or give each its own key
        note: appa: tagFormat "APPA-{version}" follows the tags APPA-21.0.0, APPA-22.0.0
        note: appb: tags such as APPB_22_0 hold the version with '_' between its numbers, which a tagFormat cannot write; kept "appb-v{version}" (the first release tags appb-v<version>; set the tagFormat by hand to another shape if you prefer)
        wrote .relctl.json with 2 projects (appa, appb); check it, then run 'relctl current'
        appb's files hold 22.0.0, and no release tag of theirs is reachable from HEAD: if those versions are in the stores, run 'relctl adopt --project appb' to tag them as the last releases, so the next releases follow them
        next steps:
          1. commit it: git add .relctl.json && git commit -m "chore: add relctl config"
          2. relctl adopt --project appb (tags the version each app's files hold as its last release, so the next one follows it)
          3. relctl status (each project: what is released, what comes next)
          4. relctl release --all --dry-run (the releases due, changing nothing)

        """, "\(result.stderr)")
        let projects = try projectsOf(try repo.read(".relctl.json"))
        #expect(projects.map { $0["path"] as? String } == ["appa", "appb"])
    }

    /// The team's single list with both apps: their versionCodes are not drift (different applicationIds).
    @Test func currentReportsNoDriftBetweenTwoApplicationIds() throws {
        let repo = try shop()
        try repo.write(".relctl.json", "{\"files\": [{\"path\": \"appa/build.gradle.kts\", \"format\": \"gradle\"}, {\"path\": \"appb/build.gradle.kts\", \"format\": \"gradle\"}, {\"path\": \"gradle.properties\", \"format\": \"properties\", \"versionNameKey\": \"VERSION_NAME\"}]}\n")
        let current = relctl(["current"], in: repo.path)
        #expect(current.code == 0, "\(current.stderr)")
        #expect(current.stderr == "")
        // One applicationId in both: the same app, so 220004 and 310 are drift again.
        try repo.write("appb/build.gradle.kts", moduleScript("com.shop.a", code: 310))
        let same = relctl(["current"], in: repo.path)
        #expect(same.code == 2)
        #expect(same.stderr.hasPrefix("error: version drift: androidBuild differs: appa/build.gradle.kts:14 220004, appb/build.gradle.kts:14 310\n"), "\(same.stderr)")
    }
}

private let messengerScript = """
plugins {
    id("com.android.application")
}

android {
    namespace = "org.example.messenger"
    defaultConfig {
        applicationId = "org.example.messenger"
        versionCode = 1428
        versionName = "3.37.0"
    }
    flavorDimensions += "distribution"
    productFlavors {
        create("play") {
            dimension = "distribution"
            versionCode = 1428 // same as defaultConfig
        }
        create("canary") {
            dimension = "distribution"
            applicationId = "org.example.messenger.canary"
            versionCode = 200008229
            versionName = "3.37.0-canary.8"
        }
    }
}

"""

private let groovyFlavors = """
apply plugin: 'com.android.application'

android {
    defaultConfig {
        applicationId 'org.example.notes'
        versionCode 57
        versionName '2.4.1'
    }
    productFlavors {
        fdroid {
            versionCode 57
        }
        internal {
            applicationIdSuffix '.internal'
            versionCode 9057 // internal track
            versionName '2.4.1-internal'
        }
    }
}

"""

@Suite("Android product flavours with their own versions")
struct AndroidFlavorTests {
    @Test func aCanaryFlavourWithItsOwnVersionCodeIsAProjectOfItsOwn() throws {
        let repo = try TestRepository()
        try repo.write("settings.gradle.kts", "rootProject.name = \"Messenger\"\ninclude(\":app\")\n")
        try repo.write("app/build.gradle.kts", messengerScript)
        try repo.commitAll("chore: messenger")
        try repo.tag("v3.36.0")
        try repo.tag("v3.37.0")
        try repo.tag("v3.37.0-canary.8")
        let (result, resultTranscript) = goldenRun(repo, ["init", "--dry-run"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("""
        project app (the app) in ., tagFormat v{version}
          app/build.gradle.kts                         gradle     version 3.37.0, Android build 1428
        project canary (Android flavor canary of app/build.gradle.kts, versionName 3.37.0-canary.8, versionCode 200008229) in app, tagFormat canary-v{version}
          app/build.gradle.kts                         gradle     version 3.37.0-canary.8, Android build 200008229

        """), "\(result.stdout)")
        // The whole plan: the config with the flavour, and the notes on its tags and its own versions.
        Golden.expect(resultTranscript, matches: "init/android-flavor-canary--dry-run.txt")
    }

    /// The app's entry: current shows the flavour holding defaultConfig's versionCode, sync keeps it in step and leaves
    /// the canary flavour byte for byte as it was.
    @Test func theAppsSyncKeepsAnInStepFlavourAndLeavesTheCanaryAlone() throws {
        let repo = try TestRepository()
        try repo.write("app/build.gradle.kts", messengerScript)
        try repo.write(".relctl.json", "{\"files\": [{\"path\": \"app/build.gradle.kts\", \"format\": \"gradle\"}]}\n")
        try repo.commitAll("chore: messenger")
        let current = relctl(["current"], in: repo.path)
        #expect(current.code == 0, "\(current.stderr)")
        #expect(current.stdout == "app/build.gradle.kts (gradle)\n  marketing      3.37.0       line 10\n  Android build  1428         lines 9, 16\n", "\(current.stdout)")
        let sync = relctl(["sync", "3.38.0", "--build", "1430"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        let expected = messengerScript.replacingOccurrences(of: "versionCode = 1428", with: "versionCode = 1430")
            .replacingOccurrences(of: "versionName = \"3.37.0\"", with: "versionName = \"3.38.0\"")
        #expect(try repo.read("app/build.gradle.kts") == expected)
    }

    @Test func aFlavourEntryWritesOnlyThatFlavour() throws {
        let repo = try TestRepository()
        try repo.write("app/build.gradle", groovyFlavors)
        try repo.write(".relctl.json", "{\"files\": [{\"path\": \"app/build.gradle\", \"format\": \"gradle\", \"flavor\": \"internal\"}]}\n")
        try repo.commitAll("chore: notes")
        let current = relctl(["current"], in: repo.path)
        #expect(current.stdout == "app/build.gradle (gradle)\n  marketing      2.4.1-internal line 16\n  Android build  9057         line 15\n", "\(current.stdout)")
        let sync = relctl(["sync", "2.5.0-internal", "--build", "9058"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(try repo.read("app/build.gradle") == groovyFlavors.replacingOccurrences(of: "versionCode 9057", with: "versionCode 9058")
            .replacingOccurrences(of: "'2.4.1-internal'", with: "'2.5.0-internal'"))
    }

    @Test func anUnknownFlavourIsAClearError() throws {
        let repo = try TestRepository()
        try repo.write("app/build.gradle", groovyFlavors)
        try repo.write(".relctl.json", "{\"files\": [{\"path\": \"app/build.gradle\", \"format\": \"gradle\", \"flavor\": \"beta\"}]}\n")
        try repo.commitAll("chore: notes")
        let before = try repo.snapshot()
        let sync = relctl(["sync", "2.5.0"], in: repo.path)
        #expect(sync.code != 0)
        #expect(sync.stderr == "error: app/build.gradle: no product flavor beta in android { productFlavors { … } } (flavors declared here: fdroid, internal)\n", "\(sync.stderr)")
        #expect(try repo.snapshot() == before)
    }
}

@Suite("init: an Xcode project with an iOS and a Mac app")
struct InitXcodeTwoPlatformsTests {
    func notes() throws -> TestRepository {
        let repo = try TestRepository()
        try repo.write("Notes.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "Notes", targets: [
            T("Notes", T.application, ["GENERATE_INFOPLIST_FILE": "YES", "SDKROOT": "iphoneos"],
              base: ["Debug": "Config/iOS.xcconfig", "Release": "Config/iOS.xcconfig"]),
            T("NotesWidget", T.appExtension, ["GENERATE_INFOPLIST_FILE": "YES", "SDKROOT": "iphoneos"],
              base: ["Debug": "Config/iOS.xcconfig", "Release": "Config/iOS.xcconfig"]),
            T("Notes Mac", T.application, ["GENERATE_INFOPLIST_FILE": "YES", "SDKROOT": "macosx"],
              base: ["Debug": "Config/macOS.xcconfig", "Release": "Config/macOS.xcconfig"]),
        ]).text)
        try repo.write("Config/iOS.xcconfig", "// iOS app and widget\nMARKETING_VERSION = 4.2.0\nCURRENT_PROJECT_VERSION = 412\n")
        try repo.write("Config/macOS.xcconfig", "// Mac app, released on its own\nMARKETING_VERSION = 1.8.0\nCURRENT_PROJECT_VERSION = 95\n")
        try repo.commitAll("chore: notes")
        return repo
    }

    /// One top-level list with both apps (same version, each its own build numbers): an iOS app's and a Mac app's
    /// builds are not drift (two apps in App Store Connect); two iOS application targets' are.
    @Test func currentReportsNoBuildDriftBetweenAnIOSAndAMacApp() throws {
        let repo = try notes()
        try repo.write("Config/macOS.xcconfig", "// Mac app, released on its own\nMARKETING_VERSION = 4.2.0\nCURRENT_PROJECT_VERSION = 95\n")
        try repo.write(".relctl.json", "{\"files\": [{\"path\": \"Notes.xcodeproj/project.pbxproj\", \"format\": \"pbxproj\"}, {\"path\": \"Config/iOS.xcconfig\", \"format\": \"xcconfig\"}, {\"path\": \"Config/macOS.xcconfig\", \"format\": \"xcconfig\"}]}\n")
        let current = relctl(["current"], in: repo.path)
        #expect(current.code == 0, "\(current.stderr)")
        #expect(current.stderr == "", "\(current.stderr)")
        // The "Mac" target built for iphoneos: two iOS apps reading one build counter, so 412 and 95 are drift.
        try repo.write("Notes.xcodeproj/project.pbxproj", try repo.read("Notes.xcodeproj/project.pbxproj").replacingOccurrences(of: "SDKROOT = macosx;", with: "SDKROOT = iphoneos;"))
        let same = relctl(["current"], in: repo.path)
        #expect(same.code == 2, "\(same.stderr)")
        #expect(same.stderr.hasPrefix("error: version drift: iosBuild differs: "), "\(same.stderr)")
    }

    @Test func eachApplicationTargetIsAProjectAndEachSyncsAlone() throws {
        let repo = try notes()
        let result = relctl(["init"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == """
        project Notes (iOS app target Notes (version 4.2.0)) in ., tagFormat Notes-v{version}
          Notes.xcodeproj/project.pbxproj              pbxproj
          Config/iOS.xcconfig                          xcconfig   version 4.2.0, iOS build 412
        project Notes-Mac (macOS app target Notes Mac (version 1.8.0)) in ., tagFormat Notes-Mac-v{version}
          Notes.xcodeproj/project.pbxproj              pbxproj
          Config/macOS.xcconfig                        xcconfig   version 1.8.0, iOS build 95

        """, "\(result.stdout)")
        let projects = try projectsOf(try repo.read(".relctl.json"))
        #expect(try projects.map(filesJSON) == [
            "{\"files\":[{\"format\":\"pbxproj\",\"path\":\"Notes.xcodeproj\\/project.pbxproj\",\"targets\":[\"Notes\",\"NotesWidget\"]},{\"format\":\"xcconfig\",\"path\":\"Config\\/iOS.xcconfig\"}]}",
            "{\"files\":[{\"format\":\"pbxproj\",\"path\":\"Notes.xcodeproj\\/project.pbxproj\",\"targets\":[\"Notes Mac\"]},{\"format\":\"xcconfig\",\"path\":\"Config\\/macOS.xcconfig\"}]}",
        ])
        // Each project's files, synced alone (what `--project` does): no refusal, the other app's file untouched.
        let mac = try repo.read("Config/macOS.xcconfig")
        try repo.write(".relctl.json", try filesJSON(projects[0]) + "\n")
        let ios = relctl(["sync", "4.3.0", "--build", "413"], in: repo.path)
        #expect(ios.code == 0, "\(ios.stderr)")
        #expect(try repo.read("Config/iOS.xcconfig") == "// iOS app and widget\nMARKETING_VERSION = 4.3.0\nCURRENT_PROJECT_VERSION = 413\n")
        #expect(try repo.read("Config/macOS.xcconfig") == mac)
        try repo.write(".relctl.json", try filesJSON(projects[1]) + "\n")
        let macSync = relctl(["sync", "1.9.0", "--build", "96"], in: repo.path)
        #expect(macSync.code == 0, "\(macSync.stderr)")
        #expect(try repo.read("Config/macOS.xcconfig") == "// Mac app, released on its own\nMARKETING_VERSION = 1.9.0\nCURRENT_PROJECT_VERSION = 96\n")
        #expect(try repo.read("Config/iOS.xcconfig") == "// iOS app and widget\nMARKETING_VERSION = 4.3.0\nCURRENT_PROJECT_VERSION = 413\n")
    }

    /// MARKETING_VERSION set in each target's build settings (no .xcconfig): both projects list the pbxproj, each
    /// with its own targets, and each sync writes only its own targets' settings.
    @Test func versionsInTheTargetsBuildSettingsSyncPerTarget() throws {
        let repo = try TestRepository()
        let project = XcodeFixtureProject(name: "Tides", targets: [
            T("Tides", T.application, ["GENERATE_INFOPLIST_FILE": "YES", "SDKROOT": "iphoneos",
                                      "MARKETING_VERSION": "3.0.2", "CURRENT_PROJECT_VERSION": "120"]),
            T("Tides macOS", T.application, ["GENERATE_INFOPLIST_FILE": "YES", "SDKROOT": "macosx",
                                            "MARKETING_VERSION": "1.1.0", "CURRENT_PROJECT_VERSION": "14"]),
        ]).text
        try repo.write("Tides.xcodeproj/project.pbxproj", project)
        try repo.commitAll("chore: tides")
        let result = relctl(["init"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        let projects = try projectsOf(try repo.read(".relctl.json"))
        #expect(projects.map { $0["name"] as? String } == ["Tides", "Tides-macOS"])
        #expect(projects.map { ($0["files"] as? [[String: Any]])?.first?["targets"] as? [String] } == [["Tides"], ["Tides macOS"]])
        try repo.write(".relctl.json", try filesJSON(projects[1]) + "\n")
        let sync = relctl(["sync", "1.2.0", "--build", "15"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        let synced = try repo.read("Tides.xcodeproj/project.pbxproj")
        // The Mac target's two configurations changed, the iOS target's stayed.
        #expect(synced.components(separatedBy: "MARKETING_VERSION = 1.2.0;").count - 1 == 2, "\(synced)")
        #expect(synced.components(separatedBy: "MARKETING_VERSION = 3.0.2;").count - 1 == 2)
        #expect(synced.components(separatedBy: "CURRENT_PROJECT_VERSION = 120;").count - 1 == 2)
        #expect(synced.replacingOccurrences(of: "MARKETING_VERSION = 1.2.0;", with: "MARKETING_VERSION = 1.1.0;")
            .replacingOccurrences(of: "CURRENT_PROJECT_VERSION = 15;", with: "CURRENT_PROJECT_VERSION = 14;") == project)
    }
}

@Suite("init: an app that embeds another app")
struct InitEmbeddedAppTests {
    /// A Mac Catalyst app's launcher: an application target for macOS whose product the iOS app copies into its
    /// bundle. It ships inside the app, so it is no project of its own; its stale 1.0 is left out with a note.
    @Test func anEmbeddedLauncherAppIsPartOfItsHostNotAProject() throws {
        let repo = try TestRepository()
        try repo.write("Home.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "Home", targets: [
            T("App", T.application, ["GENERATE_INFOPLIST_FILE": "YES", "SDKROOT": "iphoneos"],
              base: ["Debug": "Configuration/Version.xcconfig", "Release": "Configuration/Version.xcconfig"], embeds: ["Launcher"]),
            T("Launcher", T.application, ["GENERATE_INFOPLIST_FILE": "YES", "SDKROOT": "macosx", "MARKETING_VERSION": "1.0",
                                          "CURRENT_PROJECT_VERSION": "1"]),
        ]).text)
        try repo.write("Configuration/Version.xcconfig", "MARKETING_VERSION = 2026.8.0\nCURRENT_PROJECT_VERSION = 2026\n")
        try repo.commitAll("chore: home")
        let result = relctl(["init"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == """
        Home.xcodeproj/project.pbxproj               pbxproj
        Configuration/Version.xcconfig               xcconfig   version 2026.8.0, iOS build 2026

        """, "\(result.stdout)")
        #expect(result.stderr.hasPrefix("note: left out target Launcher of Home.xcodeproj/project.pbxproj: it holds version 1.0"), "\(result.stderr)")
        let config = try repo.read(".relctl.json")
        #expect(!config.contains("\"projects\""), "\(config)")
        // One files list; the pbxproj names its target App.
        Golden.expect(config, matches: "init/xcode-copied-mac-app.relctl.json")
        // Without the copy-files phase the Mac app is a product of its own: two projects.
        let apart = try TestRepository()
        try apart.write("Home.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "Home", targets: [
            T("App", T.application, ["GENERATE_INFOPLIST_FILE": "YES", "SDKROOT": "iphoneos"],
              base: ["Debug": "Configuration/Version.xcconfig", "Release": "Configuration/Version.xcconfig"]),
            T("Launcher", T.application, ["GENERATE_INFOPLIST_FILE": "YES", "SDKROOT": "macosx", "MARKETING_VERSION": "1.0",
                                          "CURRENT_PROJECT_VERSION": "1"]),
        ]).text)
        try apart.write("Configuration/Version.xcconfig", "MARKETING_VERSION = 2026.8.0\nCURRENT_PROJECT_VERSION = 2026\n")
        try apart.commitAll("chore: home")
        #expect(relctl(["init"], in: apart.path).code == 0)
        // Two projects, each with its own target.
        Golden.expect(try apart.read(".relctl.json"), matches: "init/xcode-mac-app-apart.relctl.json")
    }
}
