import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// relctl writes only inside the repository it runs in. A path from the config is checked twice: lexically when the
/// config is read (no absolute path, no `..` above the root), and through the file system — every existing part of
/// the path resolved with `realpath`, so a symbolic link (a folder or the file) that leads out of the repository is
/// refused before anything is written, and again right before each write (the tree can change in between).
package enum RepositoryConfinement {
    /// A symbolic link on the way to `relative` (a root-relative path without `..`) that leads outside `root`.
    package struct EscapingLink: Equatable, Sendable {
        /// The link, relative to the root (`shared` in `shared/app.json`).
        package let link: String
        /// Where it leads: the resolved absolute path, or the link's text when it leads nowhere.
        package let target: String
    }

    /// The first part of `relative` that is a symbolic link leading outside `root` (or nowhere); nil when every
    /// existing part stays inside. Parts that do not exist yet are created as plain files and folders.
    package static func escapingLink(_ relative: String, root: String) -> EscapingLink? {
        guard let realRoot = realPath(root) else { return nil }
        var current = root
        var walked: [Substring] = []
        for part in relative.split(separator: "/") {
            current.append("/")
            current.append(contentsOf: part)   // String's own overload: `+` with a Substring is generic
            walked.append(part)
            var st = stat()
            guard lstat(current, &st) == 0 else { return nil }
            guard (st.st_mode & S_IFMT) == S_IFLNK else { continue }
            let shown = walked.joined(separator: "/")
            guard let resolved = realPath(current) else {
                return EscapingLink(link: shown, target: SymbolicLink.target(current) ?? "an unreadable target")
            }
            if !isInside(resolved, realRoot: realRoot) { return EscapingLink(link: shown, target: resolved) }
        }
        return nil
    }

    /// Whether the folder that will hold `path` (absolute), resolved through every symbolic link, lies inside `root`.
    /// A folder that does not exist is judged by its nearest existing parent.
    package static func folderIsInside(_ path: String, root: String) -> Bool {
        guard let realRoot = realPath(root) else { return false }
        var folder = (path as NSString).deletingLastPathComponent
        while !folder.isEmpty {
            if let resolved = realPath(folder) { return isInside(resolved, realRoot: realRoot) }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder { break }
            folder = parent
        }
        return false
    }

    static func isInside(_ resolved: String, realRoot: String) -> Bool {
        resolved == realRoot || resolved.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/")
    }

    /// `realpath(3)`: absolute, every link resolved; nil when the path does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
