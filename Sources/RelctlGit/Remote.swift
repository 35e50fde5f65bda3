import CLibGit2
import Foundation

/// The outcome of a push, per reference: nil status means the remote accepted it.
public struct PushResult: Sendable, Equatable {
    public var rejected: [String: String]
    public var accepted: [String]
}

/// Credentials for a remote: a token for HTTPS (`RELCTL_GIT_TOKEN`, else `GITHUB_TOKEN`, else `GITLAB_TOKEN`
/// / `CI_JOB_TOKEN`), the SSH agent for SSH. Local paths and `file://` need none.
public struct RemoteCredentials: Sendable {
    public var token: String?
    public var username: String

    public init(environment: [String: String]) {
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

/// Carries the push results and credentials through libgit2's C callbacks.
private final class CallbackState {
    var rejected: [String: String] = [:]
    var accepted: [String] = []
    let credentials: RemoteCredentials
    var credentialAttempts = 0
    init(credentials: RemoteCredentials) { self.credentials = credentials }
}

private func makeCallbacks(_ state: CallbackState) throws(GitError) -> git_remote_callbacks {
    var callbacks = git_remote_callbacks()
    try check(git_remote_init_callbacks(&callbacks, UInt32(GIT_REMOTE_CALLBACKS_VERSION)), "init remote callbacks")
    callbacks.payload = Unmanaged.passUnretained(state).toOpaque()
    callbacks.push_update_reference = { refname, status, payload in
        guard let payload, let refname else { return 0 }
        let state = Unmanaged<CallbackState>.fromOpaque(payload).takeUnretainedValue()
        let name = String(cString: refname)
        if let status {
            state.rejected[name] = String(cString: status)
        } else {
            state.accepted.append(name)
        }
        return 0
    }
    callbacks.credentials = { out, _, usernameFromURL, allowed, payload in
        guard let payload, let out else { return GIT_PASSTHROUGH.rawValue }
        let state = Unmanaged<CallbackState>.fromOpaque(payload).takeUnretainedValue()
        state.credentialAttempts += 1
        if state.credentialAttempts > 3 { return GIT_EAUTH.rawValue }   // libgit2 retries forever on a wrong answer
        if allowed & GIT_CREDENTIAL_SSH_KEY.rawValue != 0 {
            let user = usernameFromURL.map { String(cString: $0) } ?? "git"
            return git_credential_ssh_key_from_agent(out, user)
        }
        if allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue != 0, let token = state.credentials.token {
            return git_credential_userpass_plaintext_new(out, state.credentials.username, token)
        }
        return GIT_PASSTHROUGH.rawValue
    }
    return callbacks
}

/// Runs `body` with a `git_strarray` of the given strings.
private func withStrArray<R>(_ strings: [String], _ body: (inout git_strarray) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    defer { for p in pointers { free(p) } }
    return pointers.withUnsafeMutableBufferPointer { buffer in
        var array = git_strarray(strings: buffer.baseAddress, count: buffer.count)
        return body(&array)
    }
}

extension Repository {
    private func lookupRemote(_ name: String) throws(GitError) -> OpaquePointer {
        var remote: OpaquePointer?
        let code = git_remote_lookup(&remote, pointer, name)
        if code == GIT_ENOTFOUND.rawValue || code == GIT_EINVALIDSPEC.rawValue {
            throw GitError(kind: .notFound, code: code, operation: "find remote '\(name)'", message: "there is no remote named '\(name)' (see 'git remote -v')")
        }
        try check(code, "find remote '\(name)'")
        return remote!
    }

    /// The references the remote advertises (`refs/heads/main`, `refs/tags/v1.2.0`, …) with their targets.
    public func remoteReferences(_ name: String, environment: [String: String]) throws(GitError) -> [String: ObjectID] {
        // The remote keeps the callbacks and their payload until it is freed (disconnect and free may still
        // call them), so the state must outlive the remote: it is made first and released last.
        let state = CallbackState(credentials: RemoteCredentials(environment: environment))
        defer { withExtendedLifetime(state) {} }
        let remote = try lookupRemote(name)
        defer { git_remote_free(remote) }
        var callbacks = try makeCallbacks(state)
        try check(git_remote_connect(remote, GIT_DIRECTION_FETCH, &callbacks, nil, nil), "connect to remote '\(name)'")
        defer { git_remote_disconnect(remote) }
        var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
        var count = 0
        try check(git_remote_ls(&heads, &count, remote), "list remote '\(name)'")
        var result: [String: ObjectID] = [:]
        for i in 0..<count {
            guard let head = heads?[i]?.pointee else { continue }
            result[String(cString: head.name)] = ObjectID(head.oid)
        }
        return result
    }

    /// Pushes the refspecs in one call; per-reference outcomes come back in the result. A transport failure
    /// (unreachable, no rights, a non-fast-forward to a local repository) throws.
    public func push(remote name: String, refspecs: [String], environment: [String: String]) throws(GitError) -> PushResult {
        let state = CallbackState(credentials: RemoteCredentials(environment: environment))
        defer { withExtendedLifetime(state) {} }   // outlives the remote, as in remoteReferences
        let remote = try lookupRemote(name)
        defer { git_remote_free(remote) }
        var options = git_push_options()
        try check(git_push_options_init(&options, UInt32(GIT_PUSH_OPTIONS_VERSION)), "init push options")
        options.callbacks = try makeCallbacks(state)
        let code = withStrArray(refspecs) { array in git_remote_push(remote, &array, &options) }
        try check(code, "push to '\(name)'")
        return PushResult(rejected: state.rejected, accepted: state.accepted)
    }
}
