import Testing
@testable import RelctlFiles

/// Product flavours as the Gradle editor reads them (the ways a flavour is declared, which ones are kept in step with
/// defaultConfig), and the workspace globs and YAML lists `init` reads to find the apps of a monorepo.
@Suite struct GradleFlavorTests {
    static let groovy = """
    android {
        defaultConfig {
            versionCode 57
            versionName "2.4.1"
        }
        flavorDimensions "store"
        productFlavors {
            fdroid {
                dimension "store"
                versionCode 57
            }
            register("nightly") {
                versionCode 9057
            }
            getByName("beta").apply {
                versionName "2.4.1-beta"
            }
        }
        buildTypes {
            release {
                versionNameSuffix "-rel"
            }
        }
    }

    """

    @Test func flavoursHoldingDefaultConfigsValueAreReadWithItOthersAreNot() throws {
        let locations = try GradleEditor().read(Self.groovy, path: "app/build.gradle")
        #expect(locations.map(\.line) == [3, 4, 10])
        #expect(locations.map(\.value) == ["57", "2.4.1", "57"])
    }

    @Test func eachDeclarationFormNamesItsFlavour() throws {
        let own = GradleEditor.ownVersionFlavors(Self.groovy, path: "app/build.gradle")
        #expect(own.map(\.name) == ["nightly", "beta"])
        #expect(own.map(\.build) == ["9057", nil])
        #expect(own.map(\.marketing) == [nil, "2.4.1-beta"])
    }

    @Test func aFlavourEntryWritesOnlyItsOwnValuesByteForByte() throws {
        let parsed = try GradleEditor(flavor: "nightly").parse(Self.groovy, path: "app/build.gradle")
        #expect(parsed.locations.map(\.line) == [13])
        let edits = try parsed.edits(for: VersionTarget(marketing: "2.5.0", androidBuild: "9058"))
        #expect(applying(edits, to: Self.groovy) == Self.groovy.replacingOccurrences(of: "versionCode 9057", with: "versionCode 9058"))
    }

    @Test func theAppsEntryKeepsAnInStepFlavourInStep() throws {
        let parsed = try GradleEditor().parse(Self.groovy, path: "app/build.gradle")
        let edits = try parsed.edits(for: VersionTarget(marketing: "2.5.0", androidBuild: "58"))
        #expect(applying(edits, to: Self.groovy) == Self.groovy.replacingOccurrences(of: "versionCode 57", with: "versionCode 58")
            .replacingOccurrences(of: "versionName \"2.4.1\"", with: "versionName \"2.5.0\""))
    }

    @Test func withoutFlavoursNothingChanges() throws {
        let text = "android {\n    defaultConfig {\n        versionCode = 3\n        versionName = \"1.0\"\n    }\n}\n"
        #expect(GradleEditor.ownVersionFlavors(text, path: "app/build.gradle.kts").isEmpty)
        #expect(throws: FileEditError.self) { try GradleEditor(flavor: "canary").parse(text, path: "app/build.gradle.kts") }
    }

    func applying(_ edits: [TextEdit], to text: String) -> String {
        var bytes = Array(text.utf8)
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            bytes.replaceSubrange(edit.range, with: Array(edit.replacement.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

@Suite struct WorkspaceGlobTests {
    @Test func yamlListsBlockAndInline() {
        #expect(ProjectDetection.yamlList("packages", in: "packages:\n  - 'apps/*'\n  - \"packages/**\" # all\n  - tools\ncatalog:\n  react: 18\n") == ["apps/*", "packages/**", "tools"])
        #expect(ProjectDetection.yamlList("packages", in: "name: x\npackages: [apps/*, 'packages/*']\n") == ["apps/*", "packages/*"])
        #expect(ProjectDetection.yamlList("workspace", in: "name: w\nworkspace:\n- app\n- packages/core\n") == ["app", "packages/core"])
        #expect(ProjectDetection.yamlList("packages", in: "onlyBuiltDependencies:\n  - esbuild\n").isEmpty)
    }

    @Test func wildcardsAndExclusions() {
        #expect(ProjectDetection.wildcard("app-*", "app-driver"))
        #expect(!ProjectDetection.wildcard("app-*", "lib-ui"))
        #expect(ProjectDetection.wildcard("*", "anything"))
        #expect(ProjectDetection.matches("packages/**/test", "packages/a/b/test"))
        #expect(ProjectDetection.matches("apps/legacy", "apps/legacy"))
        #expect(!ProjectDetection.matches("apps/legacy", "apps/legacy-2"))
    }

    @Test func pubspecDependenciesWithPaths() {
        let deps = ProjectDetection.pubspecDependencies("name: a\ndependencies:\n  flutter:\n    sdk: flutter\n  core:\n    path: ../../packages/core\n  http: ^1.2.0\ndev_dependencies:\n  lints:\n    path: '../../packages/lints'\nflutter:\n  uses-material-design: true\n")
        #expect(deps.names == ["flutter", "core", "http", "lints"])
        #expect(deps.paths == ["../../packages/core", "../../packages/lints"])
    }

    @Test func tagFormatsFromTheTagsOfAProject() {
        #expect(ProjectDetection.tagFormat(for: "consumer", tagNames: ["consumer@1.2.0", "consumer@1.3.0", "driver@2.0.0"]).0 == "consumer@{version}")
        #expect(ProjectDetection.tagFormat(for: "driver", tagNames: ["consumer@1.2.0", "v1.0.0"]).0 == "driver-v{version}")
        #expect(ProjectDetection.tagFormat(for: "appa", tagNames: ["APPA-v22.0.0"]).0 == "APPA-v{version}")
        let underscore = ProjectDetection.tagFormat(for: "appb", tagNames: ["APPB_22_0", "APPB_21_3"])
        #expect(underscore.0 == "appb-v{version}")
        #expect(underscore.1?.hasPrefix("tags such as APPB_22_0 hold the version with '_'") == true)
    }
}
