import Dispatch

/// A history walk whose commits are classified on a second thread while the walk goes on, in batches: the one
/// walker API of the fast path (`relctl next`, `release`, `changelog`, `adopt`). The caller gives the range and a
/// classify closure (the rules live with the caller: RelctlCore's classifier); it gets back the range's commits
/// and one result per commit, in walk order. The walk, the threads and the batches stay here.
///
/// The walk is bound by reading objects; decoding and classifying messages is the other half of the work.
/// Overlapping the two keeps `relctl next` close to `git log` on long ranges. Results are matched to the final range
/// by id, so commits that drop out of it (or a walk that is abandoned for the next base candidate) cost nothing but
/// the work.
///
/// A batch goes on only once the next one arrives: the last batch of a walk (the whole range, for most releases) is
/// classified at the end, on the calling thread, so a short range never starts the worker thread. A batch goes to
/// the worker when it has room (at most `ahead` batches waiting), else the calling thread classifies it itself: with
/// a commit-graph the walk reads no objects, and both threads read and classify the messages. Each thread reads
/// with a repository handle of its own; results are kept per batch and joined in walk order. A batch whose
/// classification throws (a message that cannot be read) is classified again at the end, where the error is thrown.
package final class CommitStream<Classified: Sendable> {
    /// Classifies a batch, one result per commit in the batch's order; runs on either thread.
    package typealias Classify = @Sendable (CommitBatch) throws(GitError) -> [Classified]

    /// The commits of a walked range and their classification.
    package struct Range {
        /// For `rangeSinceFirstAncestor`: the chosen candidate's index and commit; nil when none is an ancestor.
        package var base: (index: Int, commit: ObjectID)?
        /// Newest first, in committer-date order; without their messages (they went to the classifier).
        package var commits: [CommitRecord]
        /// `classified[k]` is the result for `commits[k]`.
        package var classified: [Classified]
    }

    private let repository: Repository
    private let classify: Classify
    /// How many commits a batch holds (the last of a walk may hold fewer).
    package let batchSize: Int
    /// Whether the walk reads the commit-graph when the repository has one (the default).
    package var usesCommitGraph = true
    /// How many batches went to the worker thread in all (for tests).
    package var batchesSent: Int { worker?.batchesSent ?? 0 }

    /// The worker thread and its results, made when the first batch goes to it.
    private var worker: Worker?
    /// The newest whole batch: it goes on when another follows, else `finish` classifies it.
    private var held: HandedCommits?
    /// The batches' place in the walk, counted from the last `reset`.
    private var sequence = 0
    /// Batches classified on the calling thread.
    private var own: [Chunk] = []
    /// Batches handed to the worker and not classified yet, at most this many: when the worker is behind, the
    /// calling thread classifies the next batch itself instead of piling up batches that are only waiting.
    private static var ahead: Int { 2 }

    package init(repository: Repository, batchSize: Int = 2048, classify: @escaping Classify) {
        self.repository = repository
        self.batchSize = max(1, batchSize)
        self.classify = classify
    }

    /// The range since the first candidate tag whose commit is an ancestor of `head`, classified (see
    /// `HistoryWalker.rangeSinceFirstAncestor`: the candidates, their order and `samePrecedence`).
    package func rangeSinceFirstAncestor(of head: ObjectID, among candidates: [String],
                                        samePrecedence: ((Int, Int) -> Bool)? = nil) throws(GitError) -> Range {
        // The walker is freed as soon as the walk is done, before the last batches are classified.
        let (base, walk) = try walker().rangeSinceFirstAncestor(of: head, among: candidates, samePrecedence: samePrecedence,
                                                                 onWalk: reset, onBatch: add)
        return Range(base: base, commits: walk.commits, classified: try finish(walk.commits))
    }

    /// `base..head` classified (`base` nil: the whole history of `head`).
    package func range(from head: ObjectID, hiding base: ObjectID?) throws(GitError) -> Range {
        reset()
        let walk = try walker().walk(from: head, hiding: base, onBatch: add)
        return Range(base: nil, commits: walk.commits, classified: try finish(walk.commits))
    }

    private func walker() -> HistoryWalker {
        let walker = HistoryWalker(repository: repository, handsMessagesOn: true, batchSize: batchSize)
        walker.usesCommitGraph = usesCommitGraph
        return walker
    }

    /// One batch's results, the ids they belong to, and its place in the walk.
    private struct Chunk {
        var sequence: Int
        var ids: [ObjectID]
        var results: [Classified]
    }

    /// The batch classified, or an empty chunk when it could not be (its commits are classified again at the end).
    private static func chunk(of commits: HandedCommits, sequence: Int, reading repository: Repository?,
                              _ classify: Classify) -> Chunk {
        guard let results = try? classify(CommitBatch(commits, reading: repository)), results.count == commits.count else {
            return Chunk(sequence: sequence, ids: [], results: [])
        }
        return Chunk(sequence: sequence, ids: commits.ids, results: results)
    }

    /// A new walk starts: what the last one sent is of no use.
    private func reset() {
        held = nil
        sequence = 0
        own.removeAll()
        worker?.reset()
    }

    /// A batch from the walker.
    private func add(_ commits: HandedCommits) {
        if let previous = held { pass(previous) }
        held = commits
    }

    /// To the worker. A batch whose objects are still to be read (a walk from the commit-graph, which reads none
    /// itself) is classified here when the worker has no room, so both threads read; a walk that reads the objects
    /// has the most to do itself and waits for room instead.
    private func pass(_ commits: HandedCommits) {
        let number = sequence
        sequence += 1
        let worker = self.worker ?? Worker(folder: repository.gitDir, ahead: Self.ahead, classify: classify)
        self.worker = worker
        if commits.unread == 0 {
            worker.inFlight.wait()
        } else if worker.inFlight.wait(timeout: .now()) != .success {
            own.append(Self.chunk(of: commits, sequence: number, reading: repository, classify))
            return
        }
        worker.classify(commits, sequence: number)
    }

    /// The results for the final range, in its order: what the stream classified, and here whatever it did not cover.
    private func finish(_ commits: [CommitRecord]) throws(GitError) -> [Classified] {
        // The last batch is classified here while the worker finishes the ones before.
        if let last = held {
            own.append(Self.chunk(of: last, sequence: sequence, reading: repository, classify))
            sequence += 1
            held = nil
        }
        var ids: [ObjectID] = []
        var done: [Classified] = []
        var runs: [(sequence: Int, count: Int)] = []
        worker?.take(ids: &ids, results: &done, runs: &runs)
        if let last = runs.last, let firstOwn = own.first, firstOwn.sequence < last.sequence {
            // Both threads classified batches (a walk from the commit-graph): joined in walk order.
            var mergedIDs: [ObjectID] = [], merged: [Classified] = []
            let total = done.count + own.reduce(0) { $0 + $1.results.count }
            mergedIDs.reserveCapacity(total)
            merged.reserveCapacity(total)
            var start = 0, next = 0
            for run in runs {
                while next < own.count && own[next].sequence < run.sequence {
                    mergedIDs += own[next].ids
                    merged += own[next].results
                    next += 1
                }
                mergedIDs += ids[start..<(start + run.count)]
                merged += done[start..<(start + run.count)]
                start += run.count
            }
            for chunk in own[next...] {
                mergedIDs += chunk.ids
                merged += chunk.results
            }
            ids = mergedIDs
            done = merged
        } else if done.isEmpty, own.count == 1 {
            swap(&ids, &own[0].ids)
            swap(&done, &own[0].results)
        } else {
            for chunk in own {
                ids += chunk.ids
                done += chunk.results
            }
        }
        own = []
        // Usually the final range is exactly what was streamed: hand the array on as it is.
        if ids.count == commits.count, zip(ids, commits).allSatisfy({ $0 == $1.id }) { return done }
        // Some commits dropped out (or the stream was of a larger walk, or a batch failed): keep the matches,
        // classify the rest here, together.
        // Spans of the range found one after the other in `done` (the usual shape: the range is a part of a larger
        // walk), gathered a span at a time; `nil`: a commit classified here, in `late`.
        var spans: [(start: Int, count: Int)?] = []
        var missing: [CommitRecord] = []
        var next = 0
        for record in commits {
            while next < ids.count && ids[next] != record.id { next += 1 }
            if next < ids.count {
                if let last = spans.last, let run = last, run.start + run.count == next {
                    spans[spans.count - 1] = (run.start, run.count + 1)
                } else {
                    spans.append((next, 1))
                }
                next += 1
            } else {
                missing.append(record)
                spans.append(nil)
            }
        }
        ids = []
        let late = missing.isEmpty ? [] : try classify(CommitBatch(missing, reading: repository))
        guard late.count == missing.count else {
            throw GitError(kind: .other, operation: "classify commits",
                           message: "the classifier gave \(late.count) results for \(missing.count) commits")
        }
        var results: [Classified] = []
        results.reserveCapacity(commits.count)
        var lateIndex = 0
        for span in spans {
            if let span {
                results += done[span.start..<(span.start + span.count)]
            } else {
                results.append(late[lateIndex])
                lateIndex += 1
            }
        }
        return results
    }

    /// The second thread: a serial queue, the worker's own repository handle, and the results it made, in one
    /// array each (no copy when the worker did them all, the usual case without a commit-graph). Its mutable state is
    /// touched only on `queue`; the stream reads it with `queue.sync`, after the batches it sent.
    private final class Worker: @unchecked Sendable {
        let queue = DispatchQueue(label: "relctl.classify")
        let inFlight: DispatchSemaphore
        let folder: String
        let classify: Classify
        /// How many batches went to `queue` in all; read and written on the calling thread only.
        private(set) var batchesSent = 0
        /// Whether a batch went to `queue` since the last `reset` (calling thread).
        private var sent = false

        // On `queue` only.
        private var repository: Repository?
        private var ids: [ObjectID] = []
        private var results: [Classified] = []
        private var runs: [(sequence: Int, count: Int)] = []

        init(folder: String, ahead: Int, classify: @escaping Classify) {
            self.folder = folder
            self.inFlight = DispatchSemaphore(value: ahead)
            self.classify = classify
        }

        /// Classifies the batch on `queue`; the caller took a slot of `inFlight` for it.
        func classify(_ commits: HandedCommits, sequence: Int) {
            sent = true
            batchesSent += 1
            queue.async {
                defer { self.inFlight.signal() }
                if self.repository == nil { self.repository = try? Repository(at: self.folder) }
                let chunk = CommitStream.chunk(of: commits, sequence: sequence, reading: self.repository, self.classify)
                self.ids += chunk.ids
                self.results += chunk.results
                self.runs.append((sequence, chunk.results.count))
            }
        }

        /// Drops what was classified for an earlier walk.
        func reset() {
            guard sent else { return }
            sent = false
            queue.async {
                self.ids.removeAll()
                self.results.removeAll()
                self.runs.removeAll()
            }
        }

        /// Waits for the batches sent, and hands their results over.
        func take(ids: inout [ObjectID], results: inout [Classified], runs: inout [(sequence: Int, count: Int)]) {
            guard sent else { return }
            sent = false
            queue.sync {
                swap(&ids, &self.ids)
                swap(&results, &self.results)
                swap(&runs, &self.runs)
            }
        }
    }
}
