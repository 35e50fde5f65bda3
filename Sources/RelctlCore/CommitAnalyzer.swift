/// A commit as read from the repository.
public struct RawCommit: Hashable, Sendable {
    /// Hexadecimal object id (any case; compared case-insensitively).
    public var sha: String
    /// The full message, already decoded (see ``ConventionalCommitParser/decode(_:)``).
    public var message: String
    /// Number of parents: 0 for a root commit, more than 1 for a merge.
    public var parentCount: Int

    public init(sha: String, message: String, parentCount: Int = 1) {
        self.sha = sha
        self.message = message
        self.parentCount = parentCount
    }
}

/// What the analyzer made of one commit.
public enum CommitStatus: String, Sendable {
    /// Contributes ``AnalyzedCommit/bump`` (which may still be `.none` only for other statuses).
    case counted
    /// The header is not a Conventional Commits header.
    case notConventional
    /// Conventional, but its type bumps nothing under the rules.
    case noReleaseType
    /// A merge commit skipped because of ``ReleaseRules/ignoreMerges``.
    case merge
    /// A `fixup!`/`squash!`/`amend!` commit skipped because of ``ReleaseRules/ignoreFixups``.
    case fixup
    /// Cancelled by an effective revert later in the same range.
    case reverted
    /// A revert whose target is in the same range: it cancelled that commit and does not count either.
    case revertCancelled
}

/// The result of ``CommitAnalyzer/analyze(_:rules:)``.
public struct CommitAnalysis: Sendable {
    /// In input order (newest first).
    public var commits: [AnalyzedCommit]
    /// The largest bump of the counted commits; `.none` when nothing is releasable.
    public var bump: Bump

    public init(commits: [AnalyzedCommit], bump: Bump) {
        self.commits = commits
        self.bump = bump
    }

    /// The commits that contribute to the release.
    public var countedCommits: [AnalyzedCommit] { commits.filter(\.counted) }
}

/// Classifies commits and computes the release bump.
///
/// Per commit, in this order:
/// 1. more than one parent and ``ReleaseRules/ignoreMerges`` → `.merge`;
/// 2. summary starting with `fixup! `, `squash! ` or `amend! ` and ``ReleaseRules/ignoreFixups`` → `.fixup`
///    (when fixups are not ignored, the prefixes are stripped and the rest is analyzed normally);
/// 3. a revert (see below);
/// 4. not conventional → `.notConventional`; breaking → `.major`; else the type's rule,
///    `.noReleaseType` when that is `.none`.
///
/// **Reverts.** A commit is a revert when its summary is `Revert "…"` or `Reapply "…"` (git's
/// summary for reverting a revert) or its conventional type is `revert`, *and* its message
/// contains `This reverts commit <sha>` with 7 to 64 hex digits (an abbreviated sha matches
/// by prefix when it designates exactly one older commit of the input; an ambiguous one is
/// treated as out of range).
/// - Target in range: the result is that of replaying the history oldest first. A commit is
///   cancelled when an effective revert targets it; a revert is effective unless it is itself
///   cancelled. Cancelled commits are `.reverted`, effective reverts of in-range commits are
///   `.revertCancelled`; neither counts. So `A`, `Revert A`, `Revert (Revert A)` counts `A`
///   only (`Revert A` is `.reverted`, the last one `.revertCancelled`).
/// - Target out of range: the revert counts as `.patch`, except that a summary wrapping an even
///   number of reverts around a conventional header (`Revert "Revert "feat: x""`,
///   `Reapply "feat: x"`) re-applies that header and counts like it (`.noReleaseType` if it
///   bumps nothing).
///
/// Runs in time linear in the total message size (abbreviated revert shas add a scan of the
/// older commits per such revert).
public enum CommitAnalyzer {
    /// Analyzes `commits`, given newest first (as a history walk yields them); the result keeps that order.
    public static func analyze(_ commits: [RawCommit], rules: ReleaseRules) -> CommitAnalysis {
        // Each commit is classified on its own; only `combine` looks across commits. (The CLI classifies as the
        // history walk streams commits, on a second thread; see RelctlGit's CommitStream.)
        combine(commits.map { classify($0, rules: rules) })
    }

    /// Joins commits classified one by one (newest first) into the analysis: pairs reverts with their
    /// targets and takes the largest bump. `analyze` is `combine(commits.map { classify($0) })`; a caller
    /// that reads commits as a stream may classify them as they come, on another thread.
    ///
    /// `broughtIn`, when given, answers for a merge commit's sha which commits of the range that merge brought
    /// in (reachable from its other parents and not from the mainline: the parent the revert names, else the
    /// first): an effective revert of the merge
    /// (`git revert -m 1`, GitHub's "Revert" button) cancels them too. Without it, only the merge is cancelled.
    /// The array is consumed: statuses are updated in place, with no copy of the commits.
    public static func combine(_ classified: consuming [AnalyzedCommit],
                               broughtIn: ((_ merge: String, _ mainline: String?) -> [String])? = nil) -> CommitAnalysis {
        var results = classified
        var revertReferences: [Int: String] = [:]
        for index in results.indices {
            if let reference = results[index].revertedSHA { revertReferences[index] = reference }
        }
        var targets: [Int: Int] = [:]
        // Git prints lowercase hex; the keys are lowercase, and full shas are packed (no string per commit). Full
        // shas are found by their first 64 bits ([Int: Int], a type the program has in use already, where a new
        // dictionary type costs the runtime a search of the binary's conformances); anything else (an abbreviated
        // sha in a test, two shas sharing those bits) by the whole key.
        var byFirstWord: [Int: Int] = [:]
        var indexBySHA: [PackedSHA: Int]?
        func position(of key: PackedSHA) -> Int? {
            if let indexBySHA { return indexBySHA[key] }
            guard case .packed(let id) = key, let found = byFirstWord[Int(truncatingIfNeeded: id.leadingWord)],
                  results[found].shaKey == key else { return nil }
            return found
        }

        // Resolve revert targets among older commits (higher indices).
        if !revertReferences.isEmpty {
            byFirstWord.reserveCapacity(results.count)
            for index in results.indices.reversed() {   // the newest wins on duplicates
                let key = results[index].shaKey
                guard case .packed(let id) = key else { byFirstWord = [:]; break }
                if let other = byFirstWord[Int(truncatingIfNeeded: id.leadingWord)], results[other].shaKey != key {
                    byFirstWord = [:]
                    break
                }
                byFirstWord[Int(truncatingIfNeeded: id.leadingWord)] = index
            }
            if byFirstWord.isEmpty {
                var all: [PackedSHA: Int] = [:]
                for index in results.indices.reversed() { all[results[index].shaKey] = index }
                indexBySHA = all
            }
            // Short references resolve by binary search over the sorted shas: O(log n) each, never a scan.
            var sorted: [(sha: String, index: Int)] = []
            for (revertIndex, reference) in revertReferences {
                if let target = position(of: PackedSHA(reference)), target > revertIndex {
                    targets[revertIndex] = target
                    continue
                }
                guard reference.utf8.count < 40 else { continue }
                if sorted.isEmpty {
                    sorted = results.enumerated().map { ($1.shaKey.text, $0) }.sorted { $0.sha < $1.sha }
                }
                var low = 0, high = sorted.count
                while low < high {
                    let mid = (low + high) / 2
                    if sorted[mid].sha < reference { low = mid + 1 } else { high = mid }
                }
                var match: Int?
                var ambiguous = false
                while low < sorted.count, sorted[low].sha.hasPrefix(reference) {
                    if sorted[low].index > revertIndex {
                        if match != nil { ambiguous = true; break }
                        match = sorted[low].index
                    }
                    low += 1
                }
                if let match, !ambiguous { targets[revertIndex] = match }
            }
        }

        // Newest first: every revert of a commit is newer than it, so its effectiveness is known.
        var cancelled = [Bool](repeating: false, count: results.count)
        for index in results.indices {
            guard let target = targets[index] else { continue }
            if cancelled[index] {
                results[index].status = .reverted
            } else {
                results[index].status = .revertCancelled
                cancelled[target] = true
                // Reverting a merge reverts what it brought in (all older than this revert, so not yet visited).
                for sha in broughtIn?(results[target].sha, results[index].revertMainline) ?? [] {
                    if let merged = position(of: PackedSHA(sha.lowercased())), merged > index {
                        cancelled[merged] = true
                    }
                }
            }
            results[index].bump = .none
        }
        for index in results.indices where cancelled[index] {
            results[index].status = .reverted
            results[index].bump = .none
        }

        let bump = results.lazy.filter(\.counted).map(\.bump).max() ?? .none
        return CommitAnalysis(commits: results, bump: bump)
    }

    /// One commit on its own: merge, fixup, revert reference, conventional parse and bump.
    /// `revertedSHA` of the result is the (lowercased, possibly abbreviated) sha a revert names; `combine` pairs it.
    public static func classify(_ commit: RawCommit, rules: ReleaseRules) -> AnalyzedCommit {
        var text = commit.message
        var summary = ConventionalCommitParser.summary(of: text)
        let originalSummary = summary
        var status: CommitStatus?
        if rules.ignoreMerges, commit.parentCount > 1 {
            status = .merge
        } else if let stripped = stripFixupPrefixes(summary) {
            if rules.ignoreFixups {
                status = .fixup
            } else {
                text = stripped + String(decoding: text.utf8.dropFirst(originalSummary.utf8.count), as: UTF8.self)
                summary = stripped
            }
        }
        let message = ConventionalCommitParser.parse(text)
        var analyzed = AnalyzedCommit(sha: commit.sha, summary: originalSummary, message: message,
                                      bump: .none, status: status ?? .notConventional,
                                      isConventional: message != nil)
        if status == nil {
            if isRevertSummary(summary) || message?.normalizedType == "revert",
               let reference = revertReference(in: text) {
                analyzed.revertedSHA = reference
                analyzed.revertMainline = sha(after: mainlineMarker, in: text)
                analyzed.status = .counted
                analyzed.bump = reapplyBump(summary: summary, rules: rules) ?? .patch
                if analyzed.bump == .none { analyzed.status = .noReleaseType }
            } else if let message {
                analyzed.bump = rules.bump(for: message)
                analyzed.status = analyzed.bump == .none ? .noReleaseType : .counted
            }
        }
        return analyzed
    }

    // MARK: Helpers

    private static let fixupPrefixes = ["fixup! ", "squash! ", "amend! "]

    /// The summary without its leading `fixup! `/`squash! `/`amend! ` prefixes, or `nil` when it has none.
    static func stripFixupPrefixes(_ summary: String) -> String? {
        var rest = Substring(summary)
        var stripped = false
        while let prefix = fixupPrefixes.first(where: { hasASCIIPrefix(rest, $0) }) {
            rest = rest.dropFirst(prefix.count)
            stripped = true
        }
        return stripped ? String(rest) : nil
    }

    /// `summary.hasPrefix(prefix)` for an ASCII `prefix`. `Substring.hasPrefix` compares `Character`s through the
    /// generic `starts(with:)` (about 600 instructions a call, six calls a commit); a text that does not start with
    /// the prefix's bytes cannot start with its characters (ASCII has no other canonical form), so the bytes decide
    /// every "no" and the character-wise comparison only confirms a "yes" (a combining mark after the prefix makes
    /// it a "no").
    @inline(__always)
    static func hasASCIIPrefix(_ summary: Substring, _ prefix: String) -> Bool {
        summary.utf8.starts(with: prefix.utf8) && summary.hasPrefix(prefix)
    }

    static func isRevertSummary(_ summary: String) -> Bool {
        unwrapRevert(Substring(summary)) != nil
    }

    /// For `Revert "x"` → (`x`, 1); `Reapply "x"` → (`x`, 2); else `nil`.
    private static func unwrapRevert(_ summary: Substring) -> (inner: Substring, layers: Int)? {
        for (prefix, layers) in [("Revert \"", 1), ("Reapply \"", 2)]
            where summary.utf8.count > prefix.utf8.count && hasASCIIPrefix(summary, prefix) && summary.hasSuffix("\"") {
            return (summary.dropFirst(prefix.count).dropLast(), layers)
        }
        return nil
    }

    /// The bump of a revert chain that re-applies a conventional header, or `nil` when the summary
    /// is an odd number of reverts (a plain revert) or the innermost header is not conventional.
    private static func reapplyBump(summary: String, rules: ReleaseRules) -> Bump? {
        var current = Substring(summary)
        var layers = 0
        while let (inner, count) = unwrapRevert(current) {
            current = inner
            layers += count
        }
        guard layers > 0, layers.isMultiple(of: 2),
              let header = ConventionalCommitParser.parse(String(current)) else { return nil }
        return rules.bump(for: header)
    }

    private static let revertMarker = Array("This reverts commit ".utf8)

    /// The lowercased sha of the first `This reverts commit <sha>` of the message, if any.
    static func revertReference(in message: String) -> String? {
        sha(after: revertMarker, in: message)
    }

    /// `git revert -m N` of a merge adds "reversing changes made to <parent>": the side that stays.
    private static let mainlineMarker = Array("changes made to ".utf8)

    /// The lowercased 7-to-64-digit hex sha right after the first occurrence of `marker`, if any.
    private static func sha(after marker: [UInt8], in message: String) -> String? {
        let bytes = Array(message.utf8)
        guard bytes.count >= marker.count else { return nil }
        var index = 0
        while index + marker.count <= bytes.count {
            guard bytes[index] == marker[0], bytes[index..<(index + marker.count)].elementsEqual(marker) else {
                index += 1
                continue
            }
            var end = index + marker.count
            let start = end
            while end < bytes.count, bytes[end].isASCIIHexDigit { end += 1 }
            let length = end - start
            let terminated = end == bytes.count || !(bytes[end].isASCIILetter || bytes[end].isASCIIDigit)
            if length >= 7, length <= 64, terminated {
                return String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
            }
            index = end
        }
        return nil
    }
}




extension CommitAnalyzer {
    /// Whether a summary starts with `fixup! `, `squash! ` or `amend! ` (what `git commit --fixup` writes).
    package static func isFixup(_ summary: String) -> Bool { stripFixupPrefixes(summary) != nil }
}
