import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// `relctl init` in repositories holding several apps: JavaScript workspaces (pnpm, nx, yarn + turbo), a Flutter melos
// workspace and a Dart pub workspace, two Android apps in one Gradle build, a flavour with its own versionCode, an
// Xcode project with an iOS and a Mac app. Each proposes one project per app, leaves out the workspace root and the
// tooling packages with a line each, and what it writes is what --dry-run showed.

private func projectsOf(_ config: String) throws -> [[String: Any]] {
    let object = try JSONSerialization.jsonObject(with: Data(config.utf8)) as? [String: Any]
    return object?["projects"] as? [[String: Any]] ?? []
}

/// An Expo app's app.json.
private func expoAppJSON(_ name: String, version: String, build: Int) -> String {
    """
    {
      "expo": {
        "name": "\(name.capitalized)",
        "slug": "\(name)",
        "version": "\(version)",
        "orientation": "portrait",
        "ios": {
          "bundleIdentifier": "com.acme.\(name)",
          "buildNumber": "\(build)"
        },
        "android": {
          "package": "com.acme.\(name)",
          "versionCode": \(build)
        }
      }
    }

    """
}

/// A React Native app's android/app/build.gradle.
private func reactNativeGradle(_ id: String, code: Int, name: String) -> String {
    """
    apply plugin: "com.android.application"
    apply plugin: "org.jetbrains.kotlin.android"
    apply plugin: "com.facebook.react"

    android {
        ndkVersion rootProject.ext.ndkVersion
        compileSdk rootProject.ext.compileSdkVersion
        namespace "\(id)"
        defaultConfig {
            applicationId "\(id)"
            minSdkVersion rootProject.ext.minSdkVersion
            targetSdkVersion rootProject.ext.targetSdkVersion
            versionCode \(code)
            versionName "\(name)"
        }
    }

    """
}

@Suite("init: projects of a JavaScript workspace")
struct InitJavaScriptWorkspaceTests {
    /// pnpm: an Expo app and a React Native app using a shared `packages/ui`, an eslint config no app uses, a glob
    /// matching nothing, the root package.json at 0.0.0.
    func pnpmWorkspace() throws -> TestRepository {
        let repo = try TestRepository()
        try repo.write("package.json", """
        {
          "name": "acme-monorepo",
          "version": "0.0.0",
          "private": true,
          "scripts": { "build": "turbo run build", "lint": "turbo run lint" },
          "devDependencies": { "turbo": "^2.0.4", "prettier": "^3.2.5" },
          "packageManager": "pnpm@9.1.0"
        }

        """)
        try repo.write("pnpm-workspace.yaml", "packages:\n  - 'apps/*'\n  - 'packages/*'\n  - 'tools/*' # soon\n")
        try repo.write("apps/consumer/package.json", """
        {
          "name": "@acme/consumer",
          "version": "1.4.0",
          "main": "expo-router/entry",
          "dependencies": { "expo": "~51.0.8", "react-native": "0.74.1", "@acme/ui": "workspace:*" }
        }

        """)
        try repo.write("apps/consumer/app.json", expoAppJSON("consumer", version: "1.4.0", build: 42))
        try repo.write("apps/driver/package.json", """
        {
          "name": "@acme/driver",
          "version": "2.1.0",
          "dependencies": { "react-native": "0.74.1", "@acme/ui": "workspace:^" }
        }

        """)
        try repo.write("apps/driver/android/settings.gradle", "rootProject.name = 'Driver'\ninclude ':app'\nincludeBuild('../../../node_modules/@react-native/gradle-plugin')\n")
        try repo.write("apps/driver/android/app/build.gradle", reactNativeGradle("com.acme.driver", code: 17, name: "2.1.0"))
        try repo.write("packages/ui/package.json", "{\n  \"name\": \"@acme/ui\",\n  \"version\": \"0.3.2\",\n  \"main\": \"src/index.ts\"\n}\n")
        try repo.write("packages/eslint-config/package.json", "{\n  \"name\": \"@acme/eslint-config\",\n  \"version\": \"0.0.0\",\n  \"private\": true\n}\n")
        try repo.commitAll("chore: the workspace")
        return repo
    }

    static let pnpmConfig = """
    {
      "projects": [
        {
          "name": "consumer",
          "path": "apps/consumer",
          "tagFormat": "consumer-v{version}",
          "files": [
            {
              "path": "apps/consumer/app.json",
              "format": "expo"
            },
            {
              "path": "apps/consumer/package.json",
              "format": "json"
            }
          ],
          "changelog": {
            "path": "apps/consumer/CHANGELOG.md"
          },
          "dependsOn": [
            "ui"
          ]
        },
        {
          "name": "driver",
          "path": "apps/driver",
          "tagFormat": "driver-v{version}",
          "files": [
            {
              "path": "apps/driver/package.json",
              "format": "json"
            },
            {
              "path": "apps/driver/android/app/build.gradle",
              "format": "gradle"
            }
          ],
          "changelog": {
            "path": "apps/driver/CHANGELOG.md"
          },
          "dependsOn": [
            "ui"
          ]
        },
        {
          "name": "ui",
          "path": "packages/ui",
          "tagFormat": "ui-v{version}",
          "files": [
            {
              "path": "packages/ui/package.json",
              "format": "json"
            }
          ],
          "changelog": {
            "path": "packages/ui/CHANGELOG.md"
          }
        }
      ],
      "buildNumber": {
        "strategy": "increment",
        "shared": true
      }
    }

    """

    static let pnpmList = """
    project consumer (Expo app) in apps/consumer, tagFormat consumer-v{version}, dependsOn ui
      apps/consumer/app.json                       expo       version 1.4.0, iOS build 42, Android build 42
      apps/consumer/package.json                   json       version 1.4.0
    project driver (React Native app) in apps/driver, tagFormat driver-v{version}, dependsOn ui
      apps/driver/package.json                     json       version 2.1.0
      apps/driver/android/app/build.gradle         gradle     version 2.1.0, Android build 17
    project ui (shared package (version 0.3.2) used by apps/consumer, apps/driver) in packages/ui, tagFormat ui-v{version}
      packages/ui/package.json                     json       version 0.3.2

    """

    static let pnpmLeftOut = """
    note: left out workspace pattern "tools/*" (pnpm-workspace.yaml) matches no package folder
    note: left out package.json (version 0.0.0): the workspace root, not an app
    note: left out packages/eslint-config: a library or tooling package (no app.json/app.config, no android/app or ios/*.xcodeproj, not a Flutter app) that no app depends on

    """

    @Test func pnpmExpoAndReactNativeAppsAreProjectsTheRootAndToolingAreLeftOut() throws {
        let repo = try pnpmWorkspace()
        let before = try repo.snapshot()
        let dry = relctl(["init", "--dry-run"], in: repo.path)
        #expect(dry.code == 0, "\(dry.stderr)")
        #expect(dry.stdout == Self.pnpmList + "\n" + Self.pnpmConfig, "\(dry.stdout)")
        #expect(dry.stderr == "note: found 3 projects (pnpm-workspace.yaml): each with its own version, tags, build numbers and changelog\n"
                 + Self.pnpmLeftOut + "dry run: .relctl.json was not written; run relctl init to write it\n", "\(dry.stderr)")
        #expect(try repo.snapshot() == before)

        let written = relctl(["init"], in: repo.path)
        #expect(written.code == 0, "\(written.stderr)")
        #expect(written.stdout == Self.pnpmList)
        #expect(try repo.read(".relctl.json") == Self.pnpmConfig)
        #expect(written.stderr == "note: found 3 projects (pnpm-workspace.yaml): each with its own version, tags, build numbers and changelog\n"
                 + Self.pnpmLeftOut
                 + "wrote .relctl.json with 3 projects (consumer, driver, ui); check it, then run 'relctl current'\n"
                 + "consumer's files hold 1.4.0; driver's files hold 2.1.0; ui's files hold 0.3.2, and no release tag of theirs is reachable from HEAD: if those versions are in the stores, run 'relctl adopt --project consumer --project driver --project ui' to tag them as the last releases, so the next releases follow them\n"
                 + "next steps:\n  1. commit it: git add .relctl.json && git commit -m \"chore: add relctl config\"\n  2. relctl adopt --project consumer --project driver --project ui (tags the version each app's files hold as its last release, so the next one follows it)\n  3. relctl status (each project: what is released, what comes next)\n  4. relctl release --all --dry-run (the releases due, changing nothing)\n",
                 "\(written.stderr)")
        // The root package.json at 0.0.0 is in no project.
        let config = try repo.read(".relctl.json")
        #expect(!config.contains("\"path\": \"package.json\""))
    }

    @Test func jsonListsTheProjectsAndWhatWasLeftOut() throws {
        let repo = try pnpmWorkspace()
        let result = relctl(["init", "--dry-run", "--json"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        let projects = object["projects"] as? [[String: Any]] ?? []
        #expect(projects.map { $0["name"] as? String } == ["consumer", "driver", "ui"])
        #expect(projects.map { $0["path"] as? String } == ["apps/consumer", "apps/driver", "packages/ui"])
        #expect((object["leftOut"] as? [String])?.count == 3)
        #expect(object["configText"] as? String == Self.pnpmConfig)
    }

    /// nx with `workspaces: {"packages": […]}` (the object form): `apps/expo` (Expo, app.config.ts) and
    /// `apps/main-app` (React Native), `libs/*` with a library no app uses.
    @Test func nxWorkspaceWithTheObjectFormOfWorkspaces() throws {
        let repo = try TestRepository()
        try repo.write("nx.json", "{\n  \"$schema\": \"./node_modules/nx/schemas/nx-schema.json\",\n  \"targetDefaults\": { \"build\": { \"dependsOn\": [\"^build\"] } }\n}\n")
        try repo.write("package.json", "{\n  \"name\": \"@org/source\",\n  \"version\": \"0.0.0\",\n  \"license\": \"MIT\",\n  \"workspaces\": {\n    \"packages\": [\"apps/*\", \"libs/*\"]\n  },\n  \"devDependencies\": { \"nx\": \"19.1.0\" }\n}\n")
        try repo.write("apps/expo/package.json", "{\n  \"name\": \"expo\",\n  \"version\": \"0.0.1\",\n  \"dependencies\": { \"expo\": \"~51.0.8\" }\n}\n")
        try repo.write("apps/expo/app.config.ts", "import { ExpoConfig } from 'expo/config';\n\nconst config: ExpoConfig = {\n  name: 'Field',\n  slug: 'field',\n  version: '3.2.0',\n  ios: { buildNumber: '88' },\n  android: { versionCode: 88 },\n};\n\nexport default config;\n")
        try repo.write("apps/main-app/package.json", "{\n  \"name\": \"main-app\",\n  \"version\": \"5.0.1\",\n  \"dependencies\": { \"react-native\": \"0.74.1\" }\n}\n")
        try repo.write("apps/main-app/android/settings.gradle", "rootProject.name = 'MainApp'\ninclude ':app'\n")
        try repo.write("apps/main-app/android/app/build.gradle", reactNativeGradle("com.org.main", code: 501, name: "5.0.1"))
        try repo.write("libs/utils/package.json", "{\n  \"name\": \"@org/utils\",\n  \"version\": \"0.0.1\"\n}\n")
        try repo.commitAll("chore: nx")
        let (result, transcript) = goldenRun(repo, ["init"])
        #expect(result.code == 0, "\(result.stderr)")
        let configText = try repo.read(".relctl.json")
        let projects = try projectsOf(configText)
        #expect(projects.map { $0["name"] as? String } == ["expo", "main-app"])
        #expect(projects.map { ($0["files"] as? [[String: Any]])?.compactMap { $0["path"] as? String } } == [
            ["apps/expo/app.config.ts"], ["apps/main-app/package.json", "apps/main-app/android/app/build.gradle"],
        ], "\(configText)")
        // The notes: the projects found, and why the root, the library and the Expo app's package.json are left out.
        Golden.expect(transcript, matches: "init/projects-nx-object-workspaces.txt")
    }

    /// yarn workspaces (the array form) with turbo: one Expo app in apps/, found although the root is no app. The
    /// repository is that app: the single-app config names its files, so a fix in packages/config (which the app
    /// ships) counts for it, and the next release follows.
    @Test func yarnAndTurboWithOneAppMakeTheSingleAppConfigAndEveryCommitCounts() throws {
        let repo = try TestRepository()
        try repo.write("turbo.json", "{\n  \"$schema\": \"https://turbo.build/schema.json\",\n  \"tasks\": { \"build\": {} }\n}\n")
        try repo.write("package.json", "{\n  \"name\": \"shop\",\n  \"version\": \"0.0.0\",\n  \"private\": true,\n  \"workspaces\": [\"apps/*\", \"packages/*\"]\n}\n")
        try repo.write("apps/mobile/package.json", "{\n  \"name\": \"mobile\",\n  \"version\": \"1.0.0\",\n  \"dependencies\": { \"expo\": \"~51.0.8\", \"@shop/config\": \"*\" }\n}\n")
        try repo.write("apps/mobile/app.json", expoAppJSON("mobile", version: "1.0.0", build: 7))
        try repo.write("packages/config/package.json", "{\n  \"name\": \"@shop/config\",\n  \"version\": \"1.2.0\"\n}\n")
        try repo.commitAll("chore: yarn")
        let result = relctl(["init"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == "apps/mobile/app.json                         expo       version 1.0.0, iOS build 7, Android build 7\napps/mobile/package.json                     json       version 1.0.0\n", "\(result.stdout)")
        #expect(result.stderr.hasPrefix("note: one app in the workspace (package.json workspaces, turbo.json): apps/mobile (Expo app); every commit of the repository counts for it, the workspace's packages included (with several apps, 'projects' gives each its own version)\n"), "\(result.stderr)")
        let config = try #require(try JSONSerialization.jsonObject(with: Data(try repo.read(".relctl.json").utf8)) as? [String: Any])
        #expect(config["projects"] == nil)
        #expect((config["files"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == ["apps/mobile/app.json", "apps/mobile/package.json"])

        // Following the advice: commit the config, adopt 1.0.0, then a fix in the shared package releases 1.0.1.
        try repo.commitAll("chore: add relctl config")
        let adopted = relctl(["adopt"], in: repo.path, environment: repo.goldenEnvironment())
        #expect(adopted.code == 0, "\(adopted.stderr)")
        try repo.write("packages/config/index.js", "module.exports = { retries: 3 };\n")
        try repo.commitAll("fix(config): retry the checkout request")
        let next = relctl(["next"], in: repo.path)
        #expect(next.code == 0, "\(next.stderr)")
        #expect(next.stdout == "1.0.1\n")
    }

    /// A package an app uses through another package (consumer → @acme/feature-home → @acme/ui) is a dependency of
    /// the app too: a fix in packages/ui counts for both apps.
    @Test func aPackageUsedThroughAnotherCountsForTheApp() throws {
        let repo = try TestRepository()
        try repo.write("pnpm-workspace.yaml", "packages:\n  - 'apps/*'\n  - 'packages/*'\n")
        try repo.write("package.json", "{\n  \"name\": \"acme\",\n  \"private\": true\n}\n")
        try repo.write("apps/consumer/package.json", "{\n  \"name\": \"consumer\",\n  \"version\": \"2.0.0\",\n  \"dependencies\": { \"expo\": \"~51.0.8\", \"@acme/feature-home\": \"workspace:*\" }\n}\n")
        try repo.write("apps/consumer/app.json", expoAppJSON("consumer", version: "2.0.0", build: 20))
        try repo.write("apps/driver/package.json", "{\n  \"name\": \"driver\",\n  \"version\": \"0.4.0\",\n  \"dependencies\": { \"expo\": \"~51.0.8\", \"@acme/ui\": \"workspace:*\" }\n}\n")
        try repo.write("apps/driver/app.json", expoAppJSON("driver", version: "0.4.0", build: 4))
        try repo.write("packages/feature-home/package.json", "{\n  \"name\": \"@acme/feature-home\",\n  \"version\": \"1.0.0\",\n  \"dependencies\": { \"@acme/ui\": \"workspace:*\" }\n}\n")
        try repo.write("packages/ui/package.json", "{\n  \"name\": \"@acme/ui\",\n  \"version\": \"1.2.0\"\n}\n")
        try repo.commitAll("chore: workspace")
        let result = relctl(["init"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        let projects = try projectsOf(try repo.read(".relctl.json"))
        let dependsOn = Dictionary(uniqueKeysWithValues: projects.compactMap { project in
            (project["name"] as? String).map { ($0, (project["dependsOn"] as? [String]) ?? []) }
        })
        #expect(dependsOn["consumer"]?.sorted() == ["feature-home", "ui"], "\(dependsOn)")
        #expect(dependsOn["driver"] == ["ui"], "\(dependsOn)")
        #expect(!result.stderr.contains("packages/ui: a library or tooling package"), "\(result.stderr)")
    }

    /// A React Native app at the root with workspace packages beside it is one app: the single-app config as before.
    @Test func anAppAtTheWorkspaceRootKeepsTheSingleAppConfig() throws {
        let repo = try TestRepository()
        try repo.write("package.json", "{\n  \"name\": \"rider\",\n  \"version\": \"3.1.0\",\n  \"workspaces\": [\"packages/*\"],\n  \"dependencies\": { \"react-native\": \"0.74.1\", \"@rider/ui\": \"*\" }\n}\n")
        try repo.write("android/settings.gradle", "rootProject.name = 'Rider'\ninclude ':app'\n")
        try repo.write("android/app/build.gradle", reactNativeGradle("com.rider", code: 310, name: "3.1.0"))
        try repo.write("packages/ui/package.json", "{\n  \"name\": \"@rider/ui\",\n  \"version\": \"1.0.0\"\n}\n")
        try repo.commitAll("chore: rider")
        let result = relctl(["init"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == "package.json                                 json       version 3.1.0\nandroid/app/build.gradle                     gradle     version 3.1.0, Android build 310\n", "\(result.stdout)")
        let config = try repo.read(".relctl.json")
        #expect(config.hasPrefix("{\n  \"tagFormat\": \"v{version}\",\n  \"files\": ["), "\(config)")
    }

    @Test func aWorkspaceWithoutAnyAppWritesNothingAndSaysWhy() throws {
        let repo = try TestRepository()
        try repo.write("package.json", "{\n  \"name\": \"tools\",\n  \"version\": \"0.0.0\",\n  \"private\": true,\n  \"workspaces\": [\"packages/*\", \"apps/*\"]\n}\n")
        try repo.write("packages/eslint-config/package.json", "{\n  \"name\": \"@x/eslint-config\",\n  \"version\": \"1.0.0\"\n}\n")
        try repo.commitAll("chore: tools")
        let before = try repo.snapshot()
        let result = relctl(["init"], in: repo.path)
        #expect(result.code == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == """
        note: left out workspace pattern "apps/*" (package.json workspaces) matches no package folder
        note: left out package.json (version 0.0.0): the workspace root, not an app
        note: left out packages/eslint-config: a library or tooling package (no app.json/app.config, no android/app or ios/*.xcodeproj, not a Flutter app) that no app depends on
        error: no app found in the workspace (package.json workspaces) of \(repo.path): none of its packages is an app (an app.json/app.config, an android/app module, an ios/*.xcodeproj, a Flutter app), and the workspace root's package.json is not an app; nothing was written (add 'projects' to .relctl.json by hand, see README)

        """, "\(result.stderr)")
        #expect(try repo.snapshot() == before)
    }
}

@Suite("init: projects of a Dart workspace")
struct InitDartWorkspaceTests {
    func flutterApp(_ repo: TestRepository, _ folder: String, name: String, version: String, core: String?) throws {
        try repo.write("\(folder)/pubspec.yaml", "name: \(name)\ndescription: A delivery app.\npublish_to: 'none'\nversion: \(version)\n\nenvironment:\n  sdk: '>=3.3.0 <4.0.0'\n\ndependencies:\n  flutter:\n    sdk: flutter\n"
                       + (core.map { "  core:\n    path: \($0)\n" } ?? "") + "\ndev_dependencies:\n  flutter_test:\n    sdk: flutter\n")
        try repo.write("\(folder)/ios/Runner.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "Runner", targets: [
            T("Runner", T.application, ["CURRENT_PROJECT_VERSION": "$(FLUTTER_BUILD_NUMBER)",
                                        "MARKETING_VERSION": "$(FLUTTER_BUILD_NAME)", "INFOPLIST_FILE": "Runner/Info.plist"]),
        ]).text)
        try repo.write("\(folder)/ios/Runner/Info.plist", infoPlist(marketing: "$(FLUTTER_BUILD_NAME)", build: "$(FLUTTER_BUILD_NUMBER)"))
        try repo.write("\(folder)/android/app/build.gradle", "android {\n    defaultConfig {\n        versionCode flutter.versionCode\n        versionName flutter.versionName\n    }\n}\n")
    }

    @Test func melosWorkspaceWithTwoFlutterAppsAndASharedPackage() throws {
        let repo = try TestRepository()
        try repo.write("melos.yaml", "name: delivery\n\npackages:\n  - apps/**\n  - packages/**\n\nscripts:\n  analyze: melos exec -- flutter analyze\n")
        try repo.write("pubspec.yaml", "name: delivery_workspace\nenvironment:\n  sdk: '>=3.3.0 <4.0.0'\ndev_dependencies:\n  melos: ^6.0.0\n")
        try flutterApp(repo, "apps/customer", name: "customer", version: "2.3.0+230", core: "../../packages/core")
        try flutterApp(repo, "apps/courier", name: "courier", version: "1.9.1+57", core: "../../packages/core")
        try repo.write("packages/core/pubspec.yaml", "name: core\nversion: 0.5.0\n\nenvironment:\n  sdk: '>=3.3.0 <4.0.0'\n")
        try repo.write("packages/lints/pubspec.yaml", "name: delivery_lints\nversion: 1.0.0\n")
        try repo.commitAll("chore: melos")
        let (result, transcript) = goldenRun(repo, ["init", "--dry-run"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("""
        project courier (Flutter app) in apps/courier, tagFormat courier-v{version}, dependsOn core
          apps/courier/pubspec.yaml                    pubspec    version 1.9.1, build 57
        project customer (Flutter app) in apps/customer, tagFormat customer-v{version}, dependsOn core
          apps/customer/pubspec.yaml                   pubspec    version 2.3.0, build 230
        project core (shared package (version 0.5.0) used by apps/courier, apps/customer) in packages/core, tagFormat core-v{version}
          packages/core/pubspec.yaml                   pubspec    version 0.5.0

        """), "\(result.stdout)")
        // The whole output: the rest of the plan, and the note leaving out packages/lints (a tooling package).
        Golden.expect(transcript, matches: "init/projects-melos-dry-run.txt")
    }

    /// A pub workspace (`workspace:` in the root pubspec.yaml) with two apps: the root is no project.
    @Test func pubWorkspaceWithTwoApps() throws {
        let repo = try TestRepository()
        try repo.write("pubspec.yaml", "name: _workspace\npublish_to: none\n\nenvironment:\n  sdk: ^3.6.0\n\nworkspace:\n  - apps/phone\n  - apps/kiosk\n  - packages/beam_core\n")
        try flutterApp(repo, "apps/phone", name: "phone", version: "1.6.0+30", core: nil)
        try flutterApp(repo, "apps/kiosk", name: "kiosk", version: "1.2.0+12", core: nil)
        try repo.write("packages/beam_core/pubspec.yaml", "name: beam_core\nversion: 0.4.0\nresolution: workspace\n")
        try repo.commitAll("chore: pub workspace")
        let (result, transcript) = goldenRun(repo, ["init"])
        #expect(result.code == 0, "\(result.stderr)")
        let projects = try projectsOf(try repo.read(".relctl.json"))
        #expect(projects.map { $0["name"] as? String } == ["phone", "kiosk"])
        #expect(projects.map { $0["tagFormat"] as? String } == ["phone-v{version}", "kiosk-v{version}"])
        // The note leaving out the root pubspec.yaml (the Dart workspace root) is in the whole output.
        Golden.expect(transcript, matches: "init/projects-pub-workspace.txt")
    }
}
