import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// Apps whose files store only the store-safe core of a version (pubspec, Xcode, Expo without package.json): each
// prerelease sync and the final release move the build numbers, since the stores tell betas apart by build only.

/// The build number in the one file of a project whose files store only the store-safe core version.
enum CoreOnlyShape: String, CaseIterable, CustomTestStringConvertible {
    case pubspec, xcodeProject, expo

    var testDescription: String { rawValue }

    func make() throws -> TestRepository {
        let repo = try TestRepository()
        switch self {
        case .pubspec:
            try repo.write("pubspec.yaml", "name: trail\nversion: 1.3.0+12\n")
            try writeConfig(repo, files: [("pubspec.yaml", "pubspec")])
        case .xcodeProject:
            try repo.write("ios/App.xcodeproj/project.pbxproj", pbxproj(marketing: "1.3.0", build: "12"))
            try writeConfig(repo, files: [("ios/App.xcodeproj/project.pbxproj", "pbxproj")])
        case .expo:
            try repo.write("app.json", expoAppJSON.replacingOccurrences(of: "1.2.0", with: "1.3.0"))
            try writeConfig(repo, files: [("app.json", "expo")])
        }
        return repo
    }

    func build(_ repo: TestRepository) throws -> String {
        switch self {
        case .pubspec:
            return String(try repo.read("pubspec.yaml").split(separator: "+").last!.dropLast())
        case .xcodeProject:
            let text = try repo.read("ios/App.xcodeproj/project.pbxproj")
            let line = text.split(separator: "\n").first { $0.contains("CURRENT_PROJECT_VERSION = ") && !$0.contains("= 1;") }!
            return String(line.split(separator: "=").last!.dropFirst().dropLast())
        case .expo:
            let text = try repo.read("app.json")
            let line = text.split(separator: "\n").first { $0.contains("\"buildNumber\"") }!
            return String(line.split(separator: "\"")[3])
        }
    }
}

@Suite("sync: every prerelease and the final release get a new build")
struct PrereleaseBuildNumberTests {
    @Test(arguments: CoreOnlyShape.allCases)
    func everyPrereleaseAndTheFinalReleaseGetANewBuild(shape: CoreOnlyShape) throws {
        let repo = try shape.make()
        var builds: [String] = []
        for version in ["1.4.0-beta.1", "1.4.0-beta.2", "1.4.0", "1.4.0"] {
            let result = relctl(["sync", version], in: repo.path)
            #expect(result.code == 0, "\(version): \(result.stderr)")
            builds.append(try shape.build(repo))
        }
        #expect(builds == ["13", "14", "15", "15"])

        // Without the record of the last sync (a fresh clone), a prerelease tag of the core tells.
        let fresh = try shape.make()
        #expect(relctl(["sync", "1.4.0-beta.1"], in: fresh.path).code == 0)
        #expect(FileManager.default.fileExists(atPath: fresh.path + "/.git/relctl-last-sync"))
        try FileManager.default.removeItem(atPath: fresh.path + "/.git/relctl-last-sync")
        _ = try fresh.commitAll("chore(release): 1.4.0-beta.1")
        try fresh.tag("v1.4.0-beta.1")
        #expect(relctl(["sync", "1.4.0"], in: fresh.path).code == 0)
        #expect(try shape.build(fresh) == "14")
        let again = relctl(["sync", "1.4.0"], in: fresh.path)
        #expect(again.stderr.contains("every file already holds 1.4.0; build numbers kept"), "\(again.stderr)")
        #expect(try shape.build(fresh) == "14")
    }
}
