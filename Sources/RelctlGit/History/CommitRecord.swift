/// One commit of a walked range.
public struct CommitRecord: Sendable {
    public let id: ObjectID
    /// The number of parents (more than one: a merge).
    public var parentCount: Int { firstParent == nil ? 0 : 1 + otherParents.count }
    /// The parents, first parent first.
    public var parents: [ObjectID] { firstParent.map { [$0] + otherParents } ?? [] }
    /// Stored apart so that the usual single parent needs no array (no allocation per commit).
    let firstParent: ObjectID?
    let otherParents: [ObjectID]
    /// Committer time, seconds since the epoch.
    public let time: Int64
    /// The whole message, decoded as UTF-8 with invalid bytes replaced (never fails).
    public let message: String
}
