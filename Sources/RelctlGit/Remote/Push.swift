internal import CLibGit2
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The outcome of a push, per reference: nil status means the remote accepted it.
package struct PushResult: Sendable, Equatable {
    package var rejected: [String: String]
    package var accepted: [String]
}

/// Runs `body` with a `git_strarray` of the given strings, freed when it returns: `git_remote_push` parses the
/// refspecs into copies of its own, so nothing points into the array afterwards.
private func withStrArray<R>(_ strings: [String], _ body: (inout git_strarray) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    defer { for p in pointers { free(p) } }
    return pointers.withUnsafeMutableBufferPointer { buffer in
        var array = git_strarray(strings: buffer.baseAddress, count: buffer.count)
        return body(&array)
    }
}

extension Repository {
    /// Pushes the refspecs in one call; per-reference outcomes come back in the result. A transport failure
    /// (unreachable, no rights, a non-fast-forward to a local repository) throws.
    package func push(remote name: String, refspecs: [String], environment: [String: String]) throws(GitError) -> PushResult {
        try retryingVanishedReferences { () throws(GitError) in try pushOnce(remote: name, refspecs: refspecs, environment: environment) }
    }

    private func pushOnce(remote name: String, refspecs: [String], environment: [String: String]) throws(GitError) -> PushResult {
        let state = RemoteCallbackState(credentials: RemoteCredentials(environment: environment))
        defer { withExtendedLifetime(state) {} }   // outlives the remote, as in remoteReferences
        let remote = try lookupRemote(name)
        defer { git_remote_free(remote) }
        var options = git_push_options()
        try check(git_push_options_init(&options, UInt32(GIT_PUSH_OPTIONS_VERSION)), "init push options")
        options.callbacks = try makeRemoteCallbacks(state)
        let code = withStrArray(refspecs) { array in git_remote_push(remote, &array, &options) }
        try check(code, "push to '\(name)'")
        return PushResult(rejected: state.rejected, accepted: state.accepted)
    }
}
