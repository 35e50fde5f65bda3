/// Credentials for a remote: a token for HTTPS (`RELCTL_GIT_TOKEN`, else `GITHUB_TOKEN`, else `GITLAB_TOKEN`
/// / `CI_JOB_TOKEN`), the SSH agent for SSH. Local paths and `file://` need none.
package struct RemoteCredentials: Sendable {
    package var token: String?
    package var username: String

    package init(environment: [String: String]) {
        if let t = environment["RELCTL_GIT_TOKEN"], !t.isEmpty {
            token = t; username = environment["RELCTL_GIT_USER"] ?? "x-access-token"
        } else if let t = environment["GITHUB_TOKEN"], !t.isEmpty {
            token = t; username = "x-access-token"
        } else if let t = environment["GITLAB_TOKEN"] ?? environment["CI_JOB_TOKEN"], !t.isEmpty {
            token = t; username = environment["GITLAB_TOKEN"] != nil ? "oauth2" : "gitlab-ci-token"
        } else {
            token = nil; username = "git"
        }
    }
}
