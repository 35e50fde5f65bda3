internal import CLibGit2

extension Repository {
    /// The remote named `name`; the caller frees it.
    func lookupRemote(_ name: String) throws(GitError) -> OpaquePointer {
        var remote: OpaquePointer?
        let code = git_remote_lookup(&remote, pointer, name)
        if code == GIT_ENOTFOUND.rawValue || code == GIT_EINVALIDSPEC.rawValue {
            throw GitError(kind: .notFound, code: code, operation: "find remote '\(name)'", message: "there is no remote named '\(name)' (see 'git remote -v')")
        }
        try check(code, "find remote '\(name)'")
        return remote!
    }

    /// The URL of a remote, or nil when there is no such remote.
    package func remoteURL(_ name: String) -> String? {
        var remote: OpaquePointer?
        guard git_remote_lookup(&remote, pointer, name) == 0 else { return nil }
        defer { git_remote_free(remote) }
        return git_remote_url(remote).map { String(cString: $0) }   // copied before the remote is freed
    }

    /// The references the remote advertises (`refs/heads/main`, `refs/tags/v1.2.0`, …) with their targets.
    package func remoteReferences(_ name: String, environment: [String: String]) throws(GitError) -> [String: ObjectID] {
        try retryingVanishedReferences { () throws(GitError) in try listRemoteReferences(name, environment: environment) }
    }

    /// Runs `body`, which connects to a remote, again (up to `vanishedReferenceAttempts` times in all) when it fails because a reference
    /// vanished from the remote while libgit2 listed it: another clone's push removing its temporary
    /// `refs/relctl-incoming/…`, or a branch deleted, makes the local transport fail with "reference … not found".
    /// That is a race with another process, not a missing remote. libgit2 reports it with the generic error code,
    /// so the message tells it apart.
    static let vanishedReferenceAttempts = 20

    func retryingVanishedReferences<T>(_ body: () throws(GitError) -> T) throws(GitError) -> T {
        var attempt = 1
        while true {
            switch Result(catching: body) {
            case .success(let value):
                return value
            case .failure(let error) where error.isVanishedReference && attempt < Self.vanishedReferenceAttempts:
                attempt += 1
            case .failure(let error):
                throw error
            }
        }
    }

    private func listRemoteReferences(_ name: String, environment: [String: String]) throws(GitError) -> [String: ObjectID] {
        // The remote keeps the callbacks and their payload until it is freed (disconnect and free may still
        // call them), so the state must outlive the remote: it is made first and released last.
        let state = RemoteCallbackState(credentials: RemoteCredentials(environment: environment))
        defer { withExtendedLifetime(state) {} }
        let remote = try lookupRemote(name)
        defer { git_remote_free(remote) }
        var callbacks = try makeRemoteCallbacks(state)
        try check(git_remote_connect(remote, GIT_DIRECTION_FETCH, &callbacks, nil, nil), "connect to remote '\(name)'")
        defer { git_remote_disconnect(remote) }
        // The heads and their names belong to the connection (valid until it is closed): copied in the loop.
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
}

extension GitError {
    /// libgit2's "reference 'refs/…' not found" from a transport that listed a reference and then could not read it.
    var isVanishedReference: Bool {
        message.hasPrefix("reference 'refs/") && message.hasSuffix("' not found")
    }
}
