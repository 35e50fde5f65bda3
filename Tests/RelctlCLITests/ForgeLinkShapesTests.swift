import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI
import RelctlCore

/// `(#123)` pull-request (GitLab: `(!123)` merge-request, `(#123)` issue) and `Closes #12` / `Fixes #12` issue links in
/// the changelog section, for every shape of origin a release engineer meets: github.com, GitHub Enterprise under a
/// name that says so (`github.acme.example`, `ghe.example.com`) and under one that does not (`git.example.com`,
/// named by `"forge": {"provider": "github"}`),
/// gitlab.com with nested groups, self-hosted GitLab; https, scp-like ssh (`git@host:o/r.git`) and `ssh://` with a
/// port (`ssh://git@host:2222/o/r.git`, the port being ssh's, not the web's).
@Suite("changelog links for every forge URL shape")
struct ForgeLinkShapesTests {
    struct Shape: Sendable, CustomTestStringConvertible {
        let remote: String
        let forge: String?
        let base: String
        let gitlab: Bool
        var testDescription: String { remote + (forge.map { " with \($0)" } ?? "") }
    }

    static let shapes: [Shape] = [
        Shape(remote: "https://github.com/acme/app.git", forge: nil, base: "https://github.com/acme/app", gitlab: false),
        Shape(remote: "git@github.com:acme/app.git", forge: nil, base: "https://github.com/acme/app", gitlab: false),
        Shape(remote: "ssh://git@github.com/acme/app.git", forge: nil, base: "https://github.com/acme/app", gitlab: false),
        Shape(remote: "https://github.acme.example/mobile/app", forge: nil, base: "https://github.acme.example/mobile/app", gitlab: false),
        Shape(remote: "https://ghe.example.com/o/r", forge: nil, base: "https://ghe.example.com/o/r", gitlab: false),
        Shape(remote: "git@ghe.example.com:o/r.git", forge: nil, base: "https://ghe.example.com/o/r", gitlab: false),
        Shape(remote: "ssh://git@ghe.example.com:2222/o/r.git", forge: nil, base: "https://ghe.example.com/o/r", gitlab: false),
        Shape(remote: "https://git.example.com/o/r", forge: #"{"provider": "github"}"#, base: "https://git.example.com/o/r", gitlab: false),
        Shape(remote: "ssh://git@code.example.com:2222/o/r.git", forge: #"{"provider": "github"}"#, base: "https://code.example.com/o/r", gitlab: false),
        Shape(remote: "/srv/mirror/app.git", forge: #"{"provider": "github", "host": "ghe.example.com", "repository": "o/r"}"#,
              base: "https://ghe.example.com/o/r", gitlab: false),
        Shape(remote: "https://gitlab.com/group/sub/app.git", forge: nil, base: "https://gitlab.com/group/sub/app", gitlab: true),
        Shape(remote: "git@gitlab.com:group/sub/deeper/app.git", forge: nil, base: "https://gitlab.com/group/sub/deeper/app", gitlab: true),
        Shape(remote: "ssh://git@gitlab.example.com:2222/group/sub/app.git", forge: nil, base: "https://gitlab.example.com/group/sub/app", gitlab: true),
        Shape(remote: "https://gitlab.example.com:8443/group/app.git", forge: nil, base: "https://gitlab.example.com:8443/group/app", gitlab: true),
        Shape(remote: "git@git.acme.dev:mobile/team/app.git", forge: #"{"provider": "gitlab"}"#, base: "https://git.acme.dev/mobile/team/app", gitlab: true),
    ]

    @Test(arguments: shapes)
    func everyReferenceIsLinked(_ shape: Shape) throws {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Release Bot"])
        try repo.git(["config", "user.email", "bot@example.com"])
        try repo.write(".relctl.json", shape.forge.map { "{\"forge\": \($0)}\n" } ?? "{}\n")
        try repo.commitAll("chore: initial commit")
        try repo.tag("v1.0.0")
        try repo.git(["remote", "add", "origin", shape.remote])
        let feature = try repo.commit("feat(ui): dark mode (#45)\n\nThe body.\n\nCloses #12\nFixes: #13")
        let fix = try repo.commit("fix: crash on launch (!7)\n\nResolves #14 and #15")
        let result = relctl(["changelog"], in: repo.path, environment: ["SOURCE_DATE_EPOCH": "1764460800"])
        #expect(result.code == 0, "\(result.stderr)")
        let base = shape.base
        let dash = shape.gitlab ? "/-/" : "/"
        // GitHub: (#45) is the pull request and (!7) is text; GitLab: (#45) is an issue and (!7) the merge request.
        let pull45 = shape.gitlab ? "[#45](\(base)/-/issues/45)" : "[#45](\(base)/pull/45)"
        let mr7 = shape.gitlab ? "([!7](\(base)/-/merge_requests/7))" : "(!7)"
        func issue(_ number: Int) -> String { "[#\(number)](\(base)\(dash)issues/\(number))" }
        #expect(result.stdout == """
            ## [1.1.0](\(base)\(dash)compare/v1.0.0...v1.1.0) (2025-11-30)

            ### Features

            * **ui:** dark mode (\(pull45)) ([\(feature.prefix(7))](\(base)\(dash)commit/\(feature))), closes \(issue(12)) \(issue(13))

            ### Bug fixes

            * crash on launch \(mr7) ([\(fix.prefix(7))](\(base)\(dash)commit/\(fix))), closes \(issue(14)) \(issue(15))


            """)
    }

    @Test func aHostNamingNoForgeIsLinkedOnlyWhenTheConfigNamesOne() {
        #expect(RemoteLinks.parse("https://git.example.com/o/r") == nil)
        #expect(RemoteLinks.parse("https://git.example.com/o/r", forge: .github)?.baseURL == "https://git.example.com/o/r")
        // ghe.<domain>: GitHub Enterprise by its usual name.
        #expect(RemoteLinks.parse("https://ghe.example.com/o/r")?.forge == .github)
        // GitHub's shapes: exactly owner/repo.
        #expect(RemoteLinks.parse("https://git.example.com/a/b/c", forge: .github) == nil)
        // A host that names a forge keeps it, whatever the config assumes.
        #expect(RemoteLinks.parse("git@gitlab.com:g/s/app.git", forge: .github)?.forge == .gitlab)
        // Local paths and file:// stay unlinked.
        #expect(RemoteLinks.parse("/srv/mirror/app.git", forge: .github) == nil)
        #expect(RemoteLinks.parse("file:///srv/app.git", forge: .gitlab) == nil)
        let links = RemoteLinks(forge: .github, baseURL: "https://ghe.example.com:8443/o/r")
        #expect(links.userURL("alice") == "https://ghe.example.com:8443/alice")
    }

    /// In CI on the forge's own server (GitHub Actions on GitHub Enterprise, GitLab CI on a self-hosted GitLab), the
    /// server's variable names the forge of an origin on that host, whatever its name.
    @Test func theCIServerNamesTheForgeOfItsOwnHost() {
        var config = Config()
        #expect(config.forgeLinks(remoteURL: "https://code.acme.dev/o/r.git", environment: ["GITHUB_SERVER_URL": "https://code.acme.dev"])
                == RemoteLinks(forge: .github, baseURL: "https://code.acme.dev/o/r"))
        #expect(config.forgeLinks(remoteURL: "git@code.acme.dev:g/s/app.git", environment: ["CI_SERVER_URL": "https://code.acme.dev"])
                == RemoteLinks(forge: .gitlab, baseURL: "https://code.acme.dev/g/s/app"))
        #expect(config.forgeLinks(remoteURL: "https://code.acme.dev/o/r.git", environment: ["GITHUB_SERVER_URL": "https://other.dev"]) == nil)
        #expect(config.forgeLinks(remoteURL: "https://code.acme.dev/o/r.git") == nil)
        config.forgeSettings = ForgeSettings(provider: .gitlab)
        #expect(config.forgeLinks(remoteURL: "https://code.acme.dev/o/r.git", environment: ["GITHUB_SERVER_URL": "https://code.acme.dev"])?.forge == .gitlab,
                "the config wins")
        guard case .target(let target) = ForgeReleases.resolve(config: Config(), remoteURL: "https://code.acme.dev/o/r.git",
                                                               environment: ["GITHUB_SERVER_URL": "https://code.acme.dev", "GITHUB_TOKEN": "t"]) else {
            Issue.record("no target")
            return
        }
        #expect(target.api == "https://code.acme.dev/api/v3")
    }

    /// The forge release of a GitHub Enterprise remote whose host does not say so goes to that host's API, not
    /// api.github.com.
    @Test func theReleaseOfAnEnterpriseRemoteGoesToItsOwnAPI() throws {
        var config = Config()
        config.forgeSettings = ForgeSettings(provider: .github)
        guard case .target(let target) = ForgeReleases.resolve(config: config, remoteURL: "git@git.example.com:o/r.git",
                                                               environment: ["GITHUB_TOKEN": "t"]) else {
            Issue.record("no target")
            return
        }
        #expect(target.api == "https://git.example.com/api/v3")
        #expect(target.project == "o/r")
        #expect(target.web == "https://git.example.com/o/r")
    }
}
