import Foundation
import Testing
@testable import RelctlFiles
import RelctlCore

// Where an Xcode target's version lives: xcconfig include chains, file references through groups, and the
// order Xcode resolves a build setting in.

/// A pbxproj with one application target "App": its settings, its base configuration file reference and the
/// project's settings, all given as text fragments.
func miniProject(target: String, targetBase: String = "", project: String = "", projectBase: String = "",
                 references: String = "", groups: String = "") -> String {
    """
    // !$*UTF8*$!
    {
    \tarchiveVersion = 1;
    \tobjectVersion = 56;
    \tobjects = {
    \t\tF1 /* App.xcconfig */ = {isa = PBXFileReference; path = App.xcconfig; sourceTree = "<group>"; };
    \t\tF2 /* Shared.xcconfig */ = {isa = PBXFileReference; path = Configs/Shared.xcconfig; sourceTree = SOURCE_ROOT; };
    \(references)
    \t\tG0 = {isa = PBXGroup; children = (G1, F2, S1); sourceTree = "<group>"; };
    \t\tG1 /* Support */ = {isa = PBXGroup; children = (G2); path = Support; sourceTree = "<group>"; };
    \t\tG2 /* Build */ = {isa = PBXGroup; children = (F1); name = Build; sourceTree = "<group>"; };
    \t\tS1 /* App */ = {isa = PBXFileSystemSynchronizedRootGroup; path = App; sourceTree = "<group>"; };
    \(groups)
    \t\tT1 /* App */ = {isa = PBXNativeTarget; buildConfigurationList = L1; name = App; productType = "com.apple.product-type.application"; };
    \t\tP1 /* Project object */ = {isa = PBXProject; buildConfigurationList = L0; mainGroup = G0; projectDirPath = ""; targets = (T1); };
    \t\tC0 /* Release */ = {isa = XCBuildConfiguration; \(projectBase) buildSettings = { \(project) }; name = Release; };
    \t\tC1 /* Release */ = {isa = XCBuildConfiguration; \(targetBase) buildSettings = { \(target) }; name = Release; };
    \t\tL0 = {isa = XCConfigurationList; buildConfigurations = (C0); defaultConfigurationName = Release; };
    \t\tL1 = {isa = XCConfigurationList; buildConfigurations = (C1); defaultConfigurationName = Release; };
    \t};
    \trootObject = P1;
    }

    """
}

struct FileSet {
    var files: [String: String]
    func read(_ path: String) -> String? { files[path] }
}

func resolveApp(_ pbxproj: String, _ files: [String: String], at path: String = "ios/App.xcodeproj/project.pbxproj") throws -> XcodeTargetVersion {
    let project = try XcodeProject(pbxproj, path: path)
    let set = FileSet(files: files)
    return try #require(XcodeTargetVersions.resolve(project, targets: project.targets) { set.read($0) }.first)
}

@Suite("Xcode version resolution")
struct XcodeResolutionTests {
    @Test func fileReferencesAreFollowedThroughGroupsSourceRootAndSynchronizedFolders() throws {
        let project = try XcodeProject(miniProject(target: "", targetBase: "baseConfigurationReference = F1;",
                                                   projectBase: "baseConfigurationReference = F2;"),
                                       path: "ios/App.xcodeproj/project.pbxproj")
        #expect(project.sourceRoot == "ios")
        // F1 sits in group Build (a name, no path) inside group Support (path Support).
        #expect(project.targets[0].configurations[0].baseConfiguration == "ios/Support/App.xcconfig")
        #expect(project.projectConfigurations[0].baseConfiguration == "ios/Configs/Shared.xcconfig")
        let synchronized = try XcodeProject(miniProject(target: "", targetBase: "baseConfigurationReferenceAnchor = S1; baseConfigurationReferenceRelativePath = Config/Release.xcconfig;"),
                                            path: "App.xcodeproj/project.pbxproj")
        #expect(synchronized.sourceRoot == "")
        #expect(synchronized.targets[0].configurations[0].baseConfiguration == "App/Config/Release.xcconfig")
    }

    @Test func includesAreFollowedRelativeToTheIncludingFileAndTheLastAssignmentWins() {
        let files = FileSet(files: [
            "ios/Support/App.xcconfig": "#include \"../Configs/Base.xcconfig\"\n#include? \"Local.xcconfig\"\nMARKETING_VERSION = 2.0.0 // overrides Base\n",
            "ios/Configs/Base.xcconfig": "MARKETING_VERSION = 1.0.0\n#include \"Build.xcconfig\"\n#include \"Generated.xcconfig\"\n",
            "ios/Configs/Build.xcconfig": "CURRENT_PROJECT_VERSION = 41;\nCURRENT_PROJECT_VERSION[sdk=macosx*] = 9\n#include \"../Support/App.xcconfig\"\n",
        ])
        let settings = XcconfigSettings(path: "ios/Support/App.xcconfig", read: files.read)
        #expect(settings.value("MARKETING_VERSION")?.value == "2.0.0")
        #expect(settings.value("MARKETING_VERSION")?.line == 3)
        let build = settings.value("CURRENT_PROJECT_VERSION")
        #expect(build?.value == "41")
        #expect(build?.path == "ios/Configs/Build.xcconfig")
        #expect(build?.includedFrom == ["ios/Configs/Base.xcconfig", "ios/Support/App.xcconfig"])
        // A missing #include is remembered, a missing #include? is not; the cycle back to App.xcconfig stops.
        #expect(settings.missing == ["ios/Configs/Generated.xcconfig"])
    }

    @Test func xcodeOrderTargetSettingsBaseConfigurationProjectSettingsProjectBase() throws {
        let files = ["ios/Support/App.xcconfig": "MARKETING_VERSION = 2.0.0\n",
                     "ios/Configs/Shared.xcconfig": "MARKETING_VERSION = 4.0.0\nCURRENT_PROJECT_VERSION = 40\nAPP_BUILD = 77\n"]
        let base = "baseConfigurationReference = F1;"
        let projectBase = "baseConfigurationReference = F2;"
        // The target's own setting wins over everything.
        #expect(try resolveApp(miniProject(target: "MARKETING_VERSION = 1.0.0;", targetBase: base, project: "MARKETING_VERSION = 3.0.0;",
                                           projectBase: projectBase), files).marketing.value == "1.0.0")
        // Then its base configuration, before the project's settings.
        let fromXcconfig = try resolveApp(miniProject(target: "", targetBase: base, project: "MARKETING_VERSION = 3.0.0;", projectBase: projectBase), files)
        #expect(fromXcconfig.marketing.kind == .xcconfig)
        #expect(fromXcconfig.marketing.path == "ios/Support/App.xcconfig")
        // Then the project's settings, then the project's base configuration.
        #expect(try resolveApp(miniProject(target: "", project: "MARKETING_VERSION = 3.0.0;", projectBase: projectBase), files).marketing.value == "3.0.0")
        let last = try resolveApp(miniProject(target: "", projectBase: projectBase), files)
        #expect(last.marketing.value == "4.0.0" && last.build.value == "40" && last.build.path == "ios/Configs/Shared.xcconfig")
        // $(inherited) goes one level down; $(OTHER) is followed from the top.
        #expect(try resolveApp(miniProject(target: "MARKETING_VERSION = \"$(inherited)\";", targetBase: base), files).marketing.value == "2.0.0")
        let followed = try resolveApp(miniProject(target: "CURRENT_PROJECT_VERSION = \"$(APP_BUILD)\";", projectBase: projectBase), files)
        #expect(followed.build.value == "77" && followed.build.setting == "APP_BUILD")
        // A compound value cannot be followed; nothing set anywhere is unset.
        let compound = try resolveApp(miniProject(target: "MARKETING_VERSION = \"$(MAJOR).$(MINOR)\";"), files)
        #expect(compound.marketing.kind == .unresolved)
        #expect(try resolveApp(miniProject(target: ""), files).build.kind == .unset)
    }

    @Test func theInfoPlistLiteralWinsAndItsReferencesAreFollowed() throws {
        func plist(_ marketing: String, _ build: String) -> String {
            "<plist><dict>\n<key>CFBundleShortVersionString</key>\n<string>\(marketing)</string>\n<key>CFBundleVersion</key>\n<string>\(build)</string>\n</dict></plist>\n"
        }
        let settings = "INFOPLIST_FILE = \"$(SRCROOT)/$(TARGET_NAME)/Info.plist\"; MARKETING_VERSION = 1.0; CURRENT_PROJECT_VERSION = 5; FLAVOR_VERSION = 9.9.9;"
        let literal = try resolveApp(miniProject(target: settings), ["ios/App/Info.plist": plist("3.2.1", "$(CURRENT_PROJECT_VERSION)")])
        #expect(literal.marketing.kind == .plist && literal.marketing.value == "3.2.1" && literal.marketing.line == 3)
        #expect(literal.marketing.path == "ios/App/Info.plist")
        #expect(literal.build.kind == .pbxproj && literal.build.value == "5")
        let other = try resolveApp(miniProject(target: settings), ["ios/App/Info.plist": plist("$(FLAVOR_VERSION)", "$(FLUTTER_BUILD_NUMBER)")])
        #expect(other.marketing.value == "9.9.9" && other.marketing.setting == "FLAVOR_VERSION")
        #expect(other.build.kind == .flutter)
    }

    @Test func theProjectEditorWritesTheProjectLevelValueATargetInherits() throws {
        let text = miniProject(target: "INFOPLIST_FILE = App/Info.plist;", project: "MARKETING_VERSION = 3.0.0; CURRENT_PROJECT_VERSION = 12;")
        let files = FileSet(files: ["ios/App/Info.plist": "<plist><dict>\n<key>CFBundleShortVersionString</key>\n<string>$(MARKETING_VERSION)</string>\n</dict></plist>\n"])
        let editor = PbxprojEditor(targets: nil, readFile: { files.read($0) })
        let edits = try editor.edits(text, path: "ios/App.xcodeproj/project.pbxproj", target: VersionTarget(marketing: "3.1.0", iosBuild: "13"))
        let result = applying(edits, to: text)
        #expect(result.contains("MARKETING_VERSION = 3.1.0; CURRENT_PROJECT_VERSION = 13;"))
        // With a base configuration that sets it, the project-level value is not the target's and stays.
        let based = miniProject(target: "", targetBase: "baseConfigurationReference = F1;", project: "MARKETING_VERSION = 3.0.0;")
        let withXcconfig = FileSet(files: ["ios/Support/App.xcconfig": "MARKETING_VERSION = 3.0.0\nCURRENT_PROJECT_VERSION = 12\n"])
        let basedEditor = PbxprojEditor(targets: nil, readFile: { withXcconfig.read($0) })
        #expect(try basedEditor.edits(based, path: "ios/App.xcodeproj/project.pbxproj", target: VersionTarget(marketing: "3.1.0", iosBuild: "13")).isEmpty)
    }

    @Test func aRegexWritesTheCoreWhenItsPatternAdmitsOnlyXYZ() throws {
        let editor = RegexEditor(pattern: #"VERSION=(?<version>[0-9.]+)"#)
        // Without a terminator the pattern would match the prefix of 4.2.0-beta.1: the core is written.
        let edits = try editor.edits("VERSION=4.1.0\n", path: "v.env", target: VersionTarget(marketing: "4.2.0-beta.1"))
        #expect(applying(edits, to: "VERSION=4.1.0\n") == "VERSION=4.2.0\n")
        #expect(!editor.admitsPrerelease("VERSION=4.1.0\n"))
        #expect(RegexEditor(pattern: #"VERSION=(?<version>\S+)"#).admitsPrerelease("VERSION=4.1.0\n"))
        // A value the pattern would not match is refused, not written.
        let strict = RegexEditor(pattern: #"v(?<version>[0-9]+\.[0-9]+)\b"#)
        let error = #expect(throws: FileEditError.self) {
            try strict.edits("v4.1 ok\n", path: "x", target: VersionTarget(marketing: "4.2.0"))
        }
        #expect(error?.message.contains("the pattern would not match \"4.2.0\" written in place of \"4.1\"") == true, "\(String(describing: error))")
    }
}
