internal import CLibGit2
import Foundation

/// How a compare-and-swap update of one remote reference ended.
package enum RemoteReferenceUpdate: Sendable, Equatable {
    /// The remote's reference now points at the pushed object.
    case updated
    /// It already pointed there.
    case alreadyThere
    /// The remote's reference was not where this push expected it (another push got there first): nothing changed.
    case lost(String)
    /// The remote refused the update for another reason (a reference in the way, protection, a hook).
    case refused(String)
    /// git's lock file of the remote reference (its path: `/srv/app.git/refs/tags/v1.3.0.lock`) is in the way and
    /// stays there: a push killed while it held the lock left it. Nothing changed.
    case lockFile(String)
}

extension Repository {
    /// Makes the remote's `remoteRef` point at what the local `localRef` points at, only if the remote's reference
    /// still points at `expected` (nil: it must not exist): a fast-forward the remote itself checks, never forced.
    ///
    /// Smart transports (ssh, https, git) send the old value with the update and the server swaps under its
    /// reference lock. libgit2's local transport (a path or a `file://` URL) overwrites an existing reference
    /// without any check, so for a local remote the objects are pushed to a temporary reference of their own and
    /// the reference itself is swapped in the remote repository with `git_reference_create_matching`.
    ///
    /// `objectsSent` runs for a local remote once the objects are there and before the reference moves (the crash
    /// tests stop the process there).
    package func updateRemoteReference(remote name: String, localRef: String, remoteRef: String, expected: ObjectID?,
                                       environment: [String: String],
                                       objectsSent: () -> Void = {}) throws(GitError) -> RemoteReferenceUpdate {
        guard let target = try referenceTarget(localRef) else {
            throw GitError(kind: .notFound, operation: "push \(localRef)", message: "\(localRef) does not exist")
        }
        if let path = localRemotePath(name) {
            return try updateLocalRemoteReference(remote: name, path: path, localRef: localRef, remoteRef: remoteRef,
                                                  target: target, expected: expected, environment: environment,
                                                  objectsSent: objectsSent)
        }
        let result: PushResult
        do {
            result = try push(remote: name, refspecs: ["\(localRef):\(remoteRef)"], environment: environment)
        } catch {
            if error.kind == .nonFastForward { return .lost(error.message) }
            throw error
        }
        if let status = result.rejected[remoteRef] {
            // git's receive-pack: "cannot lock ref '…': Unable to create '/srv/app.git/refs/heads/main.lock': File exists."
            if let range = status.range(of: #"Unable to create '[^']+\.lock': File exists"#, options: .regularExpression) {
                return .lockFile(String(status[range].dropFirst("Unable to create '".count).dropLast("': File exists".count)))
            }
            let lower = status.lowercased()
            let lost = ["non-fast-forward", "fetch first", "stale info", "already exists", "failed to lock", "cannot lock"]
            return lost.contains(where: lower.contains) ? .lost(status) : .refused(status)
        }
        return .updated
    }

    /// The folder of a remote that libgit2 reaches through its local transport (a `file://` URL, or a path to an
    /// existing folder); nil for every other remote.
    func localRemotePath(_ name: String) -> String? {
        guard let url = remoteURL(name) else { return nil }
        var path: String
        if url.hasPrefix("file://") {
            path = String(url.dropFirst("file://".count))
            path = path.removingPercentEncoding ?? path
        } else if url.contains("://") {
            return nil
        } else {
            path = url
        }
        if !path.hasPrefix("/") { path = (workdir ?? gitDir) + "/" + path }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        return path
    }

    private func updateLocalRemoteReference(remote name: String, path: String, localRef: String, remoteRef: String,
                                            target: ObjectID, expected: ObjectID?, environment: [String: String],
                                            objectsSent: () -> Void) throws(GitError) -> RemoteReferenceUpdate {
        // 1. The objects, through libgit2's own transport, under a reference no one else uses.
        let incoming = "\(Self.incomingPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let pushed = try push(remote: name, refspecs: ["\(localRef):\(incoming)"], environment: environment)
        if let status = pushed.rejected[incoming] { return .refused(status) }
        let remoteRepository = try Repository(at: path)
        defer { try? remoteRepository.deleteReference(incoming) }
        remoteRepository.removeStaleIncomingReferences()
        objectsSent()
        // 2. The reference itself, swapped under the remote's reference lock. A lock another push holds lasts
        // microseconds: tried again for a second, then the lock file is named as left behind.
        let lockPath = remoteRepository.gitDir + "/" + remoteRef + ".lock"
        var code: Int32 = 0
        for attempt in 0..<20 {
            var ref: OpaquePointer?
            var newOID = target.gitOID
            if let expected {
                var oldOID = expected.gitOID
                code = git_reference_create_matching(&ref, remoteRepository.pointer, remoteRef, &newOID, 1, &oldOID,
                                                     "relctl: push")
            } else {
                code = git_reference_create(&ref, remoteRepository.pointer, remoteRef, &newOID, 0, "relctl: push")
            }
            if code >= 0 {
                git_reference_free(ref)
                return .updated
            }
            guard code == GIT_ELOCKED.rawValue, FileManager.default.fileExists(atPath: lockPath) else { break }
            if attempt == 19 { return .lockFile(lockPath) }
            usleep(50_000)
        }
        let error = GitError.last(code, "update \(remoteRef) on '\(name)'")
        let now = try? remoteRepository.referenceTarget(remoteRef)
        if now == target { return .alreadyThere }
        switch code {
        case GIT_EMODIFIED.rawValue, GIT_ELOCKED.rawValue:
            return .lost(error.message)
        case GIT_EEXISTS.rawValue where now != nil:
            return .lost(error.message)
        default:
            return .refused(error.message)
        }
    }

    static let incomingPrefix = "refs/relctl-incoming/"

    /// The temporary references of pushes whose process is gone (killed before it deleted its own): the remote is on
    /// this machine (a local remote), so the pid in the name tells.
    func removeStaleIncomingReferences() {
        // git's lock files of those references (a push killed while libgit2 wrote or deleted one): the same pid test.
        let folder = gitDir + "/" + Self.incomingPrefix.dropLast()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasSuffix(".lock") {
            guard let pid = Int32(name.prefix { $0 != "-" }), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(folder + "/" + name)
        }
        guard let names = try? referenceNames(prefix: Self.incomingPrefix) else { return }
        for name in names {
            guard let pid = Int32(name.dropFirst(Self.incomingPrefix.count).prefix { $0 != "-" }), pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? deleteReference(name)
        }
    }

    /// The full names of the references starting with `prefix` (libgit2's listing, which checks each loose file);
    /// `action` names the listing in an error.
    func referenceNames(prefix: String, action: String = "list references") throws(GitError) -> [String] {
        var iterator: OpaquePointer?
        try check(git_reference_iterator_glob_new(&iterator, pointer, "\(prefix)*"), action)
        defer { git_reference_iterator_free(iterator) }
        var names: [String] = []
        while true {
            // `name` belongs to the iterator and is valid only until the next call: copied at once.
            var name: UnsafePointer<CChar>?
            let code = git_reference_next_name(&name, iterator)
            if code == GIT_ITEROVER.rawValue { break }
            try check(code, action)
            if let name { names.append(String(cString: name)) }
        }
        return names
    }
}
