internal import CLibGit2

/// An error from libgit2 (or from relctl's own reading of git data), with the message libgit2 gave.
package struct GitError: Error, Sendable, CustomStringConvertible, Equatable {
    package enum Kind: Sendable, Equatable {
        case notFound, exists, ambiguous, nonFastForward, locked, unbornBranch, other
        /// A reference moved between reading and updating it (another process changed it).
        case concurrentUpdate
        /// The history is cut by a shallow clone before the walk could finish.
        case shallowHistory
        /// An object the history needs is missing (a damaged repository).
        case missingObject
        case notARepository
        /// The repository belongs to another user and git's safe.directory does not trust it.
        case dubiousOwnership
    }

    package let kind: Kind
    package let code: Int32
    /// What relctl was doing ("open repository", "read tag v1.2.0", …).
    package let operation: String
    package let message: String

    package init(kind: Kind, code: Int32 = -1, operation: String, message: String) {
        self.kind = kind
        self.code = code
        self.operation = operation
        self.message = message
    }

    package var description: String { "\(operation): \(message)" }

    /// Builds an error from a failed libgit2 call; reads `git_error_last()` at once, on this thread.
    static func last(_ code: Int32, _ operation: String) -> GitError {
        var message = "libgit2 error \(code)"
        if let last = git_error_last(), let text = last.pointee.message {
            message = String(cString: text).trimmingTrailingNewlines()
        }
        let kind: Kind
        switch code {
        case GIT_ENOTFOUND.rawValue: kind = .notFound
        case GIT_EEXISTS.rawValue: kind = .exists
        case GIT_EAMBIGUOUS.rawValue: kind = .ambiguous
        case GIT_ENONFASTFORWARD.rawValue: kind = .nonFastForward
        case GIT_ELOCKED.rawValue: kind = .locked
        case GIT_EUNBORNBRANCH.rawValue: kind = .unbornBranch
        default: kind = .other
        }
        return GitError(kind: kind, code: code, operation: operation, message: message)
    }
}

/// Throws the libgit2 error for a negative return code.
@inline(__always)
func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(GitError) {
    if code < 0 { throw GitError.last(code, operation()) }
}
