import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// End-to-end `init` → `current` → `sync --dry-run` → `sync` on Android layouts as real projects have them: the app
// module at the root with a version catalog, Kotlin Multiplatform, a Groovy app reading version.properties, the
// android block reached through `configure<ApplicationExtension>`, and literal fallbacks.

// MARK: - Layouts

let rootSettingsKotlin = """
pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
}
rootProject.name = "Ledger"
include(":app")

"""

let catalogToml = """
[versions]
agp = "8.7.3"
kotlin = "2.1.0"
# The app's own version: app/build.gradle.kts reads these two.
app-version-name = "2.4.1"
appVersionCode = "241"

[libraries]
androidx-core-ktx = { group = "androidx.core", name = "core-ktx", version = "1.15.0" }

[plugins]
android-application = { id = "com.android.application", version.ref = "agp" }

"""

let catalogAppScript = """
plugins {
    alias(libs.plugins.android.application)
}

android {
    namespace = "com.example.ledger"
    compileSdk = 35

    defaultConfig {
        applicationId = "com.example.ledger"
        minSdk = 26
        versionCode = libs.versions.appVersionCode.get().toInt()
        versionName = libs.versions.app.version.name.get()
    }
}

"""

let kmpComposeAppScript = """
import org.jetbrains.kotlin.gradle.dsl.JvmTarget

plugins {
    alias(libs.plugins.kotlinMultiplatform)
    alias(libs.plugins.androidApplication)
    alias(libs.plugins.composeMultiplatform)
}

kotlin {
    androidTarget {
        compilerOptions { jvmTarget.set(JvmTarget.JVM_11) }
    }
    listOf(iosX64(), iosArm64(), iosSimulatorArm64()).forEach { iosTarget ->
        iosTarget.binaries.framework {
            baseName = "ComposeApp"
            isStatic = true
        }
    }
}

android {
    namespace = "org.example.kmp"
    compileSdk = 35
    defaultConfig {
        applicationId = "org.example.kmp"
        minSdk = 24
        targetSdk = 35
        versionCode = 3
        versionName = "1.0.3"
    }
}

"""

let kmpSharedScript = """
plugins {
    alias(libs.plugins.kotlinMultiplatform)
    alias(libs.plugins.androidLibrary)
}

android {
    namespace = "org.example.kmp.shared"
    compileSdk = 35
    defaultConfig {
        minSdk = 24
    }
}

"""

func kmpXcconfig(build: String) -> String {
    "TEAM_ID=\nBUNDLE_ID=org.example.kmp.KmpApp\nAPP_NAME=KmpApp\nMARKETING_VERSION=1.0.3\nCURRENT_PROJECT_VERSION=\(build)\n"
}

let versionPropertiesScript = """
apply plugin: 'com.android.application'

def versionPropsFile = rootProject.file('version.properties')
def versionProps = new Properties()
versionPropsFile.withInputStream { versionProps.load(it) }

android {
    compileSdkVersion 34
    defaultConfig {
        applicationId 'com.example.notes'
        versionCode versionProps['versionCode'].toInteger()
        versionName versionProps['versionName']
    }
}

"""

let versionProperties = """
#Version of the app, read by app/build.gradle
versionName=4.12.0
versionCode=41200

"""

let applicationExtensionScript = """
import com.android.build.api.dsl.ApplicationExtension

plugins {
    id("com.android.application")
}

configure<ApplicationExtension> {
    namespace = "com.example.tides"
    defaultConfig {
        applicationId = "com.example.tides"
        versionCode = 3107
        versionName = "3.1.0"
    }
    productFlavors {
        create("beta") {
            versionNameSuffix = "-beta"
        }
    }
}

"""

let fallbackScript = """
plugins {
    id("com.android.application")
}

android {
    namespace = "net.example.hike"
    defaultConfig {
        applicationId = "net.example.hike"
        versionCode = (project.findProperty("VERSION_CODE") as String?)?.toInt() ?: 1009
        versionName = System.getenv("VERSION_NAME") ?: "10.9.0"
    }
}

"""

enum AndroidLayout: String, CaseIterable, CustomTestStringConvertible {
    case rootModuleCatalog, kotlinMultiplatform, groovyVersionProperties, applicationExtension, fallbacks

    var testDescription: String { rawValue }

    func make() throws -> TestRepository {
        let repo = try TestRepository()
        try repo.write("gradle.properties", "org.gradle.jvmargs=-Xmx2048m\nandroid.useAndroidX=true\n")
        try repo.write("build.gradle.kts", "plugins {\n    alias(libs.plugins.android.application) apply false\n}\n")
        switch self {
        case .rootModuleCatalog:
            try repo.write("settings.gradle.kts", rootSettingsKotlin)
            try repo.write("gradle/libs.versions.toml", catalogToml)
            try repo.write("app/build.gradle.kts", catalogAppScript)
        case .kotlinMultiplatform:
            try repo.write("settings.gradle.kts", "rootProject.name = \"KmpApp\"\ninclude(\":composeApp\")\ninclude(\":shared\")\n")
            try repo.write("composeApp/build.gradle.kts", kmpComposeAppScript)
            try repo.write("shared/build.gradle.kts", kmpSharedScript)
            try repo.write("iosApp/Configuration/Config.xcconfig", kmpXcconfig(build: "3"))
        case .groovyVersionProperties:
            try repo.write("settings.gradle", "rootProject.name = 'Notes'\ninclude ':app'\n")
            try repo.write("version.properties", versionProperties)
            try repo.write("app/build.gradle", versionPropertiesScript)
        case .applicationExtension:
            try repo.write("settings.gradle.kts", rootSettingsKotlin)
            try repo.write("app/build.gradle.kts", applicationExtensionScript)
        case .fallbacks:
            try repo.write("settings.gradle.kts", rootSettingsKotlin)
            try repo.write("app/build.gradle.kts", fallbackScript)
        }
        try repo.commitAll("chore: the app as it is")
        return repo
    }
}

extension AndroidLayout {
    /// The `files` entries `init` writes, as compact JSON objects.
    var detected: [String] {
        switch self {
        case .rootModuleCatalog:
            return [#"{"path":"app/build.gradle.kts","format":"gradle"}"#,
                    #"{"path":"gradle/libs.versions.toml","format":"version-catalog","versionNameKey":"app-version-name","versionCodeKey":"appVersionCode"}"#]
        case .kotlinMultiplatform:
            // The Xcode side first, as for every app (the pbxproj or its .xcconfig before the Gradle files).
            return [#"{"path":"iosApp/Configuration/Config.xcconfig","format":"xcconfig"}"#,
                    #"{"path":"composeApp/build.gradle.kts","format":"gradle"}"#]
        case .groovyVersionProperties:
            return [#"{"path":"version.properties","format":"properties","versionNameKey":"versionName","versionCodeKey":"versionCode"}"#]
        case .applicationExtension, .fallbacks:
            return [#"{"path":"app/build.gradle.kts","format":"gradle"}"#]
        }
    }

    /// The version to sync to, and the edits it must make: (path, old text, new text).
    var sync: (version: String, edits: [(String, String, String)]) {
        switch self {
        case .rootModuleCatalog:
            return ("2.5.0", [("gradle/libs.versions.toml", "app-version-name = \"2.4.1\"\nappVersionCode = \"241\"",
                               "app-version-name = \"2.5.0\"\nappVersionCode = \"242\"")])
        case .kotlinMultiplatform:
            return ("1.1.0", [("composeApp/build.gradle.kts", "versionCode = 3\n        versionName = \"1.0.3\"",
                               "versionCode = 4\n        versionName = \"1.1.0\""),
                              ("iosApp/Configuration/Config.xcconfig", "MARKETING_VERSION=1.0.3\nCURRENT_PROJECT_VERSION=3",
                               "MARKETING_VERSION=1.1.0\nCURRENT_PROJECT_VERSION=4")])
        case .groovyVersionProperties:
            return ("4.13.0-beta.1", [("version.properties", "versionName=4.12.0\nversionCode=41200", "versionName=4.13.0-beta.1\nversionCode=41201")])
        case .applicationExtension:
            return ("3.2.0", [("app/build.gradle.kts", "versionCode = 3107\n        versionName = \"3.1.0\"",
                               "versionCode = 3108\n        versionName = \"3.2.0\"")])
        case .fallbacks:
            return ("10.10.0", [("app/build.gradle.kts", "?.toInt() ?: 1009\n        versionName = System.getenv(\"VERSION_NAME\") ?: \"10.9.0\"",
                                 "?.toInt() ?: 1010\n        versionName = System.getenv(\"VERSION_NAME\") ?: \"10.10.0\"")])
        }
    }
}

/// The config's `files` entries as compact JSON, one string each.
func compactEntries(_ config: String) throws -> [String] {
    let object = try JSONSerialization.jsonObject(with: Data(config.utf8)) as? [String: Any]
    let files = object?["files"] as? [[String: Any]] ?? []
    return files.map { entry in
        let order = ["path", "format", "versionNameKey", "versionCodeKey"]
        let members = order.compactMap { key in (entry[key] as? String).map { "\"\(key)\":\"\($0)\"" } }
        return "{" + members.joined(separator: ",") + "}"
    }
}

@Suite("Android layouts: init, current, sync")
struct AndroidLayoutTests {
    @Test(arguments: AndroidLayout.allCases)
    func initCurrentDryRunSyncCurrent(_ layout: AndroidLayout) throws {
        let repo = try layout.make()
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        let config = try repo.read(".relctl.json")
        #expect(try compactEntries(config) == layout.detected, "\(config)")
        #expect(config.hasSuffix("\n  ],\n  \"buildNumber\": {\n    \"strategy\": \"increment\",\n    \"shared\": true\n  }\n}\n"), "\(config)")

        // init never writes a config its own current calls drift.
        let before = relctl(["current"], in: repo.path)
        #expect(before.code == 0, "\(before.stdout)\(before.stderr)")
        #expect(before.stderr.isEmpty, "\(before.stderr)")
        #expect(!before.stdout.contains("no version values found"))

        let (version, edits) = layout.sync
        let originals = try Dictionary(uniqueKeysWithValues: edits.map { ($0.0, try repo.read($0.0)) })
        let snapshot = try repo.snapshot()
        let dryRun = relctl(["sync", version, "--dry-run"], in: repo.path)
        #expect(dryRun.code == 0, "\(dryRun.stderr)")
        #expect(try repo.snapshot() == snapshot)
        // (The dry run's diff of every edited file is in the transcript below.)

        let sync = relctl(["sync", version], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        for (path, old, new) in edits {
            try #require(originals[path]!.contains(old), "the layout's edit finds \(old) in \(path)")
            #expect(try repo.read(path) == originals[path]!.replacingOccurrences(of: old, with: new), "\(path)")
        }
        // Nothing but the edited files changed (the config is new and untracked).
        let status = try repo.git(["status", "--porcelain"]).split(separator: "\n").map { String($0.dropFirst(3)) }.sorted()
        #expect(status == (edits.map(\.0) + [".relctl.json"]).sorted())

        let after = relctl(["current"], in: repo.path)
        // A second sync of the same version writes nothing.
        let again = relctl(["sync", version], in: repo.path)
        expectTranscript([(["init"], initResult), (["current"], before), (["sync", version, "--dry-run"], dryRun), (["sync", version], sync),
                          (["current"], after), (["sync", version], again)],
                         matches: "android/init-current-sync-\(layout).txt", repo: repo)
    }

    @Test func catalogReferencesAreShownWhereTheyLive() throws {
        let repo = try AndroidLayout.rootModuleCatalog.make()
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.stdout == """
            app/build.gradle.kts                         gradle     values in gradle/libs.versions.toml
            gradle/libs.versions.toml                    version-catalog version 2.4.1, Android build 241

            """, "\(initResult.stdout)")
        let current = relctl(["current"], in: repo.path)
        expectTranscript(["current"], current, matches: "android/catalog-references.txt", repo: repo)

        // Without the catalog entry, sync refuses with the line and the entry to add; nothing is written.
        try writeConfig(repo, files: [("app/build.gradle.kts", "gradle")])
        let snapshot = try repo.snapshot()
        let refused = relctl(["sync", "2.5.0"], in: repo.path)
        #expect(refused.code == 1)
        #expect(refused.stderr == "error: app/build.gradle.kts:13: versionName reads libs.versions.app.version.name from the version catalog, which no files entry covers (add {\"path\": \"gradle/libs.versions.toml\", \"format\": \"version-catalog\", \"versionNameKey\": \"app-version-name\"})\n", "\(refused.stderr)")
        #expect(try repo.snapshot() == snapshot)
        let uncovered = relctl(["current"], in: repo.path)
        expectTranscript(["current"], uncovered, matches: "android/catalog-not-covered.txt", repo: repo)
    }

    @Test func gradleExpressionsAreShownAsWrittenAndHintsNameTheRootGradleProperties() throws {
        let repo = try TestRepository()
        try repo.write("settings.gradle", "include ':app'\n")
        try repo.write("gradle.properties", "org.gradle.jvmargs=-Xmx2g\nVERSIONCODE=12\nVERSIONNAME=1.2.0\n")
        try repo.write("app/build.gradle", "android {\n    defaultConfig {\n        versionCode VERSIONCODE as Integer\n        versionName project.property(\"VERSIONNAME\")\n    }\n}\n")
        try repo.commitAll("chore: app")
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        #expect(try compactEntries(try repo.read(".relctl.json")) == [#"{"path":"app/build.gradle","format":"gradle"}"#,
                                                                       #"{"path":"gradle.properties","format":"properties","versionNameKey":"VERSIONNAME","versionCodeKey":"VERSIONCODE"}"#])
        let current = relctl(["current"], in: repo.path)
        expectTranscript(["current"], current, matches: "android/gradle-properties-expressions.txt", repo: repo)

        try writeConfig(repo, files: [("app/build.gradle", "gradle")])
        let refused = relctl(["sync", "1.3.0"], in: repo.path)
        #expect(refused.code == 1)
        #expect(refused.stderr == "error: app/build.gradle:4: versionName reads the Gradle property VERSIONNAME, which no files entry covers (add {\"path\": \"gradle.properties\", \"format\": \"properties\", \"versionNameKey\": \"VERSIONNAME\"})\n", "\(refused.stderr)")
    }

    @Test func aFallbackBehindAGradlePropertyThatIsSetGoesWithGradleProperties() throws {
        let repo = try AndroidLayout.fallbacks.make()
        try repo.write("gradle.properties", "org.gradle.jvmargs=-Xmx2048m\nVERSION_CODE=1009\n")
        try repo.commitAll("chore: the code in gradle.properties")
        #expect(relctl(["init"], in: repo.path).code == 0)
        #expect(try compactEntries(try repo.read(".relctl.json")) == [#"{"path":"app/build.gradle.kts","format":"gradle"}"#,
                                                                       #"{"path":"gradle.properties","format":"properties","versionCodeKey":"VERSION_CODE"}"#])
        let current = relctl(["current"], in: repo.path)
        expectTranscript(["current"], current, matches: "android/fallback-behind-a-set-gradle-property.txt", repo: repo)
        let script = try repo.read("app/build.gradle.kts")
        let sync = relctl(["sync", "10.10.0"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(try repo.read("gradle.properties") == "org.gradle.jvmargs=-Xmx2048m\nVERSION_CODE=1010\n")
        // The fallback moves with the property; the environment variable's fallback gets the new version.
        #expect(try repo.read("app/build.gradle.kts") == script.replacingOccurrences(of: "?.toInt() ?: 1009\n", with: "?.toInt() ?: 1010\n")
            .replacingOccurrences(of: "10.9.0", with: "10.10.0"))

        // The Gradle file alone would write a fallback the build never uses: refused, nothing written.
        try writeConfig(repo, files: [("app/build.gradle.kts", "gradle")])
        let snapshot = try repo.snapshot()
        let refused = relctl(["sync", "10.11.0"], in: repo.path)
        #expect(refused.code == 1)
        #expect(refused.stderr == "error: app/build.gradle.kts:9: versionCode is 1010 only when the Gradle property VERSION_CODE is not set, and gradle.properties:2 sets it (add {\"path\": \"gradle.properties\", \"format\": \"properties\", \"versionCodeKey\": \"VERSION_CODE\"} so both are written)\n", "\(refused.stderr)")
        #expect(try repo.snapshot() == snapshot)
    }

    @Test func aComputedAndroidComponentsOutputIsRefusedNeverSkipped() throws {
        let repo = try AndroidLayout.applicationExtension.make()
        try repo.write("app/build.gradle.kts", applicationExtensionScript + """
            androidComponents {
                onVariants { variant ->
                    variant.outputs.forEach { output -> output.versionCode.set(gitCommitCount()) }
                }
            }

            """)
        try repo.commitAll("chore: version code from git")
        // init leaves the file out (sync could not write it) and says nothing was found.
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 1)
        #expect(initResult.stderr.hasPrefix("error: no version files found"), "\(initResult.stderr)")
        try writeConfig(repo, files: [("app/build.gradle.kts", "gradle")])
        let snapshot = try repo.snapshot()
        let refused = relctl(["sync", "3.2.0"], in: repo.path)
        #expect(refused.code == 1)
        #expect(refused.stderr == ("error: app/build.gradle.kts:22: output.versionCode is a computed value (gitCommitCount()), relctl edits only literals (androidComponents sets it for the variant outputs, over defaultConfig; write a literal there, e.g. output.versionCode.set(1), or remove it so defaultConfig's value is used)\n"), "\(refused.stderr)")
        #expect(try repo.snapshot() == snapshot)
        let current = relctl(["current"], in: repo.path)
        expectTranscript(["current"], current, matches: "android/computed-android-components-output.txt", repo: repo)
    }

    @Test func versionPropertiesKeysAreTheOnesReallyThere() throws {
        // Read by a convention plugin, so no script names the file; its keys are upper case.
        let repo = try TestRepository()
        try repo.write("settings.gradle.kts", rootSettingsKotlin)
        try repo.write("app/build.gradle.kts", "plugins {\n    id(\"example.android.application\")\n}\nandroid {\n    defaultConfig {\n        versionCode = appVersionCode()\n    }\n}\n")
        try repo.write("version.properties", "# written by the release job\nVERSION_NAME=7.0.1\nVERSION_CODE=70001\nVERSION_SUFFIX=\n")
        try repo.commitAll("chore: app")
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        #expect(try compactEntries(try repo.read(".relctl.json")) == [#"{"path":"version.properties","format":"properties","versionNameKey":"VERSION_NAME","versionCodeKey":"VERSION_CODE"}"#])
        let sync = relctl(["sync", "7.1.0"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        #expect(try repo.read("version.properties") == "# written by the release job\nVERSION_NAME=7.1.0\nVERSION_CODE=70002\nVERSION_SUFFIX=\n")
    }

    @Test func sharedOnlyWhenTheBuildNumbersAgree() throws {
        let repo = try AndroidLayout.kotlinMultiplatform.make()
        try repo.write("iosApp/Configuration/Config.xcconfig", kmpXcconfig(build: "1703280000"))
        try repo.commitAll("chore: timestamp build numbers on iOS")
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        expectTranscript(["init"], initResult, matches: "android/shared-false-when-builds-differ.txt", repo: repo,
                         sections: [(".relctl.json", try repo.read(".relctl.json"))])
        #expect(relctl(["current"], in: repo.path).code == 0)
        let gradle = try repo.read("composeApp/build.gradle.kts")
        let sync = relctl(["sync", "1.1.0"], in: repo.path)
        #expect(sync.code == 0, "\(sync.stderr)")
        // Each counts on from its own number.
        #expect(try repo.read("composeApp/build.gradle.kts") == gradle.replacingOccurrences(
            of: "versionCode = 3\n        versionName = \"1.0.3\"", with: "versionCode = 4\n        versionName = \"1.1.0\""))
        #expect(try repo.read("iosApp/Configuration/Config.xcconfig") == kmpXcconfig(build: "1703280001").replacingOccurrences(of: "1.0.3", with: "1.1.0"))
    }

    @Test func aSecondAppModuleIsKeptOnlyWhenItAgrees() throws {
        let wear = { (code: String) in
            "plugins {\n    id(\"com.android.application\")\n}\nandroid {\n    defaultConfig {\n        versionCode = \(code)\n        versionName = \"3.1.0\"\n    }\n}\n"
        }
        let repo = try AndroidLayout.applicationExtension.make()
        try repo.write("wear/build.gradle.kts", wear("3107"))
        try repo.commitAll("chore: a wear app")
        #expect(relctl(["init"], in: repo.path).code == 0)
        #expect(try compactEntries(try repo.read(".relctl.json")) == [#"{"path":"app/build.gradle.kts","format":"gradle"}"#,
                                                                       #"{"path":"wear/build.gradle.kts","format":"gradle"}"#])

        let other = try AndroidLayout.applicationExtension.make()
        try other.write("wear/build.gradle.kts", wear("9000003"))
        try other.commitAll("chore: a wear app with its own codes")
        #expect(relctl(["init"], in: other.path).code == 0)
        #expect(try compactEntries(try other.read(".relctl.json")) == [#"{"path":"app/build.gradle.kts","format":"gradle"}"#])
        #expect(relctl(["current"], in: other.path).code == 0)
    }
}

@Suite("current: uncovered Gradle properties")
struct UncoveredGradlePropertyTests {
    @Test func noEntryAndAnEntryWithoutTheKeyAreToldApart() throws {
        let repo = try TestRepository()
        try repo.write("android/app/build.gradle",
                       "android {\n    defaultConfig {\n        versionCode APP_CODE.toInteger()\n        versionName \"1.0.0\"\n    }\n}\n")
        try repo.write("android/gradle.properties", "APP_NAME=1.0.0\nAPP_CODE=3\n")
        try writeConfig(repo, files: [("android/app/build.gradle", "gradle")])
        let none = relctl(["current"], in: repo.path)
        expectTranscript(["current"], none, matches: "android/gradle-property-no-entry.txt", repo: repo)
        try repo.write(".relctl.json", """
        {"files": [{"path": "android/app/build.gradle", "format": "gradle"},
                   {"path": "android/gradle.properties", "format": "properties", "versionNameKey": "APP_NAME"}]}
        """)
        let lacking = relctl(["current"], in: repo.path)
        expectTranscript(["current"], lacking, matches: "android/gradle-property-entry-without-the-key.txt", repo: repo)
    }
}
