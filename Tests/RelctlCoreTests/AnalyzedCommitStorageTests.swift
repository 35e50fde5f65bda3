import Testing
@testable import RelctlCore

/// `AnalyzedCommit` stores a full sha as 20 bytes and a header as offsets into the summary; every property still
/// reads back exactly what the classification made, and what the compact form cannot hold is kept whole.
@Suite("AnalyzedCommit: compact storage")
struct AnalyzedCommitStorageTests {
    static let fullSHA = "0123456789abcdef0123456789abcdef01234567"

    /// The classification of `message` reads back the sha, summary and parsed message it was made from.
    static func roundTrip(_ message: String, sha: String = fullSHA) {
        let analyzed = CommitAnalyzer.classify(RawCommit(sha: sha, message: message), rules: .default)
        let parsed = ConventionalCommitParser.parse(message)
        #expect(analyzed.sha == sha)
        #expect(analyzed.summary == ConventionalCommitParser.summary(of: message))
        #expect(analyzed.message == parsed, "\(message)")
        #expect(analyzed.isConventional == (analyzed.message != nil))
    }

    @Test(arguments: [
        "feat: add the thing", "fix(api): handle a timeout\n\nthe body\n", "feat(ui)!: drop iOS 15",
        "perf: faster\n\nBREAKING CHANGE: the cache format changed", "chore: with footers\n\nRefs: #12\nReviewed-by: A",
        "not conventional at all", "feat:  two spaces before the description", "feat: trailing space   ",
        "\n\nfeat: after blank lines", "feat(a b): ünïcödé déscription ✨",
        "docs!: a bang\n\nBREAKING CHANGE: another text",
        "Revert \"feat: x\"\n\nThis reverts commit 0123456789abcdef0123456789abcdef01234567.\n",
    ])
    func everyPropertyReadsBackAsClassified(_ message: String) {
        Self.roundTrip(message)
        Self.roundTrip(message, sha: "ABCDEF0123456789ABCDEF0123456789ABCDEF01")
        Self.roundTrip(message, sha: "a1")
    }

    @Test func aFixupAnalyzedAsItsTargetKeepsTheStrippedHeader() throws {
        var rules = ReleaseRules.default
        rules.ignoreFixups = false
        let analyzed = CommitAnalyzer.classify(RawCommit(sha: Self.fullSHA, message: "fixup! feat(x): y\n"),
                                               rules: rules)
        #expect(analyzed.summary == "fixup! feat(x): y")
        #expect(analyzed.message == ConventionalMessage(type: "feat", scope: "x", description: "y"))
        #expect(analyzed.bump == .minor)
    }

    @Test func changingTheSummaryKeepsTheMessage() {
        var analyzed = CommitAnalyzer.classify(RawCommit(sha: Self.fullSHA, message: "feat(x): y"), rules: .default)
        let message = analyzed.message
        analyzed.summary = "something else entirely"
        #expect(analyzed.message == message)
        analyzed.sha = "abc"
        #expect(analyzed.sha == "abc")
        analyzed.revertedSHA = "1234567"
        #expect(analyzed.revertedSHA == "1234567" && analyzed.revertMainline == nil)
        analyzed.revertMainline = "89abcde"
        analyzed.revertedSHA = nil
        #expect(analyzed.revertedSHA == nil && analyzed.revertMainline == "89abcde")
    }

    @Test func droppingBodyAndFootersKeepsTheBreakingChanges() {
        var analyzed = CommitAnalyzer.classify(
            RawCommit(sha: Self.fullSHA, message: "feat: y\n\nbody\n\nBREAKING CHANGE: z\nRefs: #1"), rules: .default)
        analyzed.dropBodyAndFooters()
        #expect(analyzed.message == ConventionalMessage(type: "feat", description: "y", breakingChanges: ["z"]))
        #expect(analyzed.bump == .major)
    }

    @Test func equalClassificationsAreEqualAndHashAlike() {
        let a = CommitAnalyzer.classify(RawCommit(sha: Self.fullSHA, message: "fix: y"), rules: .default)
        var b = CommitAnalyzer.classify(RawCommit(sha: Self.fullSHA, message: "fix: y\n"), rules: .default)
        #expect(a == b && a.hashValue == b.hashValue)
        b.message = ConventionalMessage(type: "fix", description: "y", body: "more")
        #expect(a != b)
    }

    /// Reverts are paired by the shas' first 64 bits; two shas sharing them still find their own commit.
    @Test func revertsPairWhenTwoShasShareTheirFirst64Bits() {
        let older = "0123456789abcdef" + String(repeating: "1", count: 24)
        let twin = "0123456789abcdef" + String(repeating: "2", count: 24)
        let commits = [
            RawCommit(sha: "f" + String(repeating: "0", count: 39),
                      message: "Revert \"feat: b\"\n\nThis reverts commit \(twin).\n"),
            RawCommit(sha: twin, message: "feat: b"),
            RawCommit(sha: older, message: "fix: a"),
        ]
        let analysis = CommitAnalyzer.analyze(commits, rules: .default)
        #expect(analysis.commits.map(\.status) == [.revertCancelled, .reverted, .counted])
        #expect(analysis.bump == .patch)
        let reversed = CommitAnalyzer.analyze([commits[0], commits[2], commits[1]], rules: .default)
        #expect(reversed.commits.map(\.status) == [.revertCancelled, .counted, .reverted])
    }

    @Test func aCommitIsAtMost64Bytes() {
        #expect(MemoryLayout<AnalyzedCommit>.stride <= 64)
    }

    @Test func aSummaryTooLongForOffsetsIsKeptWhole() {
        let message = "feat: " + String(repeating: "x", count: 70_000)
        let analyzed = CommitAnalyzer.classify(RawCommit(sha: Self.fullSHA, message: message), rules: .default)
        #expect(analyzed.message == ConventionalCommitParser.parse(message))
        #expect(analyzed.message?.description.utf8.count == 70_000)
    }
}
