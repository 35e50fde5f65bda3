import Foundation
import Testing
import RelctlCore
import RelctlGit
import RelctlTestSupport
@testable import RelctlCLI

/// The run's facts are read once and handed forward: one tag listing per run (shared by every project), each
/// workspace's release tags cut from it exactly as git's prefix glob would list them.
@Suite("run facts: one tag listing, cut per format and per project")
struct RunFactsTests {
    private static func open(_ repo: TestRepository) throws -> Workspace {
        let context = CommandContext(environment: [:], output: Output(stdout: { _ in }, stderr: { _ in }),
                                     currentDirectory: repo.path)
        return try Workspace.open(RepositoryLocation(repo: nil, config: nil), context)
    }

    @Test func releaseTagsCutFromTheOneListingAreThoseGitListsByPrefix() throws {
        let repo = try TestRepository()
        _ = try repo.commit("feat: first")
        for name in ["v1.0.0", "v1.1.0-rc.1", "v2.0.0", "vź1.0.0", "v", "version-1", "app-v3.0.0", "1.5.0", "w1.0.0"] {
            try repo.tag(name)
        }
        let git = try Repository(discoveringFrom: repo.path)
        for pattern in ["v{version}", "app-v{version}", "{version}", "vź{version}"] {
            let format = try TagFormat(pattern)
            let cut = ReleaseTags(listed: try git.tagNames(), format: format, scheme: .semver)
            let byGit = ReleaseTags(names: try git.tagNames(prefix: format.literalPrefix), format: format, scheme: .semver)
            #expect(cut.parsed.map(\.name) == byGit.parsed.map(\.name), "\(pattern)")
            #expect(cut.stable.map(\.tag) == byGit.stable.map(\.tag), "\(pattern)")
            #expect(cut.unparsed.map(\.tag) == byGit.unparsed.map(\.tag), "\(pattern)")
        }
        let workspace = try Self.open(repo)
        #expect(try workspace.releaseTags().stable.map(\.tag) == ["v2.0.0", "v1.0.0"])
    }

    @Test func everyProjectCutsItsOwnTagsFromTheRunsOneListing() throws {
        let repo = try TestRepository()
        try repo.write("apps/consumer/package.json", "{\n  \"version\": \"1.0.0\"\n}\n")
        try repo.write("apps/driver/package.json", "{\n  \"version\": \"2.0.0\"\n}\n")
        try repo.write(".relctl.json", """
        {
          "projects": [
            {"name": "consumer", "path": "apps/consumer", "tagFormat": "consumer-v{version}",
             "files": [{"path": "apps/consumer/package.json", "format": "json"}]},
            {"name": "driver", "path": "apps/driver", "tagFormat": "driver-v{version}",
             "files": [{"path": "apps/driver/package.json", "format": "json"}]}
          ]
        }

        """)
        _ = try repo.commitAll("chore: two apps")
        try repo.tag("consumer-v1.0.0")
        try repo.tag("driver-v2.0.0")
        let workspace = try Self.open(repo)
        let projects = workspace.config.projects.map(workspace.forProject)
        #expect(projects.map(\.project?.name) == ["consumer", "driver"])
        #expect(projects.allSatisfy { $0.tagListing === workspace.tagListing })
        #expect(try projects.map { try $0.releaseTags().stable.map(\.tag) } == [["consumer-v1.0.0"], ["driver-v2.0.0"]])
        // The listing was made once: a tag made after it is not seen by a project asking later in the same run.
        try repo.tag("driver-v2.1.0")
        #expect(try workspace.tagListing.names(workspace.repository) == ["consumer-v1.0.0", "driver-v2.0.0"])
        #expect(try workspace.forProject(workspace.config.projects[1]).releaseTags().stable.map(\.tag) == ["driver-v2.0.0"])
    }
}
