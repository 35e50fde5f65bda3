internal import CLibGit2
import Foundation

/// An open git repository. Owns its `git_repository` and `git_odb`; not shared across tasks.
package final class Repository {
    let pointer: OpaquePointer
    private var odbPointer: OpaquePointer?

    /// The work tree folder (no trailing slash); nil for a bare repository.
    package let workdir: String?
    /// The `.git` folder (no trailing slash).
    package let gitDir: String

    /// Opens the repository that contains `path`, searching upward like git does.
    package convenience init(discoveringFrom path: String) throws(GitError) {
        try self.init(path: path, search: true)
    }

    /// Opens the repository at exactly `path` (a work tree or a `.git` folder).
    package convenience init(at path: String) throws(GitError) {
        try self.init(path: path, search: false)
    }

    private init(path: String, search: Bool) throws(GitError) {
        _ = libgit2Initialized
        var repo: OpaquePointer?
        let flags: UInt32 = search ? 0 : GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue
        var code = git_repository_open_ext(&repo, path, flags, nil)
        if code < 0, Self.isOwnershipFailure(code) {
            // Owned by another user. git trusts it when safe.directory (global or system config) names it or is
            // `*`; libgit2 1.5 knows only the first, and says "not found" when no safe.directory is set at all.
            guard Self.safeDirectoryTrustsAll() else { throw Self.dubiousOwnership(path, search: search) }
            _ = relctl_git_set_owner_validation(0)
            code = git_repository_open_ext(&repo, path, flags, nil)
            _ = relctl_git_set_owner_validation(1)
        }
        if code == GIT_ENOTFOUND.rawValue {
            throw GitError(kind: .notARepository, code: code, operation: "open repository",
                           message: "no git repository at or above '\(path)'")
        }
        if code < 0 {
            let error = GitError.last(code, "open repository '\(path)'")
            if error.message.contains("safe.directory") {
                throw GitError(kind: .other, code: code, operation: "open repository '\(path)'",
                               message: "the repository is owned by another user; if you trust it, run: git config --global --add safe.directory '\(path)'")
            }
            throw error
        }
        guard let repo else { throw GitError(kind: .other, operation: "open repository", message: "libgit2 returned no repository") }
        pointer = repo
        // Both paths point into the repository's own memory: copied into Strings here.
        workdir = git_repository_workdir(repo).map { String(cString: $0).trimmingTrailingSlash() }
        gitDir = String(cString: git_repository_path(repo)).trimmingTrailingSlash()
    }

    /// Whether a failed open failed on the repository's owner: libgit2's `GIT_EOWNER`, or (1.5) "not found" with
    /// the message of its missing safe.directory setting.
    private static func isOwnershipFailure(_ code: Int32) -> Bool {
        if code == GIT_EOWNER.rawValue { return true }
        guard code == GIT_ENOTFOUND.rawValue, let last = git_error_last(), let text = last.pointee.message else { return false }
        return String(cString: text).contains("safe.directory")
    }

    /// Whether git's safe.directory, in the global and system config (never a repository's own: git reads it from
    /// there only), trusts every repository: a `*` after the last empty value (which resets the list).
    static func safeDirectoryTrustsAll() -> Bool {
        var config: OpaquePointer?
        guard git_config_open_default(&config) == 0 else { return false }
        defer { git_config_free(config) }
        var iterator: OpaquePointer?
        guard git_config_multivar_iterator_new(&iterator, config, "safe.directory", nil) == 0 else { return false }
        defer { git_config_iterator_free(iterator) }
        var all = false
        var entry: UnsafeMutablePointer<git_config_entry>?
        while git_config_next(&entry, iterator) == 0 {
            guard let value = entry?.pointee.value.map({ String(cString: $0) }) else { continue }
            if value.isEmpty { all = false } else if value == "*" { all = true }
        }
        return all
    }

    /// git's "dubious ownership" message for the repository at or above `path`, with the safe.directory fix.
    private static func dubiousOwnership(_ path: String, search: Bool) -> GitError {
        var folder = path.trimmingTrailingSlash()
        var root = folder
        // The repository's own folder, as git names it: the work tree holding `.git` (or the bare repository).
        while search {
            if access(folder + "/.git", F_OK) == 0 || access(folder + "/HEAD", F_OK) == 0 && access(folder + "/objects", F_OK) == 0 {
                root = folder
                break
            }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { break }
            folder = parent
        }
        var st = stat()
        let owner = stat(root, &st) == 0 ? " (owned by uid \(st.st_uid), and relctl runs as uid \(geteuid()))" : ""
        return GitError(kind: .dubiousOwnership, code: GIT_EOWNER.rawValue, operation: "open repository '\(root)'",
                        message: "detected dubious ownership in repository at '\(root)'\(owner); git and relctl do not read a repository another user owns unless told to trust it: if you trust it, run: git config --global --add safe.directory '\(root)' (or '*' to trust every repository, as git allows)")
    }

    deinit {
        if let odbPointer { git_odb_free(odbPointer) }
        git_repository_free(pointer)
    }

    /// Whether this is a shallow clone (history cut at some depth).
    package var isShallow: Bool { git_repository_is_shallow(pointer) == 1 }

    /// The object database, opened once.
    func odb() throws(GitError) -> OpaquePointer {
        if let odbPointer { return odbPointer }
        var odb: OpaquePointer?
        try check(git_repository_odb(&odb, pointer), "open object database")
        odbPointer = odb
        return odb!
    }
}
