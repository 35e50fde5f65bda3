import Foundation
import Testing
import RelctlTestSupport
@testable import RelctlCLI

// `relctl next` on histories that are easy to get wrong: reverted merges (either parent), shallow clones that
// cannot tell which tag is an ancestor, tags that are not commits, equal-precedence tags, a tag elsewhere.

@Suite("relctl next: reverted merges, tag choice and shallow clones")
struct NextHistoryEdgeTests {
    @Test func revertingAMergedPullRequestCancelsItsCommits() throws {
        let repo = try TestRepository.released("1.0.0", then: [])
        try repo.git(["checkout", "-q", "-b", "feature"])
        try repo.commit("feat: on the branch", file: "feature.txt")
        try repo.commit("fix: also on the branch", file: "feature.txt")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("docs: main moves too", file: "docs.txt")
        try repo.git(["merge", "-q", "--no-ff", "-m", "Merge pull request #1 from acme/feature", "feature"])
        #expect(relctl(["next"], in: repo.path).stdout == "1.1.0\n")
        let merge = try repo.head()
        try repo.git(["revert", "--no-edit", "-m", "1", merge])
        let result = relctl(["next", "--json"], in: repo.path)
        #expect(result.stdout.contains(#""next":null"#), "\(result.stdout)")
        #expect(result.stdout.components(separatedBy: #""status":"reverted""#).count - 1 == 3, "the merge and its two commits")
    }

    @Test func revertingAMergeAgainstItsSecondParentCancelsTheMainlineSide() throws {
        let repo = try TestRepository.released("1.0.0", then: [])
        try repo.git(["checkout", "-q", "-b", "feature"])
        try repo.commit("fix: on the branch", file: "feature.txt")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("feat: on main", file: "main.txt")
        try repo.git(["merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature"])
        // -m 2 keeps the branch side and drops what main brought: the feat is undone, the fix stays.
        try repo.git(["revert", "--no-edit", "-m", "2", try repo.head()])
        let result = relctl(["next"], in: repo.path)
        #expect(result.stdout == "1.0.1\n", "\(result.stderr)")
    }

    @Test func aFixAfterARevertedMergeStillCounts() throws {
        let repo = try TestRepository.released("1.0.0", then: [])
        try repo.git(["checkout", "-q", "-b", "feature"])
        try repo.commit("feat: on the branch", file: "feature.txt")
        try repo.git(["checkout", "-q", "main"])
        try repo.git(["merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature"])
        try repo.git(["revert", "--no-edit", "-m", "1", try repo.head()])
        try repo.commit("fix: unrelated", file: "other.txt")
        #expect(relctl(["next"], in: repo.path).stdout == "1.0.1\n")
    }

    @Test func aShallowCloneThatCannotTellAboutAHigherTagIsAnError() throws {
        // v2.0.0 sits on a branch merged into main; the shallow clone sees v1.0.0 but not v2.0.0's ancestry.
        let origin = try TestRepository()
        try origin.write(".relctl.json", "{}\n")
        try origin.commit("chore: root")
        try origin.commit("chore: n")
        try origin.git(["checkout", "-q", "-b", "side", "HEAD~1"])
        try origin.commit("chore: m2", file: "side.txt")
        try origin.commit("fix: s", file: "side.txt")
        try origin.git(["checkout", "-q", "-b", "next", "main"])
        try origin.commit("feat!: q2", file: "next.txt")
        try origin.commit("chore: x", file: "next.txt")
        try origin.tag("v2.0.0")
        try origin.git(["checkout", "-q", "main"])
        try origin.commit("chore: p", file: "p.txt")
        try origin.git(["merge", "-q", "--no-ff", "-m", "merge side", "side"])
        try origin.tag("v1.0.0")
        try origin.git(["merge", "-q", "--no-ff", "-m", "merge next", "next"])
        #expect(relctl(["next"], in: origin.path).stdout == "2.0.1\n")
        let dir = try makeTempDirectory(prefix: "relctl-shallow")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try origin.clone(to: dir + "/c", depth: 3)
        let result = relctl(["next"], in: dir + "/c")
        #expect(result.stdout != "2.0.0\n", "never a version whose tag exists")
        #expect(result.code == 1, "\(result.stdout)")
        // The message names the commit where the shallow history ends, a commit of the origin.
        let boundary = try #require(result.stderr.firstMatch(of: #/ends at ([0-9a-f]{12}) /#)?.output.1)
        #expect(try origin.git(["cat-file", "-t", String(boundary)]) == "commit\n")
        #expect(result.stderr.replacingOccurrences(of: String(boundary), with: "<sha>") == """
            error: this is a shallow clone and relctl cannot tell which release tags are ancestors of HEAD (the clone is \
            shallow and its history ends at <sha> before the range does), so the next version cannot be known; fetch the \
            full history with 'git fetch --unshallow --tags' (GitHub Actions: actions/checkout with 'fetch-depth: 0')

            """)
    }

    @Test func aPackedAnnotatedTagOfATreeIsPassedOver() throws {
        let repo = try TestRepository.released("1.0.0", then: ["feat: x"])
        try repo.git(["tag", "-a", "v8.0.0", "-m", "not a commit", "HEAD^{tree}"])
        try repo.git(["pack-refs", "--all"])
        let result = relctl(["next"], in: repo.path)
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stdout == "1.1.0\n")
    }

    @Test func equalPrecedenceTagsPreferTheOneNearestHead() throws {
        let repo = try TestRepository()
        try repo.write(".relctl.json", "{}\n")
        try repo.commit("chore: a")
        try repo.tag("v1.2.3")
        try repo.commit("feat: b")
        try repo.tag("v1.2.3+build.5")
        #expect(relctl(["next"], in: repo.path).stderr == "HEAD is already released as v1.2.3+build.5\n")
        let swapped = try TestRepository()
        try swapped.write(".relctl.json", "{}\n")
        try swapped.commit("chore: a")
        try swapped.tag("v1.2.3+build.5")
        try swapped.commit("feat: b")
        try swapped.tag("v1.2.3")
        #expect(relctl(["next"], in: swapped.path).stderr == "HEAD is already released as v1.2.3\n")
    }

    @Test func nextWarnsWhenItsTagAlreadyExistsElsewhere() throws {
        let repo = try TestRepository.released("1.0.0", then: [])
        try repo.git(["checkout", "-q", "-b", "rc"])
        try repo.commit("fix: on rc", file: "rc.txt")
        try repo.tag("v1.0.1")
        try repo.git(["checkout", "-q", "main"])
        try repo.commit("fix: on main", file: "main.txt")
        let result = relctl(["next"], in: repo.path)
        #expect(result.stdout == "1.0.1\n")
        #expect(result.stderr.hasSuffix("""
            \nwarning: tag v1.0.1 already exists but is not an ancestor of HEAD (another branch?); \
            'relctl release' will refuse to reuse it

            """), "\(result.stderr)")
    }
}
