extension HistoryWalker {
    /// The range since the first candidate tag (by name, in the caller's order of preference) whose commit is an
    /// ancestor of `head`.
    ///
    /// Each candidate is tried with one limited walk; a candidate that is not an ancestor (a tag on a branch not
    /// merged into HEAD) is passed over. With no ancestor among them, the whole history of `head` is walked.
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
            do {
                onWalk?()
                let walk = try walk(from: head, hiding: commit, onCommit: onCommit, onBatch: onBatch)
                if walk.reachedBase, best == nil || walk.commits.count < best!.walk.commits.count {
                    best = (i, commit, walk)
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
        onWalk?()
        return (nil, try walk(from: head, hiding: nil, onCommit: onCommit, onBatch: onBatch))
    }
}
