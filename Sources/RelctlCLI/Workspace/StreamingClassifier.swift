import Dispatch
import RelctlCore
import RelctlGit

/// Classifies commits on a second thread while the history walk goes on, in batches.
///
/// The walk is bound by reading objects; decoding and parsing messages is the other half of the work. Overlapping
/// the two keeps `relctl next` close to `git log` on long ranges. Results are keyed by id, so commits that drop out
/// of the final range (or a walk that is abandoned for the next base candidate) cost nothing but the work.
///
/// A batch goes on only once the next one arrives: the last batch of a walk (the whole range, for most releases) is
/// classified in `analysis`, on the calling thread, so a short range never starts the worker thread. A batch goes to
/// the worker when it has room (at most `ahead` batches waiting), else the calling thread classifies it itself: with
/// a commit-graph the walk reads no objects, and both threads read and classify the messages. Each thread reads
/// with a repository handle of its own; results are kept per batch and joined in walk order.
final class StreamingClassifier: @unchecked Sendable {
    private let rules: ReleaseRules
    private lazy var queue = DispatchQueue(label: "relctl.classify")
    /// The calling thread's repository, for the messages a walk from the commit-graph did not read.
    private let repository: Repository?
    /// The worker's own handle on the same repository, opened there when first needed. Used only on `queue`.
    private var workerRepository: Repository?

    /// A batch of commits to classify: records that kept their messages, or the walker's objects (decoded by the
    /// thread that classifies them, not the walking thread, which inflates every commit and has the most to do).
    private enum Batch: @unchecked Sendable {
        case records(messages: [String], parentCounts: [Int], ids: [ObjectID])
        case handed(HandedCommits)

        /// The batch classified; a commit whose message cannot be read is left out (`analysis` reads it again and
        /// reports the error).
        func classify(rules: ReleaseRules, reading repository: Repository?) -> Chunk {
            var chunk = Chunk()
            // Each commit keeps what the results need: the body and the footers are read by the classification (a
            // breaking change, a revert) and printed by no command, so they are not built (at 100,000 commits they
            // are a copy of most of each message).
            var classifier = ASCIIClassifier(rules: rules)
            switch self {
            case .records(let messages, let parentCounts, let ids):
                chunk.results.reserveCapacity(ids.count)
                for k in ids.indices {
                    chunk.results.append(classifier.classify(message: messages[k], parentCount: parentCounts[k],
                                                             sha: ids[k].bigEndianWords))
                }
            case .handed(let commits):
                chunk.results.reserveCapacity(commits.count)
                for k in 0..<commits.count {
                    guard let message = try? commits.message(at: k, reading: repository) else { continue }
                    chunk.results.append(classifier.classify(message: message, parentCount: commits.parentCount(at: k),
                                                             sha: commits.ids[k].bigEndianWords))
                }
            }
            return chunk
        }
    }

    /// One batch's results (each knows its sha), and its place in the walk.
    private struct Chunk {
        var sequence = 0
        var results: [AnalyzedCommit] = []
    }

    /// Records added one by one (`add(_: CommitRecord)`), not yet a batch.
    private var pendingMessages: [String] = []
    private var pendingParentCounts: [Int] = []
    private var pendingIDs: [ObjectID] = []
    /// The newest whole batch: it goes on when another follows, else `analysis` classifies it.
    private var held: Batch?
    /// The batches' place in the walk, counted from the last `reset`.
    private var sequence = 0
    /// Batches classified on the calling thread.
    private var ownChunks: [Chunk] = []
    /// Batches classified on `queue`, one after the other in one array (no copy when the worker did them all, the
    /// usual case without a commit-graph), with each batch's place and size; written only there.
    private var workerResults: [AnalyzedCommit] = []
    private var workerRuns: [(sequence: Int, count: Int)] = []
    /// Batches handed to `queue` and not classified yet, at most `Self.ahead`: when the worker is behind, the calling
    /// thread classifies the next batch itself instead of piling up batches that are only waiting.
    private let inFlight = DispatchSemaphore(value: StreamingClassifier.ahead)
    private static let ahead = 2
    /// The size of the batches `add(_: CommitRecord)` makes; the walker's batches (`HistoryWalker.batchSize`) are
    /// this size too.
    static let batch = 2048
    /// Whether a batch went to `queue` since the last `reset`.
    private var sent = false
    /// How many batches went to `queue` in all (for tests).
    private(set) var batchesSent = 0

    /// `repository`: where the messages of a walker that hands them on are read (it and a handle of the worker's
    /// own on the same folder).
    init(rules: ReleaseRules, repository: Repository? = nil) {
        self.rules = rules
        self.repository = repository
    }

    /// A new walk starts: what the last one sent is of no use.
    func reset() {
        pendingMessages.removeAll()
        pendingParentCounts.removeAll()
        pendingIDs.removeAll()
        held = nil
        sequence = 0
        ownChunks.removeAll()
        guard sent else { return }
        sent = false
        queue.async {
            self.workerResults.removeAll()
            self.workerRuns.removeAll()
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
        if let previous = held { pass(previous) }
        held = batch
    }

    /// To the worker. A batch whose objects are still to be read (a walk from the commit-graph, which reads none
    /// itself) is classified here when the worker has no room, so both threads read; a walk that reads the objects
    /// has the most to do itself and waits for room instead.
    private func pass(_ batch: Batch) {
        let number = sequence
        sequence += 1
        var sharesWork = false
        if case .handed(let commits) = batch, commits.unread > 0 { sharesWork = true }
        if !sharesWork {
            inFlight.wait()
        } else if inFlight.wait(timeout: .now()) != .success {
            var chunk = batch.classify(rules: rules, reading: repository)
            chunk.sequence = number
            ownChunks.append(chunk)
            return
        }
        let rules = self.rules
        let folder = repository?.gitDir
        sent = true
        batchesSent += 1
        queue.async {
            defer { self.inFlight.signal() }
            if self.workerRepository == nil, let folder { self.workerRepository = try? Repository(at: folder) }
            let chunk = batch.classify(rules: rules, reading: self.workerRepository)
            self.workerResults += chunk.results
            self.workerRuns.append((number, chunk.results.count))
        }
    }


    /// The analysis of the final range, classifying here whatever the stream did not cover. `message` gives the
    /// message of such a commit (a walker that hands messages on leaves the range's records without them).
    func analysis(of commits: [CommitRecord],
                  message: (CommitRecord) throws -> String) rethrows -> CommitAnalysis {
        // The last batches are classified here while the queue finishes the ones before.
        for batch in [held, pendingIDs.isEmpty ? nil
                      : .records(messages: pendingMessages, parentCounts: pendingParentCounts, ids: pendingIDs)] {
            guard let batch else { continue }
            var chunk = batch.classify(rules: rules, reading: repository)
            chunk.sequence = sequence
            sequence += 1
            ownChunks.append(chunk)
        }
        held = nil
        pendingMessages.removeAll()
        pendingParentCounts.removeAll()
        pendingIDs.removeAll()
        var done: [AnalyzedCommit] = []
        var runs: [(sequence: Int, count: Int)] = []
        if sent {
            queue.sync {
                swap(&done, &workerResults)
                swap(&runs, &workerRuns)
            }
        }
        if let last = runs.last, let firstOwn = ownChunks.first, firstOwn.sequence < last.sequence {
            // Both threads classified batches (a walk from the commit-graph): joined in walk order.
            var merged: [AnalyzedCommit] = []
            merged.reserveCapacity(done.count + ownChunks.reduce(0) { $0 + $1.results.count })
            var start = 0, own = 0
            for run in runs {
                while own < ownChunks.count && ownChunks[own].sequence < run.sequence {
                    merged += ownChunks[own].results
                    own += 1
                }
                merged += done[start..<(start + run.count)]
                start += run.count
            }
            for k in own..<ownChunks.count { merged += ownChunks[k].results }
            done = merged
        } else if done.isEmpty, ownChunks.count == 1 {
            swap(&done, &ownChunks[0].results)
        } else {
            for chunk in ownChunks { done += chunk.results }
        }
        ownChunks = []
        // Usually the final range is exactly what was streamed: hand the array on as it is.
        let classified: [AnalyzedCommit]
        if done.count == commits.count, zip(done, commits).allSatisfy({ $0.hasSHA($1.id.bigEndianWords) }) {
            classified = done
        } else {
            // Some commits dropped out (or the stream was of another walk): keep the matches, classify the rest.
            var matched: [AnalyzedCommit] = []
            var classifier = ASCIIClassifier(rules: rules)
            matched.reserveCapacity(commits.count)
            var next = 0
            for record in commits {
                let words = record.id.bigEndianWords
                while next < done.count && !done[next].hasSHA(words) { next += 1 }
                if next < done.count {
                    matched.append(done[next])
                    next += 1
                } else {
                    matched.append(classifier.classify(message: try message(record), parentCount: record.parentCount,
                                                       sha: record.id.bigEndianWords))
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
