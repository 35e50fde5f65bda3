internal import CLibGit2

extension Repository {
    /// Whether `name` (`refs/tags/v1.2.0`) is a reference name git accepts: libgit2's own check (no `..`, no
    /// control characters, no component starting with `.` or ending in `.lock`, …).
    package static func isValidReferenceName(_ name: String) -> Bool {
        _ = libgit2Initialized
        var valid: Int32 = 0
        return git_reference_name_is_valid(&valid, name) == 0 && valid == 1
    }
}
