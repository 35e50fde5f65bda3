import Foundation
import Testing
import RelctlCore
@testable import RelctlFiles

// Which version values relctl can write and which it refuses, and `relctl init` adding a file only when sync can
// write every value in it: Gradle script variables and property delegates, the gradle.properties keys a script
// reads, Expo without expo.version, conditional xcconfig settings, test bundles.

@Suite struct GradleLocalVariableTests {
    static let groovyLocals = """
    def VERSION_CODE = 12
    def VERSION_NAME = "1.2.0"

    android {
        defaultConfig {
            versionCode VERSION_CODE
            versionName VERSION_NAME
        }
    }

    """

    static let flutterGroovy = """
    def localProperties = new Properties()
    def flutterVersionCode = localProperties.getProperty('flutter.versionCode')
    if (flutterVersionCode == null) {
        flutterVersionCode = '1'
    }
    def flutterVersionName = localProperties.getProperty('flutter.versionName')

    android {
        defaultConfig {
            versionCode flutterVersionCode.toInteger()
            versionName flutterVersionName
        }
    }

    """

    @Test func aDeclaredNameIsComputedNotAGradleProperty() throws {
        let locations = try GradleEditor().read(Self.groovyLocals, path: "build.gradle")
        #expect(locations.count == 2)
        for location in locations {
            guard case .computed(_, let hint)? = location.indirection else {
                Issue.record("\(location.context ?? "") should be computed, is \(String(describing: location.indirection))")
                continue
            }
            #expect(hint.contains("is a variable declared on line \(location.field == .marketing ? 2 : 1) of this script"), "\(hint)")
        }
        do {
            _ = try GradleEditor().edits(Self.groovyLocals, path: "build.gradle", target: VersionTarget(marketing: "1.3.0", androidBuild: "13"))
            Issue.record("a script variable must not be written")
        } catch {
            #expect(error.line == 6)
        }
        let kotlin = "val VERSION_CODE: Int = 12\nandroid {\n    defaultConfig {\n        versionCode = VERSION_CODE\n    }\n}\n"
        let k = try GradleEditor().read(kotlin, path: "build.gradle.kts")
        #expect(k.count == 1)
        if case .computed? = k.first?.indirection {} else { Issue.record("\(k)") }
        let typed = "int VERSION_CODE = 12\nandroid {\n    defaultConfig {\n        versionCode VERSION_CODE\n    }\n}\n"
        if case .computed? = try GradleEditor().read(typed, path: "build.gradle").first?.indirection {} else { Issue.record("typed local") }
    }

    @Test func undeclaredAndExplicitPropertiesStillFollowGradleProperties() throws {
        let text = "android {\n    defaultConfig {\n        versionCode VERSION_CODE.toInteger()\n        versionName project.property(\"APP_NAME\")\n    }\n}\n"
        let locations = try GradleEditor().read(text, path: "build.gradle")
        #expect(locations.map(\.indirection) == [.gradleProperty("VERSION_CODE"), .gradleProperty("APP_NAME")])
    }

    @Test func flutterTemplateVariablesPointAtPubspec() throws {
        let locations = try GradleEditor().read(Self.flutterGroovy, path: "build.gradle")
        #expect(locations.count == 2)
        for location in locations {
            guard case .computed(_, let hint)? = location.indirection else { Issue.record("\(location)"); continue }
            #expect(hint.contains("pubspec.yaml"), "\(hint)")
        }
    }

    @Test func detectionSkipsAScriptVariableAndTheUnrelatedProperties() throws {
        let project = try TempProject([
            "android/app/build.gradle": Self.groovyLocals,
            "android/gradle.properties": "VERSION_CODE=3\nVERSION_NAME=0.9.0\n",
        ])
        #expect(VersionFileDetection.entries(root: project.root).isEmpty)
    }
}

@Suite struct PropertiesKeyTests {
    @Test func onlyTheConfiguredKeyIsRequired() throws {
        let gradle = "android {\n    defaultConfig {\n        versionCode APP_VERSION_CODE.toInteger()\n        versionName \"2.0.0\"\n    }\n}\n"
        let project = try TempProject([
            "android/app/build.gradle": gradle,
            "android/gradle.properties": try Fixtures.text("properties", "code-only.before"),
        ])
        let detected = VersionFileDetection.entries(root: project.root)
        #expect(detected == [FileEntry(path: "android/app/build.gradle", format: .gradle),
                             FileEntry(path: "android/gradle.properties", format: .properties, options: FileOptions(versionCodeKey: "APP_VERSION_CODE"))])
        let plan = try SyncPlan.make(try CurrentVersions.read(root: project.root, entries: detected), version: "2.1.0", androidBuild: "8")
        try plan.write()
        #expect(try project.text("android/gradle.properties") == (try Fixtures.text("properties", "code-only.after")))
        #expect(try project.text("android/app/build.gradle") == gradle.replacingOccurrences(of: "2.0.0", with: "2.1.0"))
        // Neither key given: both defaults apply.
        let defaults = FileEntry(path: "p", format: .properties).options.propertyKeys
        #expect(defaults.name == "VERSION_NAME" && defaults.code == "VERSION_CODE")
    }
}

@Suite struct DetectionWritableTests {
    @Test func flutterGroovyTemplateLeavesOnlyThePubspec() throws {
        let project = try TempProject([
            "pubspec.yaml": "name: trail\nversion: 1.2.0+12\n",
            "android/app/build.gradle": GradleLocalVariableTests.flutterGroovy,
            "android/gradle.properties": "org.gradle.jvmargs=-Xmx1536M\n",
        ])
        #expect(VersionFileDetection.entries(root: project.root) == [FileEntry(path: "pubspec.yaml", format: .pubspec)])
    }

    @Test func aJSConfigReadingPackageJSONGoesWithIt() throws {
        // `version: pkg.version` is package.json's version: the config (its build number) and package.json are both kept.
        let project = try TempProject([
            "app.config.js": "const pkg = require('./package.json');\nmodule.exports = {\n  version: pkg.version,\n  android: { versionCode: 12 },\n};\n",
            "package.json": "{\"name\": \"x\", \"version\": \"1.0.0\"}",
        ])
        #expect(VersionFileDetection.entries(root: project.root) == [FileEntry(path: "app.config.js", format: .expoJS),
                                                                     FileEntry(path: "package.json", format: .json)])
    }

    @Test func aJSConfigWithAComputedVersionIsLeftOut() throws {
        let project = try TempProject([
            "app.config.js": "module.exports = {\n  version: process.env.APP_VERSION,\n  android: { versionCode: 12 },\n};\n",
            "package.json": "{\"name\": \"x\", \"version\": \"1.0.0\"}",
        ])
        #expect(VersionFileDetection.entries(root: project.root) == [FileEntry(path: "package.json", format: .json)])
    }

    @Test func gradlePropertiesOnlyWithTheKeysItHolds() throws {
        let gradle = "android {\n    defaultConfig {\n        versionCode VERSION_CODE.toInteger()\n        versionName VERSION_NAME\n    }\n}\n"
        let missingName = try TempProject([
            "android/app/build.gradle": gradle,
            "android/gradle.properties": "VERSION_CODE=4\n",
        ])
        // versionName reads a property the file does not hold: sync could not write it, so neither file is added.
        #expect(VersionFileDetection.entries(root: missingName.root).isEmpty)
        let both = try TempProject([
            "android/app/build.gradle": gradle,
            "android/gradle.properties": "VERSION_CODE=4\nVERSION_NAME=1.0.0\n",
        ])
        #expect(VersionFileDetection.entries(root: both.root) == [
            FileEntry(path: "android/app/build.gradle", format: .gradle),
            FileEntry(path: "android/gradle.properties", format: .properties,
                      options: FileOptions(versionNameKey: "VERSION_NAME", versionCodeKey: "VERSION_CODE")),
        ])
    }
}

@Suite struct ExpoWithoutVersionTests {
    @Test func packageJSONHoldsTheVersionAndAppJSONItsBuilds() throws {
        let project = try TempProject([
            "app.json": try Fixtures.text("expo", "no-version.before"),
            "package.json": "{\n  \"name\": \"trail\",\n  \"version\": \"1.0.0\"\n}\n",
        ])
        let entries = [FileEntry(path: "app.json", format: .expo), FileEntry(path: "package.json", format: .json)]
        #expect(VersionFileDetection.entries(root: project.root) == entries)
        let plan = try SyncPlan.make(try CurrentVersions.read(root: project.root, entries: entries), version: "1.1.0", iosBuild: "8", androidBuild: "8")
        try plan.write()
        #expect(try project.text("app.json") == (try Fixtures.text("expo", "no-version.after")))
        #expect(try project.text("package.json").contains("\"version\": \"1.1.0\""))
    }

    @Test func withoutAPackageJSONEntryItIsRefusedWithTheLine() throws {
        let project = try TempProject(["app.json": try Fixtures.text("expo", "no-version.before")])
        do {
            _ = try SyncPlan.make(try CurrentVersions.read(root: project.root, entries: [FileEntry(path: "app.json", format: .expo)]), version: "1.1.0",
                                  iosBuild: "8", androidBuild: "8")
            Issue.record("expected a refusal")
        } catch {
            #expect(error.line == 3)
            #expect(error.message == "no expo.version found")
            #expect(error.hint?.contains("add \"version\" under \"expo\", or list package.json as a json entry") == true)
        }
        // init does not add it alone.
        #expect(VersionFileDetection.entries(root: project.root).isEmpty)
    }
}

@Suite struct XcconfigConditionalTests {
    @Test func aConditionalSettingIsRefusedWithItsLine() throws {
        let text = "// Release\nMARKETING_VERSION = 4.2.0\nMARKETING_VERSION[sdk=macosx*] = 4.2.0\nCURRENT_PROJECT_VERSION = 88\n"
        do {
            _ = try XcconfigEditor().edits(text, path: "Release.xcconfig", target: VersionTarget(marketing: "4.3.0", iosBuild: "89"))
            Issue.record("a conditional setting must not be skipped")
        } catch {
            #expect(error.line == 3)
            #expect(error.message == "conditional setting MARKETING_VERSION[sdk=macosx*]; relctl edits unconditional settings only")
            #expect(error.hint?.contains("use a regex entry") == true)
        }
        // Reading still reports the unconditional values (for `current`), and a build-only target is fine.
        #expect(try XcconfigEditor().read(text, path: "Release.xcconfig").map(\.value) == ["4.2.0", "88"])
        #expect(try XcconfigEditor().edits(text, path: "Release.xcconfig", target: VersionTarget(iosBuild: "89")).count == 1)
    }
}

@Suite struct DetectionTestBundleTests {
    @Test func testBundlePlistsAreSkipped() throws {
        let literal = try Fixtures.text("plist", "literal-crlf-no-final-newline.before")
        let bundle = literal.replacingOccurrences(of: "<dict>", with: "<dict>\n\t<key>CFBundlePackageType</key>\n\t<string>BNDL</string>")
        #expect(bundle != literal)
        let project = try TempProject([
            "ios/App/Info.plist": literal,
            "ios/AppTests/Info.plist": literal,
            "ios/AppUITests/Info.plist": literal,
            "ios/Checks/Info.plist": bundle,
        ])
        #expect(VersionFileDetection.entries(root: project.root) == [FileEntry(path: "ios/App/Info.plist", format: .plist)])
    }
}

@Suite struct GradlePropertyDelegateTests {
    @Test func aProjectDelegateReadsTheGradleProperty() throws {
        let text = """
        val VERSION_CODE: String by project
        val VERSION_NAME by rootProject
        android {
            defaultConfig {
                versionCode = VERSION_CODE.toInt()
                versionName = VERSION_NAME
            }
        }

        """
        let locations = try GradleEditor().read(text, path: "build.gradle.kts")
        #expect(locations.map(\.indirection) == [.gradleProperty("VERSION_CODE"), .gradleProperty("VERSION_NAME")])
        let settings = "val APP_CODE: String? by settings\nandroid {\n    defaultConfig {\n        versionCode = APP_CODE.toInteger()\n    }\n}\n"
        #expect(try GradleEditor().read(settings, path: "build.gradle.kts").map(\.indirection) == [.gradleProperty("APP_CODE")])
        // Other delegates and declarations stay script values.
        for declaration in ["val VERSION_CODE: String by extra", "val VERSION_CODE: String by project.extra",
                            "val VERSION_CODE by lazy { \"12\" }", "val VERSION_CODE: String = \"12\""] {
            let local = declaration + "\nandroid {\n    defaultConfig {\n        versionCode = VERSION_CODE.toInt()\n    }\n}\n"
            guard case .computed(_, let hint)? = try GradleEditor().read(local, path: "build.gradle.kts").first?.indirection else {
                Issue.record("\(declaration) must be computed"); continue
            }
            #expect(hint.contains("is a variable declared on line 1"), "\(declaration): \(hint)")
        }
    }

    @Test func syncWritesTheBuildFileAndGradleProperties() throws {
        let project = try TempProject([
            "android/app/build.gradle.kts": try Fixtures.text("gradle", "kotlin-property-delegate.before"),
            "android/gradle.properties": try Fixtures.text("properties", "kotlin-delegate.before"),
        ])
        let entries = [FileEntry(path: "android/app/build.gradle.kts", format: .gradle),
                       FileEntry(path: "android/gradle.properties", format: .properties, options: FileOptions(versionCodeKey: "VERSION_CODE"))]
        let plan = try SyncPlan.make(try CurrentVersions.read(root: project.root, entries: entries), version: "1.5.0", androidBuild: "42")
        try plan.write()
        #expect(try project.text("android/app/build.gradle.kts") == Fixtures.text("gradle", "kotlin-property-delegate.after"))
        #expect(try project.text("android/gradle.properties") == Fixtures.text("properties", "kotlin-delegate.after"))
    }

    @Test func detectionAddsThePropertiesEntryWithTheDelegatedKey() throws {
        let project = try TempProject([
            "android/app/build.gradle.kts": try Fixtures.text("gradle", "kotlin-property-delegate.before"),
            "android/gradle.properties": try Fixtures.text("properties", "kotlin-delegate.before"),
        ])
        #expect(VersionFileDetection.entries(root: project.root) == [
            FileEntry(path: "android/app/build.gradle.kts", format: .gradle),
            FileEntry(path: "android/gradle.properties", format: .properties, options: FileOptions(versionCodeKey: "VERSION_CODE")),
        ])
    }
}

@Suite struct DetectionConditionalXcconfigTests {
    @Test func anXcconfigSyncRefusesIsNotDetected() throws {
        let project = try TempProject([
            "Config/Debug.xcconfig": "MARKETING_VERSION = 4.2.0\nCURRENT_PROJECT_VERSION = 88\n",
            "Config/Release.xcconfig": "MARKETING_VERSION = 4.2.0\nMARKETING_VERSION[sdk=macosx*] = 4.2.0\nCURRENT_PROJECT_VERSION = 88\n",
            // A conditional build number without an unconditional one is never asked for, so sync writes this file.
            "Config/Mac.xcconfig": "MARKETING_VERSION = 4.2.0\nCURRENT_PROJECT_VERSION[sdk=macosx*] = 7\n",
        ])
        let detected = VersionFileDetection.entries(root: project.root)
        #expect(detected == [FileEntry(path: "Config/Debug.xcconfig", format: .xcconfig),
                             FileEntry(path: "Config/Mac.xcconfig", format: .xcconfig)])
        // What init keeps, sync writes.
        let plan = try SyncPlan.make(try CurrentVersions.read(root: project.root, entries: detected), version: "4.3.0", iosBuild: "89")
        #expect(plan.changes.filter(\.isChanged).map(\.path) == detected.map(\.path))
    }
}
