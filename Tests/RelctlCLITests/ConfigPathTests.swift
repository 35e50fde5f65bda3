import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

/// Every path from the config stays inside the repository: refused at config load, with the key and the line, when its
/// text leaves the root (`..`, absolute) or a symbolic link on its way leads outside; nothing is written in any case.
@Suite("Config paths stay inside the repository")
struct ConfigPathTests {
    /// A release-ready Expo app with `.relctl.json` holding `files` (line 3 on) and the given extra keys.
    static func app(files: [String], extra: String = "") throws -> TestRepository {
        let repo = try releaseRepository([])
        try repo.write("app.json", expoAppJSON)
        let entries = files.map { "    {\"path\": \(JSONOutput.string($0).rendered()), \"format\": \"expo\"}" }.joined(separator: ",\n")
        try repo.write(".relctl.json", "{\n  \"files\": [\n\(entries)\n  ]\(extra)\n}\n")
        try repo.commitAll("chore: config")
        try repo.commit("feat: dark mode")
        return repo
    }

    /// A folder outside every repository, holding an app.json and a CHANGELOG.md.
    static func outsideFolder() throws -> String {
        let outside = try makeTempDirectory(prefix: "relctl-outside")
        try expoAppJSON.write(toFile: outside + "/app.json", atomically: true, encoding: .utf8)
        try "# Changelog\n".write(toFile: outside + "/CHANGELOG.md", atomically: true, encoding: .utf8)
        return outside
    }

    static func contents(_ folder: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            out[name] = FileManager.default.contents(atPath: folder + "/" + name)
        }
        return out
    }

    /// Runs each writing command; each must fail with `expected` as its one error line and leave the repository and
    /// the outside folder as they were.
    static func expectRefused(_ repo: TestRepository, outside: String?, _ expected: String,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try repo.snapshot()
        let outsideBefore = try outside.map(contents)
        for arguments in [["sync", "1.3.0"], ["release"], ["release", "--dry-run"], ["next"], ["current"]] {
            let result = relctl(arguments, in: repo.path, environment: fixedDate)
            #expect(result.code == 1, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
            #expect(result.stderr == expected + "\n", "\(arguments)", sourceLocation: sourceLocation)
            #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        }
        #expect(try repo.snapshot() == before, sourceLocation: sourceLocation)
        if let outside { #expect(try contents(outside) == outsideBefore, sourceLocation: sourceLocation) }
    }

    @Test func aFilesPathClimbingOutIsRefusedWithItsIndexAndLine() throws {
        let outside = try Self.outsideFolder()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        let escaping = "../" + URL(fileURLWithPath: outside).lastPathComponent + "/app.json"
        let repo = try Self.app(files: ["app.json", escaping])
        try Self.expectRefused(repo, outside: outside, """
            error: .relctl.json:4: 'files[1].path' "\(escaping)" is outside the repository; give it relative to the repository root, like "app.json"
            """)
    }

    @Test(arguments: [
        ("sub/../../x/app.json", #"'files[0].path' "sub/../../x/app.json" is outside the repository"#),
        ("/etc/app.json", #"'files[0].path' "/etc/app.json" is an absolute path"#),
        ("", #"'files[0].path' is empty"#),
        ("./sub/..", #"'files[0].path' "./sub/.." is the repository itself, not a file"#),
    ])
    func lexicalEscapesAreRefused(path: String, message: String) throws {
        let repo = try Self.app(files: [path])
        try Self.expectRefused(repo, outside: nil, """
            error: .relctl.json:3: \(message); give it relative to the repository root, like "app.json"
            """)
    }

    @Test func theChangelogAndGatePathsToo() throws {
        let changelog = try Self.app(files: ["app.json"], extra: ",\n  \"changelog\": {\n    \"path\": \"docs/../../CHANGELOG.md\"\n  }")
        try Self.expectRefused(changelog, outside: nil, """
            error: .relctl.json:6: 'changelog.path' "docs/../../CHANGELOG.md" is outside the repository; give it relative to the repository root, like "CHANGELOG.md"
            """)
        let gate = try Self.app(files: ["app.json"], extra: ",\n  \"gate\": {\"document\": \"/srv/remoteconfig.json\", \"format\": \"json\"}")
        try Self.expectRefused(gate, outside: nil, """
            error: .relctl.json:5: 'gate.document' "/srv/remoteconfig.json" is an absolute path; give it relative to the repository root, like "remoteconfig.template.json"
            """)
    }

    @Test func aSymlinkedFolderLeadingOutIsRefused() throws {
        let outside = try Self.outsideFolder()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        let repo = try releaseRepository([])
        try repo.write("app.json", expoAppJSON)
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/shared", withDestinationPath: outside)
        try repo.write(".relctl.json", """
            {
              "files": [
                {"path": "app.json", "format": "expo"},
                {"path": "shared/app.json", "format": "expo"}
              ],
              "changelog": {"path": "shared/CHANGELOG.md"}
            }

            """)
        try repo.commitAll("chore: config and the shared link")
        try repo.commit("feat: dark mode")
        let real = try #require(RepositoryConfinementProbe.real(outside))
        try Self.expectRefused(repo, outside: outside, """
            error: .relctl.json:4: 'files[1].path' "shared/app.json" is outside the repository: shared is a symbolic link to \(real); relctl writes only inside the repository, so name the real file inside it or replace the link with the folder itself
            """)
        // The changelog through the same link, once the files entry is gone.
        try repo.write(".relctl.json", "{\n  \"files\": [{\"path\": \"app.json\", \"format\": \"expo\"}],\n  \"changelog\": {\"path\": \"shared/CHANGELOG.md\"}\n}\n")
        try repo.commitAll("chore: only the changelog through the link")
        try Self.expectRefused(repo, outside: outside, """
            error: .relctl.json:3: 'changelog.path' "shared/CHANGELOG.md" is outside the repository: shared is a symbolic link to \(real); relctl writes only inside the repository, so name the real file inside it or replace the link with the folder itself
            """)
    }

    @Test func aFileLinkLeadingOutAndADanglingLinkAreRefused() throws {
        let outside = try Self.outsideFolder()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        let repo = try Self.app(files: ["app.json", "ios/app.json"])
        try FileManager.default.createDirectory(atPath: repo.path + "/ios", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/ios/app.json", withDestinationPath: outside + "/app.json")
        let real = try #require(RepositoryConfinementProbe.real(outside + "/app.json"))
        try Self.expectRefused(repo, outside: outside, """
            error: .relctl.json:4: 'files[1].path' "ios/app.json" is outside the repository: ios/app.json is a symbolic link to \(real); relctl writes only inside the repository, so name the real file inside it or replace the link with the folder itself
            """)
        // A link that leads nowhere: relctl cannot say it stays inside, so it is refused too.
        try FileManager.default.removeItem(atPath: repo.path + "/ios")
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/ios", withDestinationPath: "/nonexistent-relctl-target")
        try Self.expectRefused(repo, outside: outside, """
            error: .relctl.json:4: 'files[1].path' "ios/app.json" is outside the repository: ios is a symbolic link to /nonexistent-relctl-target; relctl writes only inside the repository, so name the real file inside it or replace the link with the folder itself
            """)
    }

    @Test func pathsInAConfigOutsideTheRepositoryAreRelativeToTheRoot() throws {
        let outside = try Self.outsideFolder()
        defer { try? FileManager.default.removeItem(atPath: outside) }
        let repo = try releaseRepository([])
        try repo.write("app.json", expoAppJSON)
        try repo.commitAll("chore: app")
        try repo.commit("feat: dark mode")
        // app.json next to the config, outside the repository: the config's paths are the repository's, never the config's.
        let config = outside + "/relctl.json"
        try "{\n  \"files\": [\n    {\"path\": \"app.json\", \"format\": \"expo\"}\n  ]\n}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let outsideBefore = try Self.contents(outside)
        let synced = relctl(["sync", "1.3.0", "--config", config], in: repo.path)
        #expect(synced.code == 0, "\(synced.stderr)")
        #expect(try repo.read("app.json").contains("\"version\": \"1.3.0\""))
        #expect(try Self.contents(outside) == outsideBefore)

        try "{\n  \"files\": [\n    {\"path\": \"../\(URL(fileURLWithPath: outside).lastPathComponent)/app.json\", \"format\": \"expo\"}\n  ]\n}\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let outsideAfterConfig = try Self.contents(outside)
        let refused = relctl(["sync", "1.4.0", "--config", config], in: repo.path)
        #expect(refused.code == 1)
        #expect(refused.stderr.hasPrefix("error: \(config):3: 'files[0].path' \"../"), "\(refused.stderr)")
        #expect(try Self.contents(outside) == outsideAfterConfig)
    }
}

/// `realpath` for the expected messages (the temp folder may itself sit behind a link, /tmp on macOS).
enum RepositoryConfinementProbe {
    static func real(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
