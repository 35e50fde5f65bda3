#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// relctl never reads or writes a version file through a symbolic link: renaming over a link would replace the link
/// with a regular file and leave its target as it was. These say what a link points to, for the message.
enum SymbolicLink {
    /// What the symbolic link at `path` points to (as written in the link), nil when `path` is not a link.
    static func target(_ path: String) -> String? {
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { return "an unreadable target" }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The link target as a root-relative path (`docs/CHANGES.md` for `CHANGELOG.md -> docs/CHANGES.md`), when it stays inside the root.
    static func realPath(of target: String, linkPath: String) -> String? {
        guard !target.hasPrefix("/"), !linkPath.hasPrefix("/") else { return nil }
        var parts = linkPath.split(separator: "/").dropLast().map(String.init)
        for part in target.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(String(part))
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }
}
