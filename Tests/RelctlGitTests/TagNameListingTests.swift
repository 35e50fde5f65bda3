import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlGit

/// `tagNames` reads `packed-refs` and the `refs/tags` folders itself; libgit2's iterator is the reference.
@Suite("Tag names without a stat per tag: the same names, in the same order, as libgit2's listing")
struct TagNameListingTests {
    private func expectSameAsLibgit2(_ git: Repository, prefixes: [String]) throws {
        for prefix in prefixes {
            let ours = try git.tagNames(prefix: prefix)
            let theirs = try git.tagNamesThroughLibgit2(prefix: prefix)
            #expect(ours == theirs, "prefix '\(prefix)'")
        }
    }

    @Test func looseAndPackedAndNestedTags() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        for name in ["v1.0.0", "v1.1.0", "v1-rc", "ios/v1.0.0", "ios/beta/v1.1.0", "android/v2.0.0", "build-7"] {
            try repo.tag(name, annotated: name.hasPrefix("v") || name.hasPrefix("ios"))
        }
        try repo.git(["pack-refs", "--all"])
        // Loose again after packing: these are listed once, as loose names.
        for name in ["v1.2.0", "v0.9.0", "ios/v1.2.0", "zz/deep/er/v3"] { try repo.tag(name) }
        try repo.git(["tag", "-f", "v1.0.0", "HEAD"])
        // A lock file left by an interrupted git is no tag.
        try repo.write(".git/refs/tags/v9.9.9.lock", try repo.git(["rev-parse", "HEAD"]))
        let git = try Repository(at: repo.path)
        let names = try git.tagNames()
        #expect(names.contains("v1.0.0") && names.contains("zz/deep/er/v3") && !names.contains("v9.9.9.lock"))
        #expect(names.filter { $0 == "v1.0.0" }.count == 1)
        try expectSameAsLibgit2(git, prefixes: ["", "v", "v1", "v1.", "ios/", "ios/v", "ios/beta/", "i", "zz/deep/", "none/"])
    }

    /// The sort compares the first eight bytes as one number: names alike for eight bytes and more, names of eight
    /// bytes or fewer, and names that are not ASCII still come in libgit2's byte order.
    @Test func namesAlikeForEightBytesAndMoreSortAsLibgit2Does() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        for name in ["v1.2.3-rc.1", "v1.2.3-rc.10", "v1.2.3-rc.2", "v1.2.3", "v1.2.3-", "v12345678", "v1234567",
                     "v123456789", "v1.2.3-beta", "v1.2.3-alpha.1", "a", "ab", "abcdefgh", "abcdefghi", "abcdefgg",
                     "é-1", "e-1", "z\u{301}-2", "v1.2.3-rc.1-x"] {
            try repo.tag(name, annotated: false)
        }
        let git = try Repository(at: repo.path)
        #expect(try git.tagNames().count == 19)
        try expectSameAsLibgit2(git, prefixes: ["", "v", "v1.2.3", "v1.2.3-rc.1", "abcdefgh", "é", "z"])
    }

    @Test func onlyPackedOrOnlyLooseOrNoTags() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        let git = try Repository(at: repo.path)
        #expect(try git.tagNames().isEmpty)
        for name in ["v1.0.0", "v2.0.0"] { try repo.tag(name) }
        try expectSameAsLibgit2(git, prefixes: ["", "v"])
        try repo.git(["pack-refs", "--all"])
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.git/refs/tags/v1.0.0"))
        try expectSameAsLibgit2(git, prefixes: ["", "v", "v2"])
        #expect(try git.tagNames(prefix: "v") == ["v1.0.0", "v2.0.0"])
    }

    @Test func aLinkedWorktreeListsTheMainRepositorysTags() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        try repo.tag("v1.0.0")
        try repo.git(["pack-refs", "--all"])
        try repo.tag("v1.1.0")
        let folder = try makeTempDirectory(prefix: "relctl-worktree")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try repo.git(["worktree", "add", "-q", folder + "/wt"])
        let git = try Repository(at: folder + "/wt")
        #expect(try git.tagNames(prefix: "v") == ["v1.1.0", "v1.0.0"])
        try expectSameAsLibgit2(git, prefixes: ["", "v"])
    }

    @Test func aCorruptLooseTagFileIsListedButIsNoTag() throws {
        let repo = try TestRepository()
        try repo.commit("chore: init")
        try repo.tag("v1.0.0")
        try repo.write(".git/refs/tags/v2.0.0", "not a reference\n")
        let git = try Repository(at: repo.path)
        // libgit2 reads the file while listing and leaves it out; relctl lists the name and finds no tag in it.
        #expect(try git.tagNamesThroughLibgit2(prefix: "v") == ["v1.0.0"])
        #expect(try git.tagNames(prefix: "v") == ["v1.0.0", "v2.0.0"])
        #expect(try git.tag(named: "v2.0.0") == nil)
        #expect(try git.tag(named: "v1.0.0") != nil)
    }
}
