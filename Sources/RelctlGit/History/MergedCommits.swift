extension Array where Element == CommitRecord {
    /// The commits of this range (a walk's, newest first) that a merge brought in: reachable from its other parents,
    /// not from the mainline (the parent named by `mainline`, a sha or its prefix; else the first parent). For a
    /// revert of the merge, which cancels them too (RelctlCore's `CommitAnalyzer.combine(_:broughtIn:)`).
    package func broughtIn(by mergeSHA: String, mainline: String?) -> [String] {
        guard let mergeID = ObjectID(hex: mergeSHA) else { return [] }
        var byID: [ObjectID: CommitRecord] = [:]
        for record in self { byID[record.id] = record }
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
