import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

@Suite("Author and committer the way git picks them")
struct IdentityTests {
    @Test func identitiesFollowGitsOrder() throws {
        let repo = try TestRepository()
        let git = try Repository(at: repo.path)
        try repo.git(["config", "user.name", "Config Name"])
        try repo.git(["config", "user.email", "config@example.com"])
        let fromConfig = try #require(try Repository(at: repo.path).identities(environment: [:]))
        #expect(fromConfig.author.name == "Config Name")
        let env = ["GIT_AUTHOR_NAME": "Env Author", "GIT_COMMITTER_EMAIL": "env-committer@example.com",
                   "GIT_COMMITTER_DATE": "@1700000000 +0130"]
        let fromEnv = try #require(try Repository(at: repo.path).identities(environment: env))
        #expect(fromEnv.author.name == "Env Author")
        #expect(fromEnv.author.email == "config@example.com")
        #expect(fromEnv.committer.name == "Config Name")
        #expect(fromEnv.committer.email == "env-committer@example.com")
        #expect(fromEnv.committer.time?.seconds == 1_700_000_000)
        #expect(fromEnv.committer.time?.offsetMinutes == 90)
    }

    @Test func isoCommitterDateIsUsed() throws {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Config Name"])
        try repo.git(["config", "user.email", "config@example.com"])
        let env = ["GIT_COMMITTER_DATE": "2020-01-01T00:00:00Z", "GIT_AUTHOR_DATE": "Wed, 1 Jan 2020 01:00:00 +0100"]
        let ids = try #require(try Repository(at: repo.path).identities(environment: env))
        #expect(ids.committer.time?.seconds == 1_577_836_800)
        #expect(ids.committer.time?.offsetMinutes == 0)
        #expect(ids.author.time?.seconds == 1_577_836_800)
        #expect(ids.author.time?.offsetMinutes == 60)
    }

    @Test(arguments: ["GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"])
    func unreadableDateVariableIsAnError(variable: String) throws {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Config Name"])
        try repo.git(["config", "user.email", "config@example.com"])
        let git = try Repository(at: repo.path)
        let error = #expect(throws: GitError.self) { try git.identities(environment: [variable: "next tuesday"]) }
        let text = error?.description ?? ""
        #expect(text.hasPrefix("\(variable): \"next tuesday\" is not a date"), "\(text)")
        #expect(text.contains("2020-01-01T00:00:00Z"), "\(text)")
        #expect(text.contains("Wed, 1 Jan 2020 00:00:00 +0000"), "\(text)")
        #expect(text.contains("@1700000000 +0000"), "\(text)")
    }

    @Test func emptyVariablesCountAsUnsetAndEmailComesLast() throws {
        let repo = try TestRepository()
        try repo.git(["config", "user.name", "Config Name"])
        try repo.git(["config", "user.email", "config@example.com"])
        let git = try Repository(at: repo.path)
        let env = ["GIT_AUTHOR_NAME": "", "GIT_AUTHOR_EMAIL": "", "GIT_COMMITTER_DATE": "", "EMAIL": "email@example.com"]
        let ids = try #require(try git.identities(environment: env))
        #expect(ids.author == Identity(name: "Config Name", email: "config@example.com"))
        #expect(ids.committer == Identity(name: "Config Name", email: "config@example.com"))
    }

    @Test func configValuesAreReadAndEmptyOnesAreNil() throws {
        let repo = try TestRepository()
        try repo.git(["config", "commit.gpgsign", "true"])
        try repo.git(["config", "relctl.empty", ""])
        let git = try Repository(at: repo.path)
        #expect(git.configValue("commit.gpgsign") == "true")
        #expect(git.configValue("relctl.empty") == nil)
        #expect(git.configValue("relctl.missing") == nil)
    }
}
