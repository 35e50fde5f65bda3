import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

@Suite("Ancestry of commits")
struct AncestryTests {
    @Test func ancestorsOnOneLineAndAcrossBranches() throws {
        let repo = try TestRepository()
        let root = try #require(ObjectID(hex: try repo.commit("chore: init")))
        let main = try #require(ObjectID(hex: try repo.commit("feat: on main")))
        try repo.git(["checkout", "-q", "-b", "side", root.hex])
        let side = try #require(ObjectID(hex: try repo.commit("feat: on side", file: "side.txt")))
        let git = try Repository(at: repo.path)
        #expect(try git.isAncestor(root, of: main))
        #expect(try git.isAncestor(main, of: main))
        #expect(try !git.isAncestor(main, of: root))
        #expect(try git.isAncestor(root, of: side))
        #expect(try !git.isAncestor(side, of: main))
        #expect(try !git.isAncestor(main, of: side))
    }
}
