/// Walked commits as a ``CommitStream``'s classify closure reads them: ids, parent counts and messages, in walk
/// order. The messages are decoded by whoever reads them (the thread that classifies, not the walking one), with the
/// repository handle of that thread for the commits the walk did not read (taken from the commit-graph, or recorded
/// by a second walk).
package struct CommitBatch {
    private enum Source {
        /// The objects a walker handed on.
        case handed(HandedCommits)
        /// Records without their messages: read again.
        case records([CommitRecord])
    }

    private let source: Source
    private let repository: Repository?

    init(_ commits: HandedCommits, reading repository: Repository?) {
        source = .handed(commits)
        self.repository = repository
    }

    init(_ records: [CommitRecord], reading repository: Repository) {
        source = .records(records)
        self.repository = repository
    }

    package var count: Int {
        switch source {
        case .handed(let commits): commits.count
        case .records(let records): records.count
        }
    }

    package func id(at k: Int) -> ObjectID {
        switch source {
        case .handed(let commits): commits.ids[k]
        case .records(let records): records[k].id
        }
    }

    package func parentCount(at k: Int) -> Int {
        switch source {
        case .handed(let commits): commits.parentCount(at: k)
        case .records(let records): records[k].parentCount
        }
    }

    /// The `k`th commit's whole message, decoded as UTF-8 with invalid bytes replaced (as `CommitRecord.message`).
    package func message(at k: Int) throws(GitError) -> String {
        switch source {
        case .handed(let commits):
            return try commits.message(at: k, reading: repository)
        case .records(let records):
            guard let repository else {
                throw GitError(kind: .other, operation: "read commit \(records[k].id.hex)",
                               message: "no repository to read it from")
            }
            return try repository.commitMessage(records[k].id)
        }
    }
}
