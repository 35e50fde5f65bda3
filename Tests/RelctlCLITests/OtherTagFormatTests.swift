import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// Release tags of another format than tagFormat: init follows them, and next/release name them with the fix
// instead of starting again at 1.0.0 or offering to adopt a version that is already tagged.

@Suite("release tags of another format")
struct OtherTagFormatTests {
    /// An iOS app tagging releases without a `v` (`2.0.9`, `2.1.0`), its files already bumped to 2.1.1.
    func appTaggedWithoutV(tags: [String] = ["2.0.9", "2.1.0"]) throws -> TestRepository {
        let repo = try appRepository(["Notes.xcodeproj/project.pbxproj": XcodeFixtureProject(name: "Notes", targets: [
            T("Notes", T.application, ["MARKETING_VERSION": "2.1.0", "CURRENT_PROJECT_VERSION": "300"]),
        ]).text], entries: [], config: false)
        for tag in tags {
            try repo.commit("fix: \(tag)", file: "a.txt")
            try repo.tag(tag)
        }
        let project = try repo.read("Notes.xcodeproj/project.pbxproj")
        try repo.write("Notes.xcodeproj/project.pbxproj", project.replacingOccurrences(of: "= 2.1.0;", with: "= 2.1.1;"))
        try repo.commitAll("chore: bump version to 2.1.1")
        try repo.commit("fix: sync", file: "b.txt")
        return repo
    }

    @Test func initWritesTheFormatTheReleaseTagsFollow() throws {
        let repo = try appTaggedWithoutV()
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        #expect(initResult.stderr.contains("note: tagFormat \"{version}\" follows the release tags 2.1.0, 2.0.9\n"), "\(initResult.stderr)")
        #expect(try repo.read(".relctl.json").hasPrefix("{\n  \"tagFormat\": \"{version}\",\n"))
        try repo.commitAll("chore: relctl config")
        let next = relctl(["next"], in: repo.path)
        #expect(next.stdout == "2.1.1\n", "\(next.stderr)")
    }

    @Test func nextAndReleaseNameTheTagsWhenTheConfigSaysOtherwise() throws {
        let repo = try appTaggedWithoutV()
        try writeConfig(repo, files: [("Notes.xcodeproj/project.pbxproj", "pbxproj")])
        try repo.commitAll("chore: relctl config")
        let problem = "Notes.xcodeproj/project.pbxproj:\(lineOf("MARKETING_VERSION = 2.1.1;", in: try repo.read("Notes.xcodeproj/project.pbxproj"))): the next version 1.0.0 is lower than 2.1.1, the version this file holds, and the stores refuse a version below the last one; no tag of tagFormat \"v{version}\" is reachable from HEAD, but 2.1.0, 2.0.9 look like release tags of tagFormat \"{version}\": set \"tagFormat\": \"{version}\" in .relctl.json, so releases continue from the last of them (or run 'relctl adopt' to tag 2.1.1 if no tag holds it)"
        let next = relctl(["next"], in: repo.path)
        #expect(next.stderr == "warning: \(problem); 'relctl release' will refuse it\n", "\(next.stderr)")
        try expectReleaseRefused(repo, contains: problem)
    }

    @Test func withoutVersionFilesTheFirstReleaseBelowThemIsRefused() throws {
        let repo = try appRepository(["README.md": "app\n"], entries: [])
        for tag in ["stable-3.29.0", "stable-3.30.0", "dev-20260821"] {
            try repo.commit("fix: \(tag)", file: "a.txt")
            try repo.tag(tag)
        }
        try repo.commit("feat: more", file: "a.txt")
        let problem = "no tag of tagFormat \"v{version}\" is reachable from HEAD, so the next version is 1.0.0, but stable-3.30.0, stable-3.29.0 look like release tags of tagFormat \"stable-{version}\": set \"tagFormat\": \"stable-{version}\" in .relctl.json, so releases continue from the last of them"
        let next = relctl(["next"], in: repo.path)
        #expect(next.stdout == "1.0.0\n")
        #expect(next.stderr == "warning: \(problem); 'relctl release' will refuse it\n", "\(next.stderr)")
        try expectReleaseRefused(repo, contains: problem)
        try repo.write(".relctl.json", "{\n  \"tagFormat\": \"stable-{version}\"\n}\n")
        try repo.commitAll("chore: relctl config")
        #expect(relctl(["next"], in: repo.path).stdout == "3.31.0\n")
    }

    @Test func twoProductsTaggedAsOftenAreNamedNotGuessed() throws {
        let repo = try appTaggedWithoutV(tags: ["v2.0.9-phone", "v2.0.9-watch", "v2.1.0-phone", "v2.1.0-watch"])
        let initResult = relctl(["init"], in: repo.path)
        #expect(initResult.code == 0, "\(initResult.stderr)")
        #expect(initResult.stderr.contains("note: kept tagFormat \"v{version}\": release tags follow 2 formats, \"v{version}-phone\" (v2.1.0-phone, v2.0.9-phone), \"v{version}-watch\" (v2.1.0-watch, v2.0.9-watch): set \"tagFormat\" in .relctl.json to the app's\n"), "\(initResult.stderr)")
        #expect(try repo.read(".relctl.json").hasPrefix("{\n  \"tagFormat\": \"v{version}\",\n"))
    }
}
