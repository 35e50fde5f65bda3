import Dispatch
import RelctlCore
import RelctlGit

/// Classifies commits on a second thread while the history walk goes on, in batches.
///
/// The walk is bound by reading objects; decoding and parsing messages is the other half of the work. Overlapping
/// the two keeps `relctl next` close to `git log` on long ranges. Results are keyed by id, so commits that drop out
/// of the final range (or a walk that is abandoned for the next base candidate) cost nothing but the work.
///
/// A batch goes to the worker only once the next one arrives: the last batch of a walk (the whole range, for most
/// releases) is classified in `analysis`, on the calling thread, so a short range never starts the worker thread.
final class StreamingClassifier: @unchecked Sendable {
    private let rules: ReleaseRules
    private lazy var queue = DispatchQueue(label: "relctl.classify")

    /// A batch of commits to classify: records that kept their messages, or the walker's objects (decoded by the
    /// thread that classifies them, not the walking thread, which inflates every commit and has the most to do).
    private enum Batch: @unchecked Sendable {
        case records(messages: [String], parentCounts: [Int], ids: [ObjectID])
        case handed(HandedCommits)

        var ids: [ObjectID] {
            switch self {
            case .records(_, _, let ids): ids
            case .handed(let commits): commits.ids
            }
        }

        func classify(rules: ReleaseRules, into results: inout [AnalyzedCommit]) {
            switch self {
            case .records(let messages, let parentCounts, let ids):
                for k in ids.indices {
                    results.append(StreamingClassifier.classify(
                        RawCommit(sha: ids[k].hex, message: messages[k], parentCount: parentCounts[k]), rules: rules))
                }
            case .handed(let commits):
                for k in 0..<commits.count {
                    results.append(StreamingClassifier.classify(
                        RawCommit(sha: commits.ids[k].hex, message: commits.message(at: k),
                                  parentCount: commits.parentCount(at: k)), rules: rules))
                }
            }
        }
    }

    /// Records added one by one (`add(_: CommitRecord)`), not yet a batch.
    private var pendingMessages: [String] = []
    private var pendingParentCounts: [Int] = []
    private var pendingIDs: [ObjectID] = []
    /// The newest whole batch: it goes to `queue` when another follows, else `analysis` classifies it.
    private var held: Batch?
    /// In stream order, with the id each came from (two arrays, so the commits can be handed on without a copy).
    /// Written only on `queue`.
    private var resultIDs: [ObjectID] = []
    private var results: [AnalyzedCommit] = []
    /// Batches handed to `queue` and not classified yet, at most `Self.ahead`: when the walk reads faster than the
    /// messages are classified, it waits, instead of piling up messages that are only waiting.
    private let inFlight = DispatchSemaphore(value: StreamingClassifier.ahead)
    private static let ahead = 2
    /// The size of the batches `add(_: CommitRecord)` makes; the walker's batches (`HistoryWalker.batchSize`) are
    /// this size too.
    static let batch = 2048
    /// Whether a batch went to `queue` since the last `reset`.
    private var sent = false
    /// How many batches went to `queue` in all (for tests).
    private(set) var batchesSent = 0

    init(rules: ReleaseRules) { self.rules = rules }

    /// A new walk starts: what the last one sent is of no use.
    func reset() {
        pendingMessages.removeAll()
        pendingParentCounts.removeAll()
        pendingIDs.removeAll()
        held = nil
        guard sent else { return }
        sent = false
        queue.async {
            self.results.removeAll()
            self.resultIDs.removeAll()
        }
    }

    /// A commit whose record kept its message.
    func add(_ record: CommitRecord) {
        pendingMessages.append(record.message)
        pendingParentCounts.append(record.parentCount)
        pendingIDs.append(record.id)
        if pendingIDs.count >= Self.batch {
            hold(.records(messages: pendingMessages, parentCounts: pendingParentCounts, ids: pendingIDs))
            pendingMessages.removeAll(keepingCapacity: true)
            pendingParentCounts.removeAll(keepingCapacity: true)
            pendingIDs.removeAll(keepingCapacity: true)
        }
    }

    /// A batch from a walker that hands messages on.
    func add(_ commits: HandedCommits) {
        hold(.handed(commits))
    }

    private func hold(_ batch: Batch) {
        if let previous = held { send(previous) }
        held = batch
    }

    private func send(_ batch: Batch) {
        let rules = self.rules
        inFlight.wait()
        sent = true
        batchesSent += 1
        queue.async {
            defer { self.inFlight.signal() }
            batch.classify(rules: rules, into: &self.results)
            self.resultIDs.append(contentsOf: batch.ids)
        }
    }

    /// One commit classified, keeping what the results need: the body and the footers are read by the
    /// classification (a breaking change, a revert) and printed by no command, so they are not kept (at 100,000
    /// commits they are a copy of most of each message).
    private static func classify(_ commit: RawCommit, rules: ReleaseRules) -> AnalyzedCommit {
        var analyzed = CommitAnalyzer.classify(commit, rules: rules)
        analyzed.dropBodyAndFooters()
        return analyzed
    }

    /// The analysis of the final range, classifying here whatever the stream did not cover. `message` gives the
    /// message of such a commit (a walker that hands messages on leaves the range's records without them).
    func analysis(of commits: [CommitRecord],
                  message: (CommitRecord) throws -> String) rethrows -> CommitAnalysis {
        // The last batches are classified here while the queue finishes the ones before.
        var tail: [AnalyzedCommit] = []
        var tailIDs: [ObjectID] = []
        for batch in [held, pendingIDs.isEmpty ? nil
                      : .records(messages: pendingMessages, parentCounts: pendingParentCounts, ids: pendingIDs)] {
            guard let batch else { continue }
            batch.classify(rules: rules, into: &tail)
            tailIDs.append(contentsOf: batch.ids)
        }
        held = nil
        pendingMessages.removeAll()
        pendingParentCounts.removeAll()
        pendingIDs.removeAll()
        var done: [AnalyzedCommit] = []
        var doneIDs: [ObjectID] = []
        if sent {
            queue.sync {
                swap(&done, &results)
                swap(&doneIDs, &resultIDs)
            }
        }
        if done.isEmpty {
            swap(&done, &tail)
            swap(&doneIDs, &tailIDs)
        } else {
            done.append(contentsOf: tail)
            doneIDs.append(contentsOf: tailIDs)
        }
        tail = []
        tailIDs = []
        // Usually the final range is exactly what was streamed: hand the array on as it is.
        let classified: [AnalyzedCommit]
        if doneIDs.elementsEqual(commits.lazy.map(\.id)) {
            classified = done
        } else {
            // Some commits dropped out (or the stream was of another walk): keep the matches, classify the rest.
            var matched: [AnalyzedCommit] = []
            matched.reserveCapacity(commits.count)
            var next = 0
            for record in commits {
                while next < doneIDs.count && doneIDs[next] != record.id { next += 1 }
                if next < doneIDs.count {
                    matched.append(done[next])
                    next += 1
                } else {
                    matched.append(Self.classify(
                        RawCommit(sha: record.id.hex, message: try message(record), parentCount: record.parentCount),
                        rules: rules))
                }
            }
            classified = matched
        }
        done = []
        return CommitAnalyzer.combine(classified, broughtIn: { Self.broughtIn(by: $0, mainline: $1, in: commits) })
    }

    /// The commits of the range a merge brought in: reachable from its other parents, not from the mainline
    /// (the parent named by `mainline`, a sha or its prefix; else the first parent).
    static func broughtIn(by mergeSHA: String, mainline: String?, in commits: [CommitRecord]) -> [String] {
        guard let mergeID = ObjectID(hex: mergeSHA) else { return [] }
        var byID: [ObjectID: CommitRecord] = [:]
        for record in commits { byID[record.id] = record }
        guard let merge = byID[mergeID], merge.parents.count > 1 else { return [] }
        func reachable(from starts: [ObjectID]) -> Set<ObjectID> {
            var seen = Set<ObjectID>()
            var stack = starts.filter { byID[$0] != nil }
            while let id = stack.popLast() {
                guard seen.insert(id).inserted, let record = byID[id] else { continue }
                stack.append(contentsOf: record.parents.filter { byID[$0] != nil })
            }
            return seen
        }
        let kept = mainline.flatMap { prefix in merge.parents.first { $0.hex.hasPrefix(prefix) } } ?? merge.parents[0]
        let mainlineCommits = reachable(from: [kept])
        return reachable(from: merge.parents.filter { $0 != kept }).subtracting(mainlineCommits).map(\.hex)
    }
}
