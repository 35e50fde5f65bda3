import Dispatch
import RelctlCore
import RelctlGit

/// Classifies commits on a second thread while the history walk goes on, in batches.
///
/// The walk is bound by reading objects; parsing messages is the other half of the work. Overlapping the two
/// keeps `relctl next` close to `git log` on long ranges. Results are keyed by sha, so commits that drop out
/// of the final range (or a walk that is abandoned for the next base candidate) cost nothing but the work.
final class StreamingClassifier: @unchecked Sendable {
    private let rules: ReleaseRules
    private let queue = DispatchQueue(label: "relctl.classify")
    private var pending: [RawCommit] = []
    /// In stream order, with the id each came from. Written only on `queue`.
    private var results: [(id: ObjectID, classified: ClassifiedCommit)] = []
    private var pendingIDs: [ObjectID] = []
    private static let batch = 2048

    init(rules: ReleaseRules) { self.rules = rules }

    /// A new walk starts: what the last one sent is of no use.
    func reset() {
        pending.removeAll()
        pendingIDs.removeAll()
        queue.async { self.results.removeAll() }
    }

    func add(_ record: CommitRecord) {
        pending.append(RawCommit(sha: record.id.hex, message: record.message, parentCount: record.parentCount))
        pendingIDs.append(record.id)
        if pending.count >= Self.batch { flush() }
    }

    private func flush() {
        guard !pending.isEmpty else { return }
        let batch = pending, ids = pendingIDs
        pending.removeAll(keepingCapacity: true)
        pendingIDs.removeAll(keepingCapacity: true)
        let rules = self.rules
        queue.async {
            for (id, commit) in zip(ids, batch) { self.results.append((id, CommitAnalyzer.classify(commit, rules: rules))) }
        }
    }

    /// The analysis of the final range, classifying here whatever the stream did not cover.
    func analysis(of commits: [CommitRecord]) -> CommitAnalysis {
        flush()
        var done: [(id: ObjectID, classified: ClassifiedCommit)] = []
        queue.sync { swap(&done, &results) }
        // The final range is the streamed one with some commits left out, in the same order.
        var classified: [ClassifiedCommit] = []
        classified.reserveCapacity(commits.count)
        var next = 0
        for record in commits {
            while next < done.count && done[next].id != record.id { next += 1 }
            if next < done.count {
                classified.append(done[next].classified)
                next += 1
            } else {
                classified.append(CommitAnalyzer.classify(
                    RawCommit(sha: record.id.hex, message: record.message, parentCount: record.parentCount), rules: rules))
            }
        }
        done = []
        return CommitAnalyzer.combine(classified, broughtIn: { Self.broughtIn(by: $0, in: commits) })
    }

    /// The commits of the range a merge brought in: reachable from its other parents, not from its first.
    static func broughtIn(by mergeSHA: String, in commits: [CommitRecord]) -> [String] {
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
        let mainline = reachable(from: [merge.parents[0]])
        return reachable(from: Array(merge.parents.dropFirst())).subtracting(mainline).map(\.hex)
    }
}
