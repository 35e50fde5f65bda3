import Testing
@testable import RelctlCore

@Suite("RemoteLinks")
struct RemoteLinksTests {
    @Test(arguments: [
        ("https://github.com/acme/app.git", "https://github.com/acme/app"),
        ("https://github.com/acme/app", "https://github.com/acme/app"),
        ("https://github.com/acme/app/", "https://github.com/acme/app"),
        ("git@github.com:acme/app.git", "https://github.com/acme/app"),
        ("git@github.com:acme/app", "https://github.com/acme/app"),
        ("ssh://git@github.com/acme/app", "https://github.com/acme/app"),
        ("ssh://git@github.com:22/acme/app.git", "https://github.com/acme/app"),
        ("ssh://git@ssh.github.com:443/acme/app.git", "https://github.com/acme/app"),
        ("git://github.com/acme/app.git", "https://github.com/acme/app"),
        ("HTTPS://GitHub.com/Acme/App.git", "https://github.com/Acme/App"),
        ("  https://github.com/acme/app.git\n", "https://github.com/acme/app"),
        ("https://github.com/acme/app.git?ref=x#frag", "https://github.com/acme/app"),
        ("https://x-access-token:ghs_SECRET123@github.com/acme/app.git", "https://github.com/acme/app"),
        ("https://user:p%40ss@word@github.com/acme/app.git", "https://github.com/acme/app"),
        ("https://ghp_SECRET@github.com/acme/app", "https://github.com/acme/app"),
        ("https://gitlab.com/group/sub/app.git", "https://gitlab.com/group/sub/app"),
        ("https://oauth2:glpat-SECRET@gitlab.com/group/app.git", "https://gitlab.com/group/app"),
        ("git@gitlab.com:group/sub/app.git", "https://gitlab.com/group/sub/app"),
        ("git@gitlab.example.com:team/app.git", "https://gitlab.example.com/team/app"),
        ("ssh://git@gitlab.example.com:2222/team/app.git", "https://gitlab.example.com/team/app"),
        ("https://gitlab.example.com:8443/team/app.git", "https://gitlab.example.com:8443/team/app"),
        ("http://gitlab.internal/team/app", "http://gitlab.internal/team/app"),
        ("https://my-gitlab.corp.net/a/b/c/d.git", "https://my-gitlab.corp.net/a/b/c/d"),
    ])
    func parsesRemote(url: String, base: String) throws {
        let links = try #require(RemoteLinks.parse(url))
        #expect(links.baseURL == base)
        #expect(!links.baseURL.contains("SECRET"))
        #expect(!links.baseURL.contains("@"))
    }

    @Test(arguments: [
        "", "   ", "/home/me/app", "./app", "../app.git", "app", "C:\\repos\\app",
        "file:///home/me/app.git", "file://localhost/srv/app",
        "https://bitbucket.org/acme/app.git", "git@bitbucket.org:acme/app.git",
        "https://example.com/acme/app.git",
        "https://github.com/acme", "https://github.com/acme/app/extra", "https://github.com/",
        "https://gitlab.com/app.git", "https://github.com//app", "https://github.com/acme/../app",
        "https://github.com/ac me/app", "https://github.com/acme/app)(x", "ftp://github.com/acme/app",
        "https://github.com:abc/acme/app", "https://gitlab.com/group/app/-/tree/main",
        "github.com/acme/app",
    ])
    func rejects(url: String) {
        #expect(RemoteLinks.parse(url) == nil)
    }

    @Test func forge() throws {
        #expect(try #require(RemoteLinks.parse("git@github.com:acme/app.git")).forge == .github)
        #expect(try #require(RemoteLinks.parse("git@gitlab.example.com:team/app.git")).forge == .gitlab)
    }

    @Test func githubLinks() throws {
        let links = try #require(RemoteLinks.parse("https://x-access-token:TOKEN@github.com/acme/app.git"))
        #expect(links.commitURL("a1b2c3d4e5f60718293a4b5c6d7e8f9012345678")
            == "https://github.com/acme/app/commit/a1b2c3d4e5f60718293a4b5c6d7e8f9012345678")
        #expect(links.compareURL(from: "v1.2.0", to: "v1.3.0") == "https://github.com/acme/app/compare/v1.2.0...v1.3.0")
        #expect(!links.compareURL(from: "v1.2.0", to: "v1.3.0").contains("TOKEN"))
    }

    @Test func gitlabLinks() throws {
        let links = try #require(RemoteLinks.parse("https://gitlab.com/group/sub/app.git"))
        #expect(links.commitURL("abc1234") == "https://gitlab.com/group/sub/app/-/commit/abc1234")
        #expect(links.compareURL(from: "v1.2.0", to: "v1.3.0") == "https://gitlab.com/group/sub/app/-/compare/v1.2.0...v1.3.0")
    }

    @Test func tagsAreEncodedSoTheyCannotBreakALink() throws {
        let links = try #require(RemoteLinks.parse("git@github.com:acme/app.git"))
        #expect(links.compareURL(from: "app/v1.0.0+5", to: "v(2) #x%")
            == "https://github.com/acme/app/compare/app/v1.0.0+5...v%282%29%20%23x%25")
    }
}
