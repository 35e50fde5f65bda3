import RelctlCore
import RelctlGit

/// The fast path's two halves joined: RelctlGit's `CommitStream` walks the history and owns the second thread,
/// RelctlCore's `ASCIIClassifier` holds the rules. Nothing here runs concurrently on its own.
extension ReleaseRules {
    /// A history walk whose commits are classified by these rules as the walk goes.
    ///
    /// Each commit keeps what the results need: the body and the footers are read by the classification (a breaking
    /// change, a revert) and printed by no command, so they are not built (at 100,000 commits they are a copy of
    /// most of each message). One classifier per batch: it remembers the bump of each type it met.
    func commitStream(in repository: Repository) -> CommitStream<AnalyzedCommit> {
        let rules = self
        return CommitStream(repository: repository) { batch throws(GitError) in
            var classifier = ASCIIClassifier(rules: rules)
            var results: [AnalyzedCommit] = []
            results.reserveCapacity(batch.count)
            for k in 0..<batch.count {
                results.append(classifier.classify(message: try batch.message(at: k), parentCount: batch.parentCount(at: k),
                                                   id: batch.id(at: k).commitID))
            }
            return results
        }
    }
}

extension CommitStream<AnalyzedCommit>.Range {
    /// The range's analysis: reverts paired with their targets (a reverted merge with what it brought in), the
    /// largest bump. The classified commits move into it.
    mutating func analysis() -> CommitAnalysis {
        let commits = self.commits
        var classified: [AnalyzedCommit] = []
        swap(&classified, &self.classified)
        return CommitAnalyzer.combine(consume classified, broughtIn: { commits.broughtIn(by: $0, mainline: $1) })
    }
}

extension ObjectID {
    /// The same 20 bytes as RelctlCore's commit id.
    var commitID: CommitID { withRawBytes(CommitID.init(bytes:)) }
}
