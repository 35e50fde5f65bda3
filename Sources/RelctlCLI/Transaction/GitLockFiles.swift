import Foundation

/// git's own lock files (`index.lock`, `refs/heads/main.lock`, `refs/tags/v1.3.0.lock`, `packed-refs.lock`): a git
/// or libgit2 process killed while it updated the index or a reference leaves one behind, and every later update
/// of that index or reference fails until it is removed.
enum GitLockFiles {
    /// The lock files in the way of updating the index, `branch` (`refs/heads/main` or `main`) and the tags `tags`.
    static func present(gitDir: String, branch: String?, tags: [String]) -> [String] {
        var names = ["index.lock", "packed-refs.lock"]
        if let branch { names.append((branch.hasPrefix("refs/") ? branch : "refs/heads/" + branch) + ".lock") }
        names += tags.map { "refs/tags/\($0).lock" }
        return names.map { gitDir + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// The modification time of a file, seconds since the epoch.
    static func modified(_ path: String) -> Double? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
    }

    /// The problem line for a lock file relctl cannot prove is its own.
    static func problem(_ path: String) -> String {
        "git's lock file \(path) is in the way (left by a git or relctl process that was stopped?); if no git command is running, remove it (rm '\(path)') and rerun"
    }
}
