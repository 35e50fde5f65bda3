import RelctlCore

/// Root-relative path arithmetic for Xcode projects and `.xcconfig` includes.
package enum XcodePaths {
    /// `base` + `relative`, with `.` and `..` resolved; nil when `relative` is absolute or climbs above the root.
    package static func join(_ base: String, _ relative: String) -> String? {
        if relative.hasPrefix("/") { return nil }
        var parts = base.split(separator: "/").map(String.init)
        for part in relative.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(String(part))
            }
        }
        return parts.joinedByAppending("/")
    }

    /// The folder of a root-relative file path ("" at the root).
    package static func folder(of path: String) -> String {
        var parts = path.split(separator: "/")
        if !parts.isEmpty { parts.removeLast() }
        return parts.joinedByAppending("/")
    }
}
