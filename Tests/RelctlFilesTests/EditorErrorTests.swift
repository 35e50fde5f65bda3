import Testing
import RelctlCore
@testable import RelctlFiles

/// An error case: editing `text` with `target` must fail with this line and message fragment.
struct ErrorCase: CustomTestStringConvertible, Sendable {
    var label: String
    var path: String
    var format: FileFormat
    var options = FileOptions()
    var text: String
    var target: VersionTarget
    var line: Int?
    var fragment: String
    var hintFragment: String? = nil

    var testDescription: String { label }
}

@Suite struct EditorErrorTests {
    static let cases: [ErrorCase] = [
        ErrorCase(label: "expo-js computed version", path: "app.config.js", format: .expoJS,
                  text: "const pkg = require('./package.json');\nmodule.exports = {\n  expo: {\n    version: process.env.APP_VERSION,\n  },\n};\n",
                  target: VersionTarget(marketing: "1.2.0"), line: 4,
                  fragment: "expo.version is a computed value (process . env . APP_VERSION)", hintFragment: "move the version to app.json or package.json"),
        ErrorCase(label: "expo-js template with interpolation", path: "app.config.ts", format: .expoJS,
                  text: "export default {\n  version: `${MAJOR}.0.0`,\n};\n",
                  target: VersionTarget(marketing: "1.2.0"), line: 2, fragment: "version is a computed value"),
        ErrorCase(label: "expo-js two versions", path: "app.config.js", format: .expoJS,
                  text: "export default {\n  expo: { version: '1.0.0' },\n  version: '1.0.0',\n};\n",
                  target: VersionTarget(marketing: "1.2.0"), line: 3, fragment: "version is set more than once (lines 2, 3)"),
        ErrorCase(label: "expo-js marked line with two literals", path: "app.config.js", format: .expoJS,
                  text: "const V = ['1.0.0', '2'] // relctl-version\n",
                  target: VersionTarget(marketing: "1.2.0"), line: 1, fragment: "exactly one string or number literal (found 2)"),
        ErrorCase(label: "gradle ambiguous versionCode", path: "app/build.gradle", format: .gradle,
                  text: "android {\n    defaultConfig {\n        versionCode 3\n        versionName \"1.0\"\n        versionCode 4\n    }\n}\n",
                  target: VersionTarget(androidBuild: "5"), line: 5,
                  fragment: "versionCode in android { defaultConfig { … } } is set more than once (lines 3, 5)"),
        ErrorCase(label: "gradle computed versionCode", path: "app/build.gradle.kts", format: .gradle,
                  text: "android {\n  defaultConfig {\n    versionCode = (canonicalVersionCode * maxHotfixVersions) + currentHotfixVersion\n  }\n}\n",
                  target: VersionTarget(androidBuild: "5"), line: 3,
                  fragment: "versionCode is a computed value", hintFragment: "gradle.properties"),
        ErrorCase(label: "gradle flutter.versionCode", path: "android/app/build.gradle.kts", format: .gradle,
                  text: "android {\n    defaultConfig {\n        versionCode = flutter.versionCode\n        versionName = flutter.versionName\n    }\n}\n",
                  target: VersionTarget(marketing: "1.0.0"), line: 4,
                  fragment: "versionName is a computed value (flutter.versionName)", hintFragment: "pubspec"),
        ErrorCase(label: "version catalog rich version", path: "gradle/libs.versions.toml", format: .versionCatalog,
                  options: FileOptions(versionNameKey: "appVersion"),
                  text: "[versions]\nagp = \"8.5.0\"\nappVersion = { strictly = \"1.2.0\" }\n",
                  target: VersionTarget(marketing: "1.3.0"), line: 3, fragment: "appVersion is a computed value ({ strictly = \"1.2.0\" })",
                  hintFragment: "rich version"),
        ErrorCase(label: "version catalog missing key", path: "gradle/libs.versions.toml", format: .versionCatalog,
                  options: FileOptions(versionNameKey: "appVersion", versionCodeKey: "appCode"),
                  text: "[versions]\nappVersion = \"1.2.0\"\n\n[libraries]\nappCode = \"3\"\n",
                  target: VersionTarget(marketing: "1.3.0", androidBuild: "4"), line: nil, fragment: "no key appCode in [versions] found"),
        ErrorCase(label: "gradle missing versionCode", path: "app/build.gradle", format: .gradle,
                  text: "android {\n    defaultConfig {\n        versionName \"1.0\"\n    }\n    productFlavors { free { versionCode 3 } }\n}\n",
                  target: VersionTarget(androidBuild: "9"), line: nil, fragment: "no versionCode in android { defaultConfig { … } } found"),
        ErrorCase(label: "package.json missing key", path: "package.json", format: .json,
                  text: "{\n  \"name\": \"x\"\n}\n", target: VersionTarget(marketing: "1.0.0"), line: nil,
                  fragment: "missing key version"),
        ErrorCase(label: "package.json unparsable", path: "package.json", format: .json,
                  text: "{\n  \"name\": \"x\",\n}\n", target: VersionTarget(marketing: "1.0.0"), line: 2,
                  fragment: "cannot parse JSON: trailing comma"),
        ErrorCase(label: "app.json duplicate key", path: "app.json", format: .expo,
                  text: "{\n  \"expo\": {\n    \"version\": \"1.0.0\",\n    \"version\": \"1.1.0\",\n  }\n}\n",
                  target: VersionTarget(marketing: "1.2.0"), line: 4, fragment: "duplicate key version (also at line 3)"),
        ErrorCase(label: "app.json number buildNumber cannot hold dotted value", path: "app.json", format: .expo,
                  text: "{\"expo\": {\"version\": \"1.0.0\", \"ios\": {\"buildNumber\": 14}}}",
                  target: VersionTarget(iosBuild: "1.0.1"), line: 1, fragment: "is a number in the file"),
        ErrorCase(label: "app.json missing buildNumber", path: "app.json", format: .expo,
                  text: "{\"expo\": {\"version\": \"1.0.0\"}}", target: VersionTarget(iosBuild: "3"), line: nil,
                  fragment: "no expo.ios.buildNumber found"),
        ErrorCase(label: "pubspec two top-level versions", path: "pubspec.yaml", format: .pubspec,
                  text: "name: a\nversion: 1.0.0+1\nversion: 1.0.1+2\n", target: VersionTarget(marketing: "1.1.0"), line: 3,
                  fragment: "top-level version: appears more than once (lines 2, 3)"),
        ErrorCase(label: "pubspec missing version", path: "pubspec.yaml", format: .pubspec,
                  text: "name: a\nisar_version: 3.1.0+1\n", target: VersionTarget(marketing: "1.1.0"), line: nil,
                  fragment: "missing top-level version: key"),
        ErrorCase(label: "pubspec platform builds differ", path: "pubspec.yaml", format: .pubspec,
                  text: "version: 1.0.0+1\n", target: VersionTarget(iosBuild: "2", androidBuild: "3"), line: nil,
                  fragment: "one build number for both platforms"),
        ErrorCase(label: "regex two matches", path: "Version.swift", format: .regex,
                  options: FileOptions(pattern: #""(?<version>\d+\.\d+\.\d+)""#),
                  text: "let a = \"1.0.0\"\nlet b = \"2.0.0\"\n", target: VersionTarget(marketing: "1.1.0"), line: 2,
                  fragment: "pattern matches 2 times (lines 1, 2), expected exactly one"),
        ErrorCase(label: "pbxproj unknown target", path: "App.xcodeproj/project.pbxproj", format: .pbxproj,
                  options: FileOptions(targets: ["Nope"]),
                  text: "{ objects = { T1 = { isa = PBXNativeTarget; name = App; productType = \"com.apple.product-type.application\"; }; }; }",
                  target: VersionTarget(marketing: "1.1.0"), line: nil, fragment: "no target named Nope", hintFragment: "App"),
        ErrorCase(label: "pbxproj unparsable", path: "App.xcodeproj/project.pbxproj", format: .pbxproj,
                  text: "{\n objects = {\n  T1 = { isa = PBXNativeTarget\n };\n}", target: VersionTarget(marketing: "1.1.0"), line: 4,
                  fragment: "cannot parse project.pbxproj: expected ';'"),
        ErrorCase(label: "plist value is not a string", path: "Info.plist", format: .plist,
                  text: "<plist><dict>\n<key>CFBundleVersion</key>\n<integer>3</integer>\n</dict></plist>\n",
                  target: VersionTarget(iosBuild: "4"), line: 2, fragment: "CFBundleVersion is not followed by a <string> value"),
        ErrorCase(label: "xcconfig duplicate", path: "Build.xcconfig", format: .xcconfig,
                  text: "MARKETING_VERSION = 1.0\nMARKETING_VERSION = 1.1\n", target: VersionTarget(marketing: "2.0"), line: 2,
                  fragment: "MARKETING_VERSION is set more than once"),
        ErrorCase(label: "properties missing key", path: "gradle.properties", format: .properties,
                  text: "VERSION_NAME=1.0\n", target: VersionTarget(marketing: "1.1", androidBuild: "4"), line: nil,
                  fragment: "no key VERSION_CODE found"),
    ]

    @Test(arguments: cases)
    func refuses(_ c: ErrorCase) {
        let editor = FileEntry(path: c.path, format: c.format, options: c.options).editor
        do {
            let edits = try editor.edits(c.text, path: c.path, target: c.target)
            Issue.record("expected an error, got edits \(edits)")
        } catch {
            #expect(error.path == c.path)
            #expect(error.line == c.line, "\(error)")
            #expect(error.message.contains(c.fragment), "\(error.message)")
            if let h = c.hintFragment { #expect(error.hint?.contains(h) == true, "\(error.hint ?? "no hint")") }
            let prefix = c.line.map { "\(c.path):\($0): " } ?? "\(c.path): "
            #expect(error.description.hasPrefix(prefix), "\(error.description)")
        }
    }

    @Test func gradlePropertyReferencesAreReportedNotEdited() throws {
        let text = """
        android {
            defaultConfig {
                versionCode Integer.parseInt(APP_VERSION_CODE)
                versionName project.property("APP_VERSION_NAME")
            }
        }
        """
        let editor = GradleEditor()
        let locations = try editor.read(text, path: "build.gradle")
        #expect(locations.map(\.indirection) == [.gradleProperty("APP_VERSION_CODE"), .gradleProperty("APP_VERSION_NAME")])
        #expect(locations.map(\.line) == [3, 4])
        #expect(try editor.edits(text, path: "build.gradle", target: VersionTarget(marketing: "2.0", androidBuild: "5")).isEmpty)

        let kts = "android {\n  defaultConfig {\n    versionCode = providers.gradleProperty(\"VC\").get().toInt()\n    versionName = VN.toString()\n  }\n}\n"
        let k = try GradleEditor().read(kts, path: "build.gradle.kts")
        #expect(k.map(\.indirection) == [.gradleProperty("VC"), .gradleProperty("VN")])
    }

    @Test func computedValuesAreReadableButNotEditable() throws {
        let text = "android {\n    defaultConfig {\n        versionCode 1\n        versionName computeName()\n    }\n}\n"
        let locations = try GradleEditor().read(text, path: "build.gradle")
        #expect(locations.count == 2)
        guard case .computed(let expression, _)? = locations[1].indirection else {
            Issue.record("expected a computed indirection, got \(String(describing: locations[1].indirection))")
            return
        }
        #expect(expression == "computeName()")
        // Only the literal versionCode is requested: fine.
        let edits = try GradleEditor().edits(text, path: "build.gradle", target: VersionTarget(androidBuild: "2"))
        #expect(applying(edits, to: text) == text.replacingOccurrences(of: "versionCode 1", with: "versionCode 2"))
    }

    @Test func plistIndirectionIsReportedWithNotice() throws {
        let text = try Fixtures.text("plist", "react-native-indirection.before")
        let locations = try PlistEditor().read(text, path: "Info.plist")
        #expect(locations.map(\.indirection) == [.buildSetting("MARKETING_VERSION"), .buildSetting("CURRENT_PROJECT_VERSION")])
        #expect(locations[0].notice?.contains("project.pbxproj") == true)
        #expect(locations.map(\.line) == [10, 14])
    }

    @Test func pbxprojFlutterReportsIndirectionsAndKeepsTestTargetOut() throws {
        let text = try Fixtures.text("pbxproj", "flutter.before")
        let configs = try PbxprojEditor().configurations(text, path: "project.pbxproj")
        #expect(configs.map(\.target) == ["Runner", "Runner", "Runner"])
        #expect(configs.map(\.configuration) == ["Debug", "Release", "Profile"])
        #expect(configs.allSatisfy { $0.build?.indirection == .buildSetting("FLUTTER_BUILD_NUMBER") })
        // Naming the test target explicitly selects it.
        let tests = try PbxprojEditor(targets: ["RunnerTests"]).read(text, path: "project.pbxproj")
        #expect(Set(tests.map(\.value)) == ["1.0", "1"])
    }

    @Test func pbxprojMissingSettingInSelectedTargetIsAnError() throws {
        let text = try Fixtures.text("pbxproj", "react-native.before")
        #expect(throws: FileEditError.self) {
            try PbxprojEditor(targets: ["TrailheadTests"]).edits(text, path: "p", target: VersionTarget(marketing: "2.0"))
        }
    }
}

@Suite struct EditorEdgeCaseTests {
    @Test func expoJSFunctionConfigWithReturnBlock() throws {
        let text = "module.exports = ({ config }) => {\n  return {\n    ...config,\n    version: \"1.0.0\", // shown in settings\n  };\n};\n"
        let edits = try ExpoJSEditor().edits(text, path: "app.config.js", target: VersionTarget(marketing: "1.1.0"))
        #expect(applying(edits, to: text) == text.replacingOccurrences(of: "\"1.0.0\"", with: "\"1.1.0\""))
    }

    @Test func kotlinFlavorsAndBuildTypesNeverMatch() throws {
        let text = """
        android {
          defaultConfig {
            versionCode = 41
          }
          productFlavors {
            create("free") {
              versionCode = 3
              versionName = "free"
            }
          }
        }
        """
        let locations = try GradleEditor().read(text, path: "build.gradle.kts")
        #expect(locations.map(\.value) == ["41"])
        let edits = try GradleEditor().edits(text, path: "build.gradle.kts", target: VersionTarget(androidBuild: "42"))
        #expect(applying(edits, to: text) == text.replacingOccurrences(of: "versionCode = 41", with: "versionCode = 42"))
    }

    @Test func json5SingleQuotesAreKept() throws {
        let text = "{ expo: { version: '1.0.0', }, }"
        let edits = try ExpoJSONEditor().edits(text, path: "app.json", target: VersionTarget(marketing: "1.2.0"))
        #expect(applying(edits, to: text) == "{ expo: { version: '1.2.0', }, }")
    }

    @Test func applyingKeepsBytesOutsideEdits() {
        let text = "a\té\r\nb"
        let result = applying([TextEdit(range: 1..<2, replacement: "  "), TextEdit(range: 6..<7, replacement: "B")], to: text)
        #expect(result == "a  é\r\nB")
    }
}

@Suite("Hostile input")
struct HostileInputTests {
    @Test func deeplyNestedProjectFileIsAnErrorNotACrash() throws {
        let text = "// !$*UTF8*$!\n{ a = " + String(repeating: "(", count: 100_000) + "\n}\n"
        let entry = FileEntry(path: "ios/A.xcodeproj/project.pbxproj", format: .pbxproj, options: FileOptions())
        let error = #expect(throws: FileEditError.self) { try entry.editor.read(text, path: entry.path) }
        #expect(error?.message.contains("nesting deeper than") == true, "\(String(describing: error))")
    }
}

@Suite("Properties without a separator")
struct PropertiesSeparatorTests {
    @Test func aKeyAloneIsRefusedInsteadOfGluingTheValueToIt() throws {
        let editor = PropertiesEditor(versionNameKey: "APP_VERSION_NAME", versionCodeKey: nil)
        let error = #expect(throws: FileEditError.self) {
            try editor.edits("org.gradle.jvmargs=-Xmx4096M\nAPP_VERSION_NAME\n", path: "gradle.properties", target: VersionTarget(marketing: "1.3.0"))
        }
        #expect(error?.line == 2)
        #expect(error?.message == "APP_VERSION_NAME has no value and no '='")
        // With a separator, an empty value is filled in.
        let edits = try editor.edits("APP_VERSION_NAME=\n", path: "gradle.properties", target: VersionTarget(marketing: "1.3.0"))
        #expect(applying(edits, to: "APP_VERSION_NAME=\n") == "APP_VERSION_NAME=1.3.0\n")
    }
}

@Suite("Edge values from fuzzing")
struct FuzzedEdgeTests {
    @Test func aBuildNumberAtTheLargestIntegerIsAnErrorNotATrap() {
        let error = #expect(throws: StoreRuleViolation.self) {
            try BuildNumberPolicy.next(strategy: .increment, currentIOS: "9223372036854775807", currentAndroid: nil,
                                       version: "1.1.0", environment: [:])
        }
        #expect(error?.message.contains("cannot be incremented") == true, "\(String(describing: error))")
    }

    @Test func insertionsAtOneOffsetKeepTheirOrder() {
        let edits = [TextEdit(range: 9..<9, replacement: "1.5.0"), TextEdit(range: 9..<9, replacement: "+58")]
        #expect(applying(edits, to: "version: \n") == "version: 1.5.0+58\n")
        #expect(applying(edits.reversed(), to: "version: \n") == "version: +581.5.0\n")
    }
}
