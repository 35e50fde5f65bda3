/// One commit of a walked range.
package struct CommitRecord: Sendable {
    package let id: ObjectID
    /// The number of parents (more than one: a merge).
    package var parentCount: Int { firstParent == nil ? 0 : 1 + otherParents.count }
    /// The parents, first parent first.
    package var parents: [ObjectID] { firstParent.map { [$0] + otherParents } ?? [] }
    /// Stored apart so that the usual single parent needs no array (no allocation per commit).
    let firstParent: ObjectID?
    let otherParents: [ObjectID]
    /// Committer time, seconds since the epoch.
    package let time: Int64
    /// The whole message, decoded as UTF-8 with invalid bytes replaced (never fails).
    package let message: String
}
