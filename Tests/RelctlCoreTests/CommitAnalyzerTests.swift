import Testing
@testable import RelctlCore

/// A deterministic 40-hex sha for test commit `n`.
private func sha(_ n: Int) -> String {
    let hex = String(n, radix: 16)
    return String(repeating: "0", count: 40 - hex.count - 1) + "a" + hex
}

private func commit(_ n: Int, _ message: String, parents: Int = 1) -> RawCommit {
    RawCommit(sha: sha(n), message: message, parentCount: parents)
}

/// `git revert` style message for reverting `header` of commit `target`.
private func revertMessage(of header: String, target: String) -> String {
    "Revert \"\(header)\"\n\nThis reverts commit \(target).\n"
}

private func analyze(_ commits: [RawCommit], rules: ReleaseRules = .default) -> CommitAnalysis {
    CommitAnalyzer.analyze(commits, rules: rules)
}

@Suite("CommitAnalyzer basics")
struct CommitAnalyzerBasicTests {
    @Test func emptyInput() {
        let analysis = analyze([])
        #expect(analysis.commits.isEmpty)
        #expect(analysis.bump == .none)
    }

    @Test func bumpIsMaxOverCountedCommitsAndOrderIsKept() {
        let analysis = analyze([
            commit(4, "docs: readme"),
            commit(3, "fix: crash"),
            commit(2, "feat(ui): button"),
            commit(1, "random words"),
        ])
        #expect(analysis.commits.map(\.sha) == [sha(4), sha(3), sha(2), sha(1)])
        #expect(analysis.commits.map(\.status) == [.noReleaseType, .counted, .counted, .notConventional])
        #expect(analysis.commits.map(\.bump) == [.none, .patch, .minor, .none])
        #expect(analysis.commits.map(\.isConventional) == [true, true, true, false])
        #expect(analysis.commits.map(\.counted) == [false, true, true, false])
        #expect(analysis.bump == .minor)
        #expect(analysis.countedCommits.map(\.sha) == [sha(3), sha(2)])
    }

    @Test(arguments: [
        (["fix: a"], Bump.patch),
        (["perf: a", "fix: b"], .patch),
        (["fix: a", "feat: b"], .minor),
        (["chore: a", "docs: b", "style: c", "refactor: d", "test: e", "ci: f", "build: g"], .none),
        (["chore!: drop support"], .major),
        (["docs: x\n\nBREAKING CHANGE: y", "fix: z"], .major),
        (["FEAT: shouting", "Fix: z"], .minor),
        (["not conventional", "also not"], .none),
    ])
    func analysisBump(messages: [String], expected: Bump) {
        let commits = messages.enumerated().map { commit($0.offset, $0.element) }
        #expect(analyze(commits).bump == expected)
    }

    @Test func breakingChangeIsMajorWhateverTheType() throws {
        let analysis = analyze([commit(1, "chore!: x"), commit(2, "test: y\n\nBREAKING-CHANGE: z"), commit(3, "custom!: w")])
        #expect(analysis.commits.map(\.bump) == [.major, .major, .major])
        #expect(analysis.commits.map(\.counted) == [true, true, true])
        let message = try #require(analysis.commits[1].message)
        #expect(message.breakingChanges == ["z"])
    }

    @Test func summaryIsTheFirstLine() {
        let analysis = analyze([commit(1, "feat: x  \r\n\r\nbody")])
        #expect(analysis.commits[0].summary == "feat: x")
    }

    @Test func nonUTF8MessagesAreAnalyzed() {
        let text = ConventionalCommitParser.decode(Array("fix: caf".utf8) + [0xE9, 0xFF])
        let analysis = analyze([RawCommit(sha: sha(1), message: text, parentCount: 1)])
        #expect(analysis.bump == .patch)
        #expect(analysis.commits[0].summary == "fix: caf\u{FFFD}\u{FFFD}")
    }
}

@Suite("CommitAnalyzer merges and fixups")
struct CommitAnalyzerMergeFixupTests {
    @Test func mergesAreIgnoredByDefault() {
        let analysis = analyze([
            commit(3, "feat: merged pr (#12)", parents: 2),
            commit(2, "Merge branch 'x'", parents: 3),
            commit(1, "fix: y", parents: 0),
        ])
        #expect(analysis.commits.map(\.status) == [.merge, .merge, .counted])
        #expect(analysis.commits.map(\.bump) == [.none, .none, .patch])
        #expect(analysis.commits[0].isConventional)
        #expect(analysis.bump == .patch)
    }

    @Test func mergesCountWhenNotIgnored() {
        let rules = ReleaseRules(ignoreMerges: false)
        let analysis = analyze([
            commit(2, "feat: merged pr (#12)", parents: 2),
            commit(1, "Merge branch 'x'", parents: 2),
        ], rules: rules)
        #expect(analysis.commits.map(\.status) == [.counted, .notConventional])
        #expect(analysis.bump == .minor)
    }

    @Test(arguments: ["fixup! feat: x", "squash! feat: x", "amend! feat: x", "fixup! fixup! feat!: x", "squash! fixup! feat: x"])
    func fixupsAreIgnoredByDefault(_ message: String) {
        let analysis = analyze([commit(2, message + "\n\nBREAKING CHANGE: y"), commit(1, "fix: z")])
        #expect(analysis.commits[0].status == .fixup)
        #expect(analysis.commits[0].bump == .none)
        #expect(analysis.commits[0].summary == message)
        #expect(analysis.bump == .patch)
    }

    @Test func fixupsCountWhenNotIgnored() throws {
        let rules = ReleaseRules(ignoreFixups: false)
        let analysis = analyze([
            commit(4, "fixup! feat: x\r\n\r\nbody"),
            commit(3, "squash! fix!: y"),
            commit(2, "amend! Some text"),
            commit(1, "fixup! docs: d"),
        ], rules: rules)
        #expect(analysis.commits.map(\.status) == [.counted, .counted, .notConventional, .noReleaseType])
        #expect(analysis.commits.map(\.bump) == [.minor, .major, .none, .none])
        let message = try #require(analysis.commits[0].message)
        #expect(message.description == "x")
        #expect(message.body == "body")
        #expect(analysis.commits[0].summary == "fixup! feat: x")
        #expect(analysis.bump == .major)
    }

    @Test(arguments: ["fixup!feat: x", "Fixup! feat: x", "fixup feat: x", " fixup! feat: x"])
    func notFixups(_ message: String) {
        let analysis = analyze([commit(1, message)])
        #expect(analysis.commits[0].status == .notConventional)
    }

    @Test func mergeTakesPrecedenceOverFixup() {
        let analysis = analyze([commit(1, "fixup! feat: x", parents: 2)])
        #expect(analysis.commits[0].status == .merge)
    }
}

@Suite("CommitAnalyzer reverts")
struct CommitAnalyzerRevertTests {
    @Test func revertInRangeCancelsBoth() {
        let analysis = analyze([
            commit(3, revertMessage(of: "feat: x", target: sha(1))),
            commit(2, "fix: y"),
            commit(1, "feat: x"),
        ])
        #expect(analysis.commits.map(\.status) == [.revertCancelled, .counted, .reverted])
        #expect(analysis.commits.map(\.bump) == [.none, .patch, .none])
        #expect(analysis.commits[0].revertedSHA == sha(1))
        #expect(analysis.bump == .patch)
    }

    @Test func revertOfBreakingChangeInRangeRemovesTheMajor() {
        let analysis = analyze([
            commit(2, revertMessage(of: "feat!: x", target: sha(1))),
            commit(1, "feat!: x"),
        ])
        #expect(analysis.bump == .none)
        #expect(analysis.countedCommits.isEmpty)
    }

    @Test func revertOutOfRangeIsPatch() {
        let analysis = analyze([
            commit(2, revertMessage(of: "feat: x", target: "0123456789abcdef0123456789abcdef01234567")),
            commit(1, "docs: y"),
        ])
        #expect(analysis.commits[0].status == .counted)
        #expect(analysis.commits[0].bump == .patch)
        #expect(analysis.commits[0].isConventional == false)
        #expect(analysis.bump == .patch)
    }

    @Test func revertOfBreakingChangeOutOfRangeIsStillPatch() {
        let analysis = analyze([commit(1, revertMessage(of: "feat!: x", target: sha(99)))])
        #expect(analysis.bump == .patch)
    }

    @Test func revertWithoutReferenceIsNotConventional() {
        let analysis = analyze([commit(2, "Revert \"feat: x\""), commit(1, "feat: x")])
        #expect(analysis.commits.map(\.status) == [.notConventional, .counted])
        #expect(analysis.bump == .minor)
    }

    @Test func shortShaPrefixes() {
        let target = "abcdef0123456789abcdef0123456789abcdef01"
        let analysis = analyze([
            commit(2, revertMessage(of: "feat: x", target: "ABCDEF0")),
            RawCommit(sha: target, message: "feat: x", parentCount: 1),
        ])
        #expect(analysis.commits.map(\.status) == [.revertCancelled, .reverted])
        #expect(analysis.bump == .none)
    }

    @Test func shortShaTooShortIsNotAReference() {
        let analysis = analyze([
            commit(2, revertMessage(of: "feat: x", target: "abcdef")),
            RawCommit(sha: "abcdef0123456789abcdef0123456789abcdef01", message: "feat: x", parentCount: 1),
        ])
        #expect(analysis.commits.map(\.status) == [.notConventional, .counted])
    }

    @Test func ambiguousShortShaIsTreatedAsOutOfRange() {
        let analysis = analyze([
            commit(3, revertMessage(of: "feat: x", target: "abcdef01")),
            RawCommit(sha: "abcdef0111111111111111111111111111111111", message: "feat: x", parentCount: 1),
            RawCommit(sha: "abcdef0122222222222222222222222222222222", message: "feat: y", parentCount: 1),
        ])
        #expect(analysis.commits.map(\.status) == [.counted, .counted, .counted])
        #expect(analysis.commits[0].bump == .patch)
    }

    @Test func revertOnlyLooksAtOlderCommits() {
        // The "target" appears newer than the revert: impossible in a real walk, so not in range.
        let analysis = analyze([commit(2, "feat: x"), commit(1, revertMessage(of: "feat: x", target: sha(2)))])
        #expect(analysis.commits.map(\.status) == [.counted, .counted])
        #expect(analysis.commits.map(\.bump) == [.minor, .patch])
    }

    @Test func revertOfRevertChainReapplies() {
        let analysis = analyze([
            commit(3, "Revert \"Revert \"feat: x\"\"\n\nThis reverts commit \(sha(2)).\n"),
            commit(2, revertMessage(of: "feat: x", target: sha(1))),
            commit(1, "feat: x"),
        ])
        #expect(analysis.commits.map(\.status) == [.revertCancelled, .reverted, .counted])
        #expect(analysis.bump == .minor)
    }

    @Test func tripleRevertChainCancels() {
        let analysis = analyze([
            commit(4, "Revert \"Reapply \"feat: x\"\"\n\nThis reverts commit \(sha(3)).\n"),
            commit(3, "Reapply \"feat: x\"\n\nThis reverts commit \(sha(2)).\n"),
            commit(2, revertMessage(of: "feat: x", target: sha(1))),
            commit(1, "feat: x"),
        ])
        #expect(analysis.commits.map(\.status) == [.revertCancelled, .reverted, .revertCancelled, .reverted])
        #expect(analysis.bump == .none)
    }

    @Test func chainWhoseOriginIsOutOfRange() {
        // Revert (out of range) then its revert: both cancel, nothing is released.
        let analysis = analyze([
            commit(2, "Revert \"Revert \"feat: x\"\"\n\nThis reverts commit \(sha(1)).\n"),
            commit(1, revertMessage(of: "feat: x", target: sha(99))),
        ])
        #expect(analysis.commits.map(\.status) == [.revertCancelled, .reverted])
        #expect(analysis.bump == .none)
    }

    @Test(arguments: [
        ("Revert \"Revert \"feat: x\"\"", Bump.minor, CommitStatus.counted),
        ("Reapply \"feat!: x\"", .major, .counted),
        ("Reapply \"docs: x\"", .none, .noReleaseType),
        ("Reapply \"not conventional\"", .patch, .counted),
        ("Revert \"Revert \"Revert \"feat: x\"\"\"", .patch, .counted),
        ("revert: feat: x", .patch, .counted),
        ("revert(api): undo", .patch, .counted),
    ])
    func revertOutOfRangeSummaries(summary: String, bump: Bump, status: CommitStatus) {
        let analysis = analyze([commit(1, summary + "\n\nThis reverts commit \(sha(99)).")])
        #expect(analysis.commits[0].bump == bump)
        #expect(analysis.commits[0].status == status)
        #expect(analysis.commits[0].revertedSHA == sha(99))
    }

    @Test func conventionalRevertTypeCancelsInRange() {
        let analysis = analyze([commit(2, "revert: feat: x\n\nRefs: y\nThis reverts commit \(sha(1))."), commit(1, "feat: x")])
        #expect(analysis.commits.map(\.status) == [.revertCancelled, .reverted])
    }

    @Test func revertedMergeOrNonConventionalCommitsAreMarkedReverted() {
        let analysis = analyze([
            commit(3, revertMessage(of: "Merge pull request #1", target: sha(1))),
            commit(2, revertMessage(of: "wip", target: sha(2 + 100))),
            commit(1, "Merge pull request #1", parents: 2),
        ])
        #expect(analysis.commits.map(\.status) == [.revertCancelled, .counted, .reverted])
        #expect(analysis.bump == .patch)
    }

    @Test func revertThatIsIgnoredAsMergeDoesNotCancel() {
        let analysis = analyze([commit(2, revertMessage(of: "feat: x", target: sha(1)), parents: 2), commit(1, "feat: x")])
        #expect(analysis.commits.map(\.status) == [.merge, .counted])
        #expect(analysis.bump == .minor)
    }

    @Test func gitMergeRevertMessageIsRecognized() {
        let message = "Revert \"Merge branch 'f'\"\n\nThis reverts commit \(sha(1)), reversing\nchanges made to \(sha(50))."
        let analysis = analyze([commit(2, message), commit(1, "Merge branch 'f'", parents: 2)])
        #expect(analysis.commits.map(\.status) == [.revertCancelled, .reverted])
    }

    @Test(arguments: [
        ("This reverts commit abcdef0.", "abcdef0"),
        ("x\nThis reverts commit ABCDEF0123.\n", "abcdef0123"),
        ("This reverts commit abcdef0", "abcdef0"),
        ("This reverts commit abcdef0g.", nil),
        ("This reverts commit abc.", nil),
        ("This reverts commit .", nil),
        ("this reverts commit abcdef0.", nil),
        ("This reverts commit zzz. This reverts commit 1234567.", "1234567"),
        ("", nil),
    ] as [(String, String?)])
    func revertReferences(text: String, expected: String?) {
        #expect(CommitAnalyzer.revertReference(in: text) == expected)
    }

    /// Large inputs for correctness; their speed is the benchmark's business (scripts/bench), not a timed test's.
    @Test func manyCommitsAndRevertsPairCorrectly() {
        var commits: [RawCommit] = []
        for n in stride(from: 20_000, to: 0, by: -1) {
            commits.append(n.isMultiple(of: 2)
                ? commit(n, revertMessage(of: "feat: \(n - 1)", target: sha(n - 1)))
                : commit(n, "feat: \(n)"))
        }
        let analysis = analyze(commits)
        #expect(analysis.bump == .none)
        #expect(analysis.countedCommits.isEmpty)
        #expect(analysis.commits.count == 20_000)
        #expect(analysis.commits.filter { $0.status == .revertCancelled }.count == 10_000)
    }
}

@Suite("CommitAnalyzer rules")
struct CommitAnalyzerRulesTests {
    @Test func configurableBumpRules() {
        let rules = ReleaseRules(bumpForType: ["docs": .patch, "feat": .none, "Refactor": .minor])
        let analysis = analyze([
            commit(4, "docs: x"),
            commit(3, "feat: y"),
            commit(2, "REFACTOR: z"),
            commit(1, "fix: w"),
        ], rules: rules)
        #expect(analysis.commits.map(\.bump) == [.patch, .none, .minor, .none])
        #expect(analysis.commits.map(\.status) == [.counted, .noReleaseType, .counted, .noReleaseType])
        #expect(analysis.bump == .minor)
    }

    @Test func breakingStillMajorWhenTypeMapsToNone() {
        let rules = ReleaseRules(bumpForType: ["feat": .none])
        #expect(analyze([commit(1, "feat!: y")], rules: rules).bump == .major)
    }
}

@Suite("Reverting a merge")
struct RevertMergeTests {
    @Test func anEffectiveRevertOfAMergeCancelsWhatTheMergeBroughtIn() {
        // Newest first: revert of the merge, the merge, the branch's feat, main's fix.
        let commits = [
            commit(4, revertMessage(of: "Merge branch 'x'", target: sha(3))),
            commit(3, "Merge branch 'x'", parents: 2),
            commit(2, "feat: from the branch"),
            commit(1, "fix: on main"),
        ]
        let classified = commits.map { CommitAnalyzer.classify($0, rules: .default) }
        let analysis = CommitAnalyzer.combine(classified, broughtIn: { merge, _ in merge == sha(3) ? [sha(2)] : [] })
        #expect(analysis.commits.map(\.status) == [.revertCancelled, .reverted, .reverted, .counted])
        #expect(analysis.bump == .patch)
        // Without the graph only the merge itself is cancelled.
        #expect(CommitAnalyzer.combine(classified).bump == .minor)
    }
}
