import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

@Suite("Changelog links in relctl changelog and release")
struct ChangelogLinksCommandTests {
    /// A repository released at v1.0.0 with origin at `remote`, then two commits: one referencing a pull request
    /// and closing issues, one with no reference.
    private func repo(remote: String) throws -> (TestRepository, [String]) {
        let repo = try TestRepository.released("1.0.0", then: [])
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.git(["remote", "add", "origin", remote])
        let first = try repo.commit("feat(ui): dark mode (#45)\n\nThe body.\n\nCloses #12\nFixes: #13")
        let second = try repo.commit("fix: crash on launch")
        return (repo, [first, second])
    }

    @Test(arguments: [
        ("git@github.com:acme/app.git", "https://github.com/acme/app", "/pull/45", "/issues/", "/"),
        ("https://github.acme.example/mobile/app.git", "https://github.acme.example/mobile/app", "/pull/45", "/issues/", "/"),
        ("git@gitlab.com:group/sub/app.git", "https://gitlab.com/group/sub/app", "/-/issues/45", "/-/issues/", "/-/"),
    ])
    func changelogLinksReferences(remote: String, base: String, pull: String, issues: String, separator: String) throws {
        let (repo, shas) = try repo(remote: remote)
        let result = relctl(["changelog"], in: repo.path, environment: ["SOURCE_DATE_EPOCH": "1764460800"])
        #expect(result.code == 0, "\(result.stderr)")
        let c = base + separator + "commit/"
        #expect(result.stdout == """
            ## [1.1.0](\(base)\(separator)compare/v1.0.0...v1.1.0) (2025-11-30)

            ### Features

            * **ui:** dark mode ([#45](\(base)\(pull))) ([\(shas[0].prefix(7))](\(c)\(shas[0]))), closes [#12](\(base)\(issues)12) [#13](\(base)\(issues)13)

            ### Bug fixes

            * crash on launch ([\(shas[1].prefix(7))](\(c)\(shas[1])))


            """)
    }

    @Test func releaseWritesTheLinksAndAPlainTagMessage() throws {
        let (repo, shas) = try repo(remote: "git@github.com:acme/app.git")
        let result = relctl(["release"], in: repo.path, environment: ["SOURCE_DATE_EPOCH": "1764460800"])
        #expect(result.code == 0, "\(result.stderr)")
        #expect(try repo.read("CHANGELOG.md").contains("* **ui:** dark mode ([#45](https://github.com/acme/app/pull/45)) ([\(shas[0].prefix(7))](https://github.com/acme/app/commit/\(shas[0]))), closes [#12](https://github.com/acme/app/issues/12) [#13](https://github.com/acme/app/issues/13)\n"))
        let message = try repo.git(["tag", "-l", "--format=%(contents)", "v1.1.0"])
        #expect(message == """
            v1.1.0

            Features:
            - ui: dark mode (#45) (\(shas[0].prefix(7))), closes #12 #13

            Bug fixes:
            - crash on launch (\(shas[1].prefix(7)))


            """)
    }

    @Test func noRemoteMeansNoLinksAsBefore() throws {
        let repo = try TestRepository.released("1.0.0", then: [])
        let sha = try repo.commit("feat: dark mode (#45)\n\nCloses #12")
        let result = relctl(["changelog"], in: repo.path, environment: ["SOURCE_DATE_EPOCH": "1764460800"])
        #expect(result.stdout == "## 1.1.0 (2025-11-30)\n\n### Features\n\n* dark mode (#45) (\(sha.prefix(7)))\n\n")
    }
}
