extension HistoryWalker {
    /// The range since the first candidate tag (by name, in the caller's order of preference) whose commit is an
    /// ancestor of `head`.
    ///
    /// The first candidate is tried with one limited walk (usually the base: the cost is the range). When it is not
    /// an ancestor (a tag on a branch not merged into HEAD), the whole history of `head` is walked once, streamed as
    /// any walk (its commits are a superset of every range), and the other candidates are judged by whether that
    /// walk met their commit; the range of the one chosen is then walked again from memory, handing nothing on
    /// (the caller keeps what the stream gave for the range's commits). So hundreds of unmerged release tags cost
    /// one walk of the history, not one each. In a shallow clone, where the history ends at the edge, each candidate
    /// is tried with its own walk. With no ancestor among them, the whole history of `head` is the range.
    /// Returns the index of the chosen candidate, its commit, and the walk.
    /// `onWalk` is called as each walk starts (a caller streaming commits drops what the previous attempt sent),
    /// `onCommit` as each commit is found, `onBatch` with the messages of a walker that hands them on (see `walk`).
    package func rangeSinceFirstAncestor(of head: ObjectID, among candidates: [String],
                                        samePrecedence: ((Int, Int) -> Bool)? = nil,
                                        onWalk: (() -> Void)? = nil, onCommit: ((CommitRecord) -> Void)? = nil,
                                        onBatch: ((HandedCommits) -> Void)? = nil) throws(GitError)
        -> (base: (index: Int, commit: ObjectID)?, walk: RangeWalk)
    {
        var shallowFailure: GitError?
        var best: (index: Int, commit: ObjectID, walk: RangeWalk)?
        /// The whole history of `head` (and its commits), once a candidate turned out not to be an ancestor.
        var whole: RangeWalk?
        var ancestors: Set<ObjectID> = []
        for (i, name) in candidates.enumerated() {
            // Once a base is found, only candidates of the same precedence (v1.2.3 and v1.2.3+build.5) compete:
            // the one nearest HEAD (fewest commits since) wins.
            if let found = best {
                guard samePrecedence?(found.index, i) == true else { break }
            }
            let commit: ObjectID?
            do {
                // Tags are read one at a time, as they are tried: usually only the first.
                guard let tag = try repository.tag(named: name) else { continue }
                commit = try repository.commit(of: tag)
            } catch {
                guard error.kind == .missingObject else { throw error }
                // A tag whose commit a shallow clone lacks is below the edge: likely an ancestor, unknowable.
                if repository.isShallow {
                    throw GitError(kind: .shallowHistory, operation: "read tag \(name)",
                                   message: "the clone is shallow and lacks the commit of tag \(name)")
                }
                continue   // a damaged tag in a full clone: not a usable base
            }
            guard let commit else { continue }   // a tag of a tree or blob
            if whole != nil, !ancestors.contains(commit) { continue }
            do {
                // Once the whole history was streamed, a range is only recorded.
                let streams = whole == nil
                if streams { onWalk?() }
                let walk = try walk(from: head, hiding: commit, onCommit: streams ? onCommit : nil,
                                    onBatch: streams ? onBatch : nil, handing: streams)
                if walk.reachedBase, best == nil || walk.commits.count < best!.walk.commits.count {
                    best = (i, commit, walk)
                } else if !walk.reachedBase, whole == nil, !repository.isShallow {
                    onWalk?()
                    let history = try self.walk(from: head, hiding: nil, onCommit: onCommit, onBatch: onBatch)
                    ancestors = Set(history.commits.lazy.map(\.id))
                    whole = history
                }
            } catch {
                // A shallow edge met while hiding a candidate: whether it is an ancestor is unknown.
                guard error.kind == .shallowHistory else { throw error }
                shallowFailure = shallowFailure ?? error
            }
            if let shallowFailure {
                // A higher tag's ancestry is unknown: a lower base could give a version that already exists.
                throw shallowFailure
            }
        }
        if let best { return ((best.index, best.commit), best.walk) }
        if let whole { return (nil, whole) }
        onWalk?()
        return (nil, try walk(from: head, hiding: nil, onCommit: onCommit, onBatch: onBatch))
    }
}
