import Foundation
import Testing
import RelctlTestSupport

// Apple app layouts relctl meets in real repositories: where the version lives, and what init must find.

typealias T = XcodeFixtureTarget

/// An app repository shape, with what `relctl init` must propose for it.
enum AppleAppShape: String, CaseIterable, CustomTestStringConvertible {
    /// Bare React Native: the app's Info.plist holds the marketing version (CFBundleVersion is
    /// $(CURRENT_PROJECT_VERSION)), share and notification extensions hold literals in theirs.
    case reactNativeExtensions
    /// Native iOS app whose targets take their versions from included .xcconfig files (one holds only the build).
    case includedXcconfig
    /// Flutter app with a widget extension holding literals, and a zero-padded build number.
    case flutterWidget
    /// Kotlin Multiplatform iosApp: the project's base configuration is iosApp/Configuration/Config.xcconfig.
    case kmpIosApp
    /// Native iOS app with its project at the root and a watch app with its extension.
    case rootProjectWatchApp
    /// An iOS app beside a separately released Mac app and a JavaScript workspace root at 0.0.1.
    case otherProducts

    var testDescription: String { rawValue }

    /// The version the fixture holds everywhere, the version synced in the tests, and the builds.
    var version: (old: String, new: String, build: String, nextBuild: String) {
        switch self {
        case .reactNativeExtensions: return ("2.4.0", "2.5.0", "31", "32")
        case .includedXcconfig: return ("3.1.0", "3.2.0", "412", "413")
        case .flutterWidget: return ("1.8.0", "1.9.0", "2702", "2703")
        case .kmpIosApp: return ("1.3.0", "1.4.0", "7", "8")
        case .rootProjectWatchApp: return ("5.2.0", "5.3.0", "88", "89")
        case .otherProducts: return ("4.0.2", "4.1.0", "19", "20")
        }
    }

    /// What init writes: path, format and the options as JSON members.
    var detected: [(path: String, format: String, options: String)] {
        switch self {
        case .reactNativeExtensions:
            return [("package.json", "json", ""), ("ios/Pantry.xcodeproj/project.pbxproj", "pbxproj", ""),
                    ("ios/Pantry/Info.plist", "plist", ""), ("ios/ShareExtension/Info.plist", "plist", ""),
                    ("ios/NotificationService/Info.plist", "plist", ""), ("android/app/build.gradle", "gradle", "")]
        case .includedXcconfig:
            return [("ios/Ledger.xcodeproj/project.pbxproj", "pbxproj", ""), ("ios/Config/Version.xcconfig", "xcconfig", ""),
                    ("ios/Config/Build.xcconfig", "xcconfig", "")]
        case .flutterWidget:
            return [("pubspec.yaml", "pubspec", #""padBuildNumber": true"#), ("ios/Runner.xcodeproj/project.pbxproj", "pbxproj", "")]
        case .kmpIosApp:
            return [("iosApp/iosApp.xcodeproj/project.pbxproj", "pbxproj", ""), ("iosApp/Configuration/Config.xcconfig", "xcconfig", "")]
        case .rootProjectWatchApp:
            return [("Stride.xcodeproj/project.pbxproj", "pbxproj", "")]
        case .otherProducts:
            return [("mobile/package.json", "json", ""), ("ios/Notes.xcodeproj/project.pbxproj", "pbxproj", ""),
                    ("ios/Config/App.xcconfig", "xcconfig", "")]
        }
    }

    func make() throws -> TestRepository {
        let repo = try TestRepository()
        let (v, _, b, _) = version
        switch self {
        case .reactNativeExtensions:
            try repo.write("package.json", "{\n  \"name\": \"pantry\",\n  \"version\": \"\(v)\",\n  \"private\": true\n}\n")
            try repo.write("ios/Pantry.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "Pantry", targets: [
                T("Pantry", T.application, ["CURRENT_PROJECT_VERSION": b, "INFOPLIST_FILE": "Pantry/Info.plist",
                                            "PRODUCT_BUNDLE_IDENTIFIER": "com.example.pantry"]),
                T("PantryTests", T.unitTests, ["INFOPLIST_FILE": "PantryTests/Info.plist", "MARKETING_VERSION": "1.0"]),
                T("ShareExtension", T.appExtension, ["INFOPLIST_FILE": "ShareExtension/Info.plist"]),
                T("NotificationService", T.appExtension, ["INFOPLIST_FILE": "NotificationService/Info.plist"]),
            ]).text)
            try repo.write("ios/Pantry/Info.plist", infoPlist(marketing: v, build: "$(CURRENT_PROJECT_VERSION)"))
            try repo.write("ios/PantryTests/Info.plist", infoPlist(marketing: "1.0", build: "1"))
            try repo.write("ios/ShareExtension/Info.plist", infoPlist(marketing: v, build: b, extensionPoint: "com.apple.share-services"))
            try repo.write("ios/NotificationService/Info.plist",
                           infoPlist(marketing: v, build: b, extensionPoint: "com.apple.usernotifications.service"))
            try repo.write("android/app/build.gradle", "android {\n    defaultConfig {\n        applicationId \"com.example.pantry\"\n        versionCode \(b)\n        versionName \"\(v)\"\n    }\n}\n")
        case .includedXcconfig:
            let appSettings = ["INFOPLIST_FILE": "Ledger/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "com.example.ledger"]
            let base = ["Debug": "Config/Debug.xcconfig", "Release": "Config/Release.xcconfig"]
            try repo.write("ios/Ledger.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "Ledger", targets: [
                T("Ledger", T.application, appSettings, base: base),
                T("LedgerWidget", T.appExtension, ["INFOPLIST_FILE": "LedgerWidget/Info.plist"], base: base),
                T("LedgerTests", T.unitTests, ["INFOPLIST_FILE": "LedgerTests/Info.plist"]),
            ]).text)
            try repo.write("ios/Config/Debug.xcconfig", "#include \"Base.xcconfig\"\n\nSWIFT_OPTIMIZATION_LEVEL = -Onone\n")
            try repo.write("ios/Config/Release.xcconfig", "#include \"Base.xcconfig\"\n#include? \"Local.xcconfig\"\n\nSWIFT_COMPILATION_MODE = wholemodule\n")
            try repo.write("ios/Config/Base.xcconfig", "// Shared by every target\n#include \"Version.xcconfig\"\n#include \"Build.xcconfig\"\n\nDEVELOPMENT_TEAM = ABCDE12345\n")
            try repo.write("ios/Config/Version.xcconfig", "// The marketing version; relctl keeps it\nMARKETING_VERSION = \(v)\n")
            try repo.write("ios/Config/Build.xcconfig", "CURRENT_PROJECT_VERSION = \(b) // CI reads this\n")
            try repo.write("ios/Ledger/Info.plist", infoPlist(marketing: "$(MARKETING_VERSION)", build: "$(CURRENT_PROJECT_VERSION)"))
            try repo.write("ios/LedgerWidget/Info.plist", infoPlist(marketing: "$(MARKETING_VERSION)", build: "$(CURRENT_PROJECT_VERSION)",
                                                                    extensionPoint: "com.apple.widgetkit-extension"))
        case .flutterWidget:
            try repo.write("pubspec.yaml", "name: trips\ndescription: Trips.\npublish_to: 'none'\nversion: \(v)+00\(b)\n\nenvironment:\n  sdk: ^3.5.0\n")
            try repo.write("ios/Runner.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "Runner", targets: [
                T("Runner", T.application, ["CURRENT_PROJECT_VERSION": "$(FLUTTER_BUILD_NUMBER)", "INFOPLIST_FILE": "Runner/Info.plist"],
                  base: ["Debug": "Flutter/Debug.xcconfig", "Release": "Flutter/Release.xcconfig"]),
                T("RunnerTests", T.unitTests, ["CURRENT_PROJECT_VERSION": "1", "MARKETING_VERSION": "1.0"]),
                T("TripWidgetExtension", T.appExtension, ["CURRENT_PROJECT_VERSION": b, "MARKETING_VERSION": v,
                                                          "INFOPLIST_FILE": "TripWidget/Info.plist"]),
            ]).text)
            try repo.write("ios/Flutter/Debug.xcconfig", "#include? \"Pods/Target Support Files/Pods-Runner/Pods-Runner.debug.xcconfig\"\n#include \"Generated.xcconfig\"\n")
            try repo.write("ios/Flutter/Release.xcconfig", "#include? \"Pods/Target Support Files/Pods-Runner/Pods-Runner.release.xcconfig\"\n#include \"Generated.xcconfig\"\n")
            try repo.write("ios/Runner/Info.plist", infoPlist(marketing: "$(FLUTTER_BUILD_NAME)", build: "$(FLUTTER_BUILD_NUMBER)"))
            try repo.write("ios/TripWidget/Info.plist", infoPlist(marketing: "$(MARKETING_VERSION)", build: "$(CURRENT_PROJECT_VERSION)",
                                                                  extensionPoint: "com.apple.widgetkit-extension"))
        case .kmpIosApp:
            try repo.write("iosApp/iosApp.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "iosApp", targets: [
                T("iosApp", T.application, ["INFOPLIST_FILE": "iosApp/Info.plist", "PRODUCT_BUNDLE_IDENTIFIER": "${BUNDLE_ID}${TEAM_ID}"]),
            ], projectBase: ["Debug": "Configuration/Config.xcconfig", "Release": "Configuration/Config.xcconfig"]).text)
            try repo.write("iosApp/Configuration/Config.xcconfig", "TEAM_ID=\n\nPRODUCT_NAME=Tally\nPRODUCT_BUNDLE_IDENTIFIER=com.example.tally$(TEAM_ID)\n\nCURRENT_PROJECT_VERSION=\(b)\nMARKETING_VERSION=\(v)")
            try repo.write("iosApp/iosApp/Info.plist", infoPlist(marketing: "$(MARKETING_VERSION)", build: "$(CURRENT_PROJECT_VERSION)"))
            try repo.write("composeApp/src/commonMain/kotlin/App.kt", "fun greet() = \"Tally\"\n")
        case .rootProjectWatchApp:
            let versions = ["MARKETING_VERSION": v, "CURRENT_PROJECT_VERSION": b]
            try repo.write("Stride.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "Stride", targets: [
                T("Stride", T.application, versions.merging(["GENERATE_INFOPLIST_FILE": "YES"]) { $1 }),
                T("Stride Watch App", T.application, versions.merging(["SDKROOT": "watchos", "GENERATE_INFOPLIST_FILE": "YES"]) { $1 }),
                T("Stride Watch Extension", T.watchExtension, versions.merging(["SDKROOT": "watchos"]) { $1 }),
                T("StrideTests", T.unitTests, ["MARKETING_VERSION": "1.0", "CURRENT_PROJECT_VERSION": "1"]),
            ]).text)
            try repo.write("Stride/ContentView.swift", "import SwiftUI\n")
        case .otherProducts:
            try repo.write("package.json", "{\n  \"name\": \"notes-workspace\",\n  \"version\": \"0.0.1\",\n  \"private\": true,\n  \"workspaces\": [\"mobile\", \"web\"]\n}\n")
            try repo.write("mobile/package.json", "{\n  \"name\": \"notes-mobile\",\n  \"version\": \"\(v)\"\n}\n")
            try repo.write("web/package.json", "{\n  \"name\": \"notes-web\",\n  \"version\": \"0.9.0\"\n}\n")
            try repo.write("ios/Notes.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "Notes", targets: [
                T("Notes", T.application, ["GENERATE_INFOPLIST_FILE": "YES"],
                  base: ["Debug": "Config/App.xcconfig", "Release": "Config/App.xcconfig"]),
            ]).text)
            try repo.write("ios/Config/App.xcconfig", "MARKETING_VERSION = \(v)\nCURRENT_PROJECT_VERSION = \(b)\n")
            try repo.write("macOS/NotesMac.xcodeproj/project.pbxproj", XcodeFixtureProject(name: "NotesMac", targets: [
                T("NotesMac", T.application, ["GENERATE_INFOPLIST_FILE": "YES", "SDKROOT": "macosx"],
                  base: ["Debug": "Config/Mac.xcconfig", "Release": "Config/Mac.xcconfig"]),
            ], projectSettings: ["SDKROOT": "macosx"]).text)
            try repo.write("macOS/Config/Mac.xcconfig", "MARKETING_VERSION = 1.6.0\nCURRENT_PROJECT_VERSION = 230\n")
        }
        try repo.commit("chore: the app")
        return repo
    }

    /// Files that must hold the new version and build after the sync, and files that must not change.
    func checkSynced(_ repo: TestRepository) throws -> [String] {
        let (v, n, b, nb) = version
        var problems: [String] = []
        func expect(_ path: String, _ transform: (String) -> String, from before: String) throws {
            let text = try repo.read(path)
            if text != transform(before) { problems.append("\(path):\n\(text)") }
        }
        func swap(_ s: String) -> String {
            s.replacingOccurrences(of: "= \(v);", with: "= \(n);").replacingOccurrences(of: "= \(b);", with: "= \(nb);")
        }
        let fresh = try make()
        defer { _ = fresh }
        switch self {
        case .reactNativeExtensions:
            try expect("ios/Pantry.xcodeproj/project.pbxproj", swap, from: try fresh.read("ios/Pantry.xcodeproj/project.pbxproj"))
            for plist in ["ShareExtension", "NotificationService"] {
                try expect("ios/\(plist)/Info.plist", { $0.replacingOccurrences(of: ">\(v)<", with: ">\(n)<").replacingOccurrences(of: ">\(b)<", with: ">\(nb)<") },
                           from: try fresh.read("ios/\(plist)/Info.plist"))
            }
            try expect("ios/Pantry/Info.plist", { $0.replacingOccurrences(of: ">\(v)<", with: ">\(n)<") }, from: try fresh.read("ios/Pantry/Info.plist"))
            try expect("ios/PantryTests/Info.plist", { $0 }, from: try fresh.read("ios/PantryTests/Info.plist"))
            try expect("android/app/build.gradle", { $0.replacingOccurrences(of: v, with: n).replacingOccurrences(of: "versionCode \(b)", with: "versionCode \(nb)") },
                       from: try fresh.read("android/app/build.gradle"))
        case .includedXcconfig:
            try expect("ios/Config/Version.xcconfig", { $0.replacingOccurrences(of: v, with: n) }, from: try fresh.read("ios/Config/Version.xcconfig"))
            try expect("ios/Config/Build.xcconfig", { $0.replacingOccurrences(of: "= \(b)", with: "= \(nb)") }, from: try fresh.read("ios/Config/Build.xcconfig"))
            try expect("ios/Ledger.xcodeproj/project.pbxproj", { $0 }, from: try fresh.read("ios/Ledger.xcodeproj/project.pbxproj"))
        case .flutterWidget:
            try expect("pubspec.yaml", { $0.replacingOccurrences(of: "\(v)+00\(b)", with: "\(n)+00\(nb)") }, from: try fresh.read("pubspec.yaml"))
            try expect("ios/Runner.xcodeproj/project.pbxproj", swap, from: try fresh.read("ios/Runner.xcodeproj/project.pbxproj"))
        case .kmpIosApp:
            try expect("iosApp/Configuration/Config.xcconfig",
                       { $0.replacingOccurrences(of: "VERSION=\(v)", with: "VERSION=\(n)").replacingOccurrences(of: "VERSION=\(b)\n", with: "VERSION=\(nb)\n") },
                       from: try fresh.read("iosApp/Configuration/Config.xcconfig"))
        case .rootProjectWatchApp:
            try expect("Stride.xcodeproj/project.pbxproj", swap, from: try fresh.read("Stride.xcodeproj/project.pbxproj"))
        case .otherProducts:
            try expect("ios/Config/App.xcconfig", { $0.replacingOccurrences(of: v, with: n).replacingOccurrences(of: "= \(b)", with: "= \(nb)") },
                       from: try fresh.read("ios/Config/App.xcconfig"))
            try expect("mobile/package.json", { $0.replacingOccurrences(of: v, with: n) }, from: try fresh.read("mobile/package.json"))
            for untouched in ["package.json", "web/package.json", "macOS/Config/Mac.xcconfig", "macOS/NotesMac.xcodeproj/project.pbxproj"] {
                try expect(untouched, { $0 }, from: try fresh.read(untouched))
            }
        }
        return problems
    }
}
