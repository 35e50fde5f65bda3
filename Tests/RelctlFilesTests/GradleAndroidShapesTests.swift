import Testing
@testable import RelctlFiles

/// The ways real build scripts reach `android { defaultConfig { … } }`, set variant outputs, fall back to a literal
/// and read a version catalog, as the Gradle editor reads and edits them.
@Suite struct GradleAndroidShapesTests {
    struct Reach: CustomTestStringConvertible, Sendable {
        var name: String
        var path: String
        var text: String
        var testDescription: String { name }
    }

    static let defaultConfigKotlin = "defaultConfig {\n        versionCode = 7\n        versionName = \"1.7.0\"\n    }"

    static let reaches: [Reach] = [
        Reach(name: "android block", path: "app/build.gradle.kts", text: "android {\n    \(defaultConfigKotlin)\n}\n"),
        Reach(name: "android.defaultConfig block", path: "app/build.gradle.kts",
              text: "android.defaultConfig {\n    versionCode = 7\n    versionName = \"1.7.0\"\n}\n"),
        Reach(name: "dotted assignments", path: "app/build.gradle.kts",
              text: "android.defaultConfig.versionCode = 7\nandroid.defaultConfig.versionName = \"1.7.0\"\n"),
        Reach(name: "defaultConfig dotted inside android", path: "app/build.gradle",
              text: "android {\n    defaultConfig.versionCode = 7\n    defaultConfig.versionName = '1.7.0'\n}\n"),
        Reach(name: "configure<ApplicationExtension>", path: "app/build.gradle.kts",
              text: "configure<ApplicationExtension> {\n    \(defaultConfigKotlin)\n}\n"),
        Reach(name: "extensions.configure<BaseAppModuleExtension>", path: "app/build.gradle.kts",
              text: "extensions.configure<com.android.build.gradle.internal.dsl.BaseAppModuleExtension> {\n    \(defaultConfigKotlin)\n}\n"),
        Reach(name: "extensions.configure(ApplicationExtension::class.java)", path: "app/build.gradle.kts",
              text: "extensions.configure(com.android.build.api.dsl.ApplicationExtension::class.java) {\n    \(defaultConfigKotlin)\n}\n"),
        Reach(name: "getByType<ApplicationExtension>().apply", path: "app/build.gradle.kts",
              text: "extensions.getByType<ApplicationExtension>().apply {\n    \(defaultConfigKotlin)\n}\n"),
        Reach(name: "the<ApplicationExtension>().run", path: "app/build.gradle.kts",
              text: "the<ApplicationExtension>().run {\n    \(defaultConfigKotlin)\n}\n"),
        Reach(name: "with(android)", path: "app/build.gradle.kts", text: "with(android) {\n    \(defaultConfigKotlin)\n}\n"),
        Reach(name: "android.apply", path: "app/build.gradle.kts", text: "android.apply {\n    \(defaultConfigKotlin)\n}\n"),
        Reach(name: "convention plugin", path: "build-logic/AppPlugin.gradle.kts", text: """
            class AndroidApplicationConventionPlugin : Plugin<Project> {
                override fun apply(target: Project) {
                    with(target) {
                        extensions.configure<ApplicationExtension> {
                            \(defaultConfigKotlin)
                        }
                    }
                }
            }

            """),
        Reach(name: "Groovy project.android", path: "app/build.gradle",
              text: "project.android {\n    defaultConfig {\n        versionCode 7\n        versionName \"1.7.0\"\n    }\n}\n"),
        Reach(name: "Groovy extensions.configure(ApplicationExtension)", path: "app/build.gradle",
              text: "extensions.configure(ApplicationExtension) {\n    defaultConfig {\n        versionCode 7\n        versionName \"1.7.0\"\n    }\n}\n"),
    ]

    @Test(arguments: reaches)
    func androidIsFoundHoweverItIsReached(_ reach: Reach) throws {
        let editor = GradleEditor()
        let locations = try editor.read(reach.text, path: reach.path)
        #expect(locations.map(\.field) == [.androidBuild, .marketing])
        #expect(locations.map(\.value) == ["7", "1.7.0"])
        #expect(locations.allSatisfy { $0.indirection == nil })
        let edited = applying(try editor.edits(reach.text, path: reach.path, target: VersionTarget(marketing: "1.8.0", androidBuild: "8")),
                              to: reach.text)
        let expected = reach.text.replacingOccurrences(of: "1.7.0", with: "1.8.0").replacingOccurrences(of: "versionCode = 7", with: "versionCode = 8")
            .replacingOccurrences(of: "versionCode 7", with: "versionCode 8")
        #expect(edited == expected)
    }

    @Test(arguments: [
        "configure<LibraryExtension> {\n    defaultConfig {\n        versionCode = 7\n    }\n}\n",
        "android {\n    productFlavors {\n        create(\"free\") {\n            versionCode = 7\n        }\n    }\n}\n",
        "extensions.configure<KotlinMultiplatformExtension> {\n    defaultConfig {\n        versionCode = 7\n    }\n}\n",
        "android {\n    // defaultConfig { versionCode = 7 }\n    namespace = \"a.b\"\n}\n",
    ])
    func otherBlocksAreNotTheAppVersion(_ text: String) throws {
        #expect(try GradleEditor().read(text, path: "shared/build.gradle.kts").isEmpty)
    }

    @Test func androidComponentsComputedOutputIsRefusedWithItsLine() throws {
        let text = """
        android {
            defaultConfig {
                versionCode = 52
                versionName = "5.2.0"
            }
        }
        androidComponents {
            onVariants { variant ->
                variant.outputs.forEach { it.versionCode.set(gitCommitCount()) }
            }
        }

        """
        let locations = try GradleEditor().read(text, path: "app/build.gradle.kts")
        #expect(locations.count == 3)
        guard case .computed(let expression, let hint)? = locations.last?.indirection else {
            Issue.record("\(locations)")
            return
        }
        #expect(expression == "gitCommitCount()")
        #expect(locations.last?.line == 9)
        #expect(locations.last?.context == "it.versionCode")
        #expect(hint.contains("androidComponents sets it for the variant outputs"))
        do {
            _ = try GradleEditor().edits(text, path: "app/build.gradle.kts", target: VersionTarget(marketing: "5.3.0", androidBuild: "53"))
            Issue.record("a computed output versionCode must be refused")
        } catch {
            #expect(error.description.hasPrefix("app/build.gradle.kts:9: it.versionCode is a computed value (gitCommitCount()), relctl edits only literals"))
        }
        // Only the version name asked: the computed code is not in the way.
        let name = try GradleEditor().edits(text, path: "app/build.gradle.kts", target: VersionTarget(marketing: "5.3.0"))
        #expect(name.count == 1)
    }

    struct Fallback: CustomTestStringConvertible, Sendable {
        var expression: String
        var path: String
        var field: VersionField
        var literal: String
        var overriddenBy: Indirection
        var testDescription: String { expression }
    }

    static let fallbacks: [Fallback] = [
        Fallback(expression: "(project.findProperty(\"VERSION_CODE\") as String?)?.toInt() ?: 1009", path: "a.gradle.kts",
                 field: .androidBuild, literal: "1009", overriddenBy: .gradleProperty("VERSION_CODE")),
        Fallback(expression: "System.getenv(\"BUILD_NUMBER\")?.toInt() ?: 12", path: "a.gradle.kts", field: .androidBuild, literal: "12",
                 overriddenBy: .computed(expression: "System.getenv(\"BUILD_NUMBER\")", hint: "the environment variable BUILD_NUMBER")),
        Fallback(expression: "(System.getenv(\"BUILD_NUMBER\") ?: \"12\").toInt()", path: "a.gradle.kts", field: .androidBuild, literal: "12",
                 overriddenBy: .computed(expression: "System.getenv(\"BUILD_NUMBER\")", hint: "the environment variable BUILD_NUMBER")),
        Fallback(expression: "providers.gradleProperty(\"appVersion\").getOrElse(\"2.0.0\")", path: "a.gradle.kts", field: .marketing,
                 literal: "2.0.0", overriddenBy: .gradleProperty("appVersion")),
        Fallback(expression: "findProperty(\"VERSION_NAME\")?.toString() ?: \"2.0.0\"", path: "a.gradle.kts", field: .marketing,
                 literal: "2.0.0", overriddenBy: .gradleProperty("VERSION_NAME")),
        Fallback(expression: "project.hasProperty('code') ? project.code.toInteger() : 57", path: "a.gradle", field: .androidBuild,
                 literal: "57", overriddenBy: .gradleProperty("code")),
        Fallback(expression: "readCode() ?: 3", path: "a.gradle.kts", field: .androidBuild, literal: "3",
                 overriddenBy: .computed(expression: "readCode()", hint: "")),
    ]

    @Test(arguments: fallbacks)
    func aLiteralFallbackIsEditedAndTellsWhatOverridesIt(_ c: Fallback) throws {
        let key = c.field == .marketing ? "versionName" : "versionCode"
        let text = "android {\n    defaultConfig {\n        \(key) = \(c.expression)\n    }\n}\n"
        let locations = try GradleEditor().read(text, path: c.path)
        #expect(locations.count == 1)
        #expect(locations.first?.value == c.literal)
        #expect(locations.first?.indirection == nil)
        #expect(locations.first?.overriddenBy == c.overriddenBy)
        let new = c.field == .marketing ? "2.1.0" : "58"
        let target = c.field == .marketing ? VersionTarget(marketing: new) : VersionTarget(androidBuild: new)
        let edits = try GradleEditor().edits(text, path: c.path, target: target)
        #expect(edits.count == 1)
        let edited = applying(edits, to: text)
        #expect(try GradleEditor().read(edited, path: c.path).first?.value == new)
        // Only the literal changed, quotes kept.
        #expect(edited.replacingOccurrences(of: new, with: c.literal) == text)
    }

    @Test(arguments: [
        ("versionCode = if (isCi) 2 else 1", "if (isCi) 2 else 1"),
        ("versionCode = (major * 10000 + minor * 100 + patch)", "(major * 10000 + minor * 100 + patch)"),
        ("versionCode = code ?: other", "code ?: other"),
    ])
    func otherExpressionsAreComputedAndShownAsWritten(_ line: String, _ shown: String) throws {
        let text = "android {\n    defaultConfig {\n        \(line)\n    }\n}\n"
        let location = try #require(try GradleEditor().read(text, path: "b.gradle.kts").first)
        guard case .computed(let expression, _)? = location.indirection else {
            Issue.record("\(location) should be computed")
            return
        }
        #expect(expression == shown)
        #expect(location.value == shown)
    }

    @Test func aFallbackBehindTheLoadedPropertiesFileIsComputedFromThatFile() throws {
        let text = """
        def versionProps = new Properties()
        file('version.properties').withInputStream { versionProps.load(it) }
        android {
            defaultConfig {
                versionCode((versionProps['VERSION_CODE'] ?: '1').toInteger())
            }
        }

        """
        let location = try #require(try GradleEditor().read(text, path: "app/build.gradle").first)
        guard case .computed(let expression, let hint)? = location.indirection else {
            Issue.record("\(location) should be computed")
            return
        }
        #expect(expression == "(versionProps['VERSION_CODE'] ?: '1').toInteger()")
        #expect(hint.contains("the value seems to come from version.properties"))
    }

    @Test func anEnvironmentVariableWithoutFallbackIsRefusedWithAFix() throws {
        let text = "android {\n    defaultConfig {\n        versionCode = System.getenv(\"BUILD_NUMBER\").toInt()\n    }\n}\n"
        do {
            _ = try GradleEditor().edits(text, path: "app/build.gradle.kts", target: VersionTarget(androidBuild: "5"))
            Issue.record("an environment variable must not be reported as written")
        } catch {
            #expect(error.description == "app/build.gradle.kts:3: versionCode is a computed value (System.getenv(\"BUILD_NUMBER\").toInt()), relctl edits only literals (the build reads the environment variable BUILD_NUMBER; add a literal fallback relctl can write, e.g. System.getenv(\"BUILD_NUMBER\")?.toInt() ?: 1, or let CI own the number (buildNumber strategy \"env\" or \"keep\"))")
        }
    }

    @Test func propertyReferencesAreShownAsWritten() throws {
        let text = "android {\n    defaultConfig {\n        versionCode VERSIONCODE as Integer\n        versionName project.property(\"VERSIONNAME\")\n    }\n}\n"
        let locations = try GradleEditor().read(text, path: "app/build.gradle")
        #expect(locations.map(\.value) == ["VERSIONCODE as Integer", "project.property(\"VERSIONNAME\")"])
        #expect(locations.map(\.indirection) == [.gradleProperty("VERSIONCODE"), .gradleProperty("VERSIONNAME")])
    }

    @Test(arguments: [
        ("libs.versions.appVersionName.get()", "app/build.gradle.kts", "appVersionName"),
        ("libs.versions.app.version.get()", "app/build.gradle.kts", "app.version"),
        ("libs.versions.versionCode.get().toInt()", "app/build.gradle.kts", "versionCode"),
        ("libs.versions.versionCode.get().toInteger()", "app/build.gradle", "versionCode"),
        ("Integer.parseInt(libs.versions.version.code.get())", "app/build.gradle", "version.code"),
    ])
    func versionCatalogReferencesAreFollowed(_ expression: String, _ path: String, _ alias: String) throws {
        let kotlin = path.hasSuffix(".kts")
        let text = "android {\n    defaultConfig {\n        versionCode\(kotlin ? " =" : "") \(expression)\n    }\n}\n"
        let locations = try GradleEditor().read(text, path: path)
        #expect(locations.map(\.indirection) == [.versionCatalog(alias)])
        #expect(locations.first?.value == expression)
        // Followed, never edited here.
        #expect(try GradleEditor().edits(text, path: path, target: VersionTarget(androidBuild: "9")).isEmpty)
    }

    @Test func catalogKeysMatchTheWayGradleNamesAccessors() throws {
        let toml = "[versions]\nversionCodeOffset = \"1000\"\n\"app-version\" = \"1.0.0\"\napp_code = '4'\n"
        let editor = VersionCatalogEditor(versionNameKey: "app.version", versionCodeKey: "app-code")
        let locations = try editor.read(toml, path: "gradle/libs.versions.toml")
        #expect(locations.map(\.value) == ["1.0.0", "4"])
        #expect(locations.map(\.line) == [3, 4])
        #expect(VersionCatalogEditor.alias("app-version_name.x") == "app.version.name.x")
        let entry = FileEntry(path: "gradle/libs.versions.toml", format: .versionCatalog,
                              options: FileOptions(versionNameKey: "app-version"))
        #expect(entry.covers(.versionCatalog("app.version"), inFileAt: "app/build.gradle.kts"))
        #expect(!entry.covers(.versionCatalog("appVersion"), inFileAt: "app/build.gradle.kts"))
        #expect(!entry.covers(.gradleProperty("app-version"), inFileAt: "app/build.gradle.kts"))
    }

    @Test func aCatalogKeySetTwiceIsRefused() throws {
        let toml = "[versions]\nappVersion = \"1.0.0\"\n\n[versions]\nappVersion = \"1.1.0\"\n"
        #expect(throws: FileEditError.self) {
            try VersionCatalogEditor(versionNameKey: "appVersion").read(toml, path: "libs.versions.toml")
        }
    }
}
