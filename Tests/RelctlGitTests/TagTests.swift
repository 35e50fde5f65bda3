import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

@Suite("Tags: listing, reading, peeling and creating")
struct TagTests {
    let ci = Identities.releaseBot

    @Test func annotatedTagAndExistingTag() throws {
        let repo = try TestRepository()
        let sha = try repo.commit("feat: x")
        let git = try Repository(at: repo.path)
        let target = try #require(ObjectID(hex: sha))
        try git.createAnnotatedTag("v1.0.0", target: target, message: "v1.0.0\n\nnotes\n", tagger: ci.committer)
        #expect(try repo.git(["cat-file", "-t", "v1.0.0"]) == "tag\n")
        #expect(try repo.git(["rev-parse", "v1.0.0^{commit}"]).hasPrefix(sha))
        #expect(try repo.git(["tag", "-l", "--format=%(contents)", "v1.0.0"]) == "v1.0.0\n\nnotes\n\n")
        let error = #expect(throws: GitError.self) {
            try git.createAnnotatedTag("v1.0.0", target: target, message: "again", tagger: ci.committer)
        }
        #expect(error?.kind == .exists)
        try git.deleteReference("refs/tags/v1.0.0")
        #expect(try repo.git(["tag", "-l"]) == "")
    }

    @Test func tagNamesByPrefix() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        for name in ["v1.0.0", "v1.1.0", "v2.0.0", "ios/v1.0.0"] { try repo.tag(name) }
        let git = try Repository(at: repo.path)
        #expect(Set(try git.tagNames()) == ["v1.0.0", "v1.1.0", "v2.0.0", "ios/v1.0.0"])
        #expect(Set(try git.tagNames(prefix: "v1.")) == ["v1.0.0", "v1.1.0"])
        #expect(try git.tagNames(prefix: "android/").isEmpty)
    }

    /// Lightweight and annotated tags, loose and packed, a tag of a tag, and a tag of a tree (no commit).
    @Test(arguments: [false, true])
    func tagsPeelToTheirCommit(packed: Bool) throws {
        let repo = try TestRepository()
        let sha = try repo.commit("feat: x")
        try repo.tag("light", annotated: false)
        try repo.tag("annotated")
        try repo.git(["tag", "-a", "-m", "outer", "outer", "annotated"])
        try repo.git(["tag", "-a", "-m", "a tree", "tree", "HEAD^{tree}"])
        if packed { try repo.git(["pack-refs", "--all"]) }
        let git = try Repository(at: repo.path)
        let commit = try #require(ObjectID(hex: sha))

        let light = try #require(try git.tag(named: "light"))
        #expect(light.target == commit)
        #expect(try git.commit(of: light) == commit)

        let annotated = try #require(try git.tag(named: "annotated"))
        #expect(annotated.target != commit)
        // packed-refs records what an annotated tag peels to; a loose tag must be read.
        #expect(annotated.peeled == (packed ? commit : nil))
        #expect(try git.commit(of: annotated) == commit)

        #expect(try git.commit(of: try #require(try git.tag(named: "outer"))) == commit)
        #expect(try git.commit(of: try #require(try git.tag(named: "tree"))) == nil)
        #expect(try git.tag(named: "missing") == nil)
    }
}
