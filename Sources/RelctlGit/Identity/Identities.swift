internal import CLibGit2

/// Author and committer as git would choose them.
package struct Identities: Sendable, Equatable {
    package var author: Identity
    package var committer: Identity
}

extension Repository {
    /// Author and committer the way `git commit` picks them: `GIT_AUTHOR_*` / `GIT_COMMITTER_*` (and `EMAIL`)
    /// from the environment first, then `user.name` / `user.email` from the repository, global and system config
    /// (libgit2's `git_signature_default` ignores the variables, which CI jobs rely on). Nil when none is set.
    package func identities(environment: [String: String]) throws(GitError) -> Identities? {
        var configName: String?
        var configEmail: String?
        var config: OpaquePointer?
        if git_repository_config_snapshot(&config, pointer) == 0 {
            defer { git_config_free(config) }
            configName = Self.configString(config, "user.name")
            configEmail = Self.configString(config, "user.email")
        }
        func pick(_ role: String) throws(GitError) -> Identity? {
            let name = nonEmpty(environment["GIT_\(role)_NAME"]) ?? configName
            let email = nonEmpty(environment["GIT_\(role)_EMAIL"]) ?? configEmail ?? nonEmpty(environment["EMAIL"])
            var time: (seconds: Int64, offsetMinutes: Int32)?
            let variable = "GIT_\(role)_DATE"
            if let text = nonEmpty(environment[variable]) {
                // A set date that cannot be read must not silently become "now" (reproducible builds rely on it).
                guard let parsed = GitDate.parse(text) else {
                    throw GitError(kind: .other, operation: variable,
                                   message: "\"\(text)\" is not a date relctl can read; use \(GitDate.acceptedForms), or unset \(variable)")
                }
                time = parsed
            }
            guard let name, let email else { return nil }
            return Identity(name: name, email: email, time: time)
        }
        let author = try pick("AUTHOR")
        let committer = try pick("COMMITTER")
        guard let author, let committer else { return nil }
        return Identities(author: author, committer: committer)
    }
}
