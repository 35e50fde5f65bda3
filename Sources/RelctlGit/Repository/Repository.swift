internal import CLibGit2

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
        let code = git_repository_open_ext(&repo, path, flags, nil)
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
