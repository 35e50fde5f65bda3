internal import CLibGit2

/// Carries the push results and credentials through libgit2's C callbacks.
final class RemoteCallbackState {
    var rejected: [String: String] = [:]
    var accepted: [String] = []
    let credentials: RemoteCredentials
    var credentialAttempts = 0
    init(credentials: RemoteCredentials) { self.credentials = credentials }
}

/// Callbacks that report into `state`. The payload is not retained and libgit2 copies the struct into the remote,
/// which may call back until it is freed: the caller keeps `state` alive for longer than the remote (see
/// `remoteReferences` and `push`). The strings the callbacks receive live only during the call: copied at once.
func makeRemoteCallbacks(_ state: RemoteCallbackState) throws(GitError) -> git_remote_callbacks {
    // Every network operation builds its callbacks here first: what libgit2's init left for the network (libssh2,
    // mbedTLS's random generator, then the CA certificates, in init's order) is set up now; nothing, in a process
    // without the relctl executable's interposers (the tests, relctl-fuzz), where init did it.
    try DeferredNetworkInit.runIfDeferred()
    DeferredCertificates.loadIfDeferred()
    var callbacks = git_remote_callbacks()
    try check(git_remote_init_callbacks(&callbacks, UInt32(GIT_REMOTE_CALLBACKS_VERSION)), "init remote callbacks")
    callbacks.payload = Unmanaged.passUnretained(state).toOpaque()
    callbacks.push_update_reference = { refname, status, payload in
        guard let payload, let refname else { return 0 }
        let state = Unmanaged<RemoteCallbackState>.fromOpaque(payload).takeUnretainedValue()
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
        let state = Unmanaged<RemoteCallbackState>.fromOpaque(payload).takeUnretainedValue()
        state.credentialAttempts += 1
        if state.credentialAttempts > 3 { return GIT_EAUTH.rawValue }   // libgit2 retries forever on a wrong answer
        // libgit2 copies the user name and the token into the credential it makes.
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
