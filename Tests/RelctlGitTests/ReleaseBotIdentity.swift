@testable import RelctlGit

extension Identities {
    /// A fixed author and committer with a fixed date, as a CI job would set them.
    static let releaseBot = Identities(author: Identity(name: "Release Bot", email: "bot@example.com", time: (1_700_000_500, 60)),
                                       committer: Identity(name: "Release Bot", email: "bot@example.com", time: (1_700_000_500, 60)))
}
