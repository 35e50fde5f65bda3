/// Path arithmetic on text, the way git names files: no file system access, no symbolic links followed.
/// `.` and empty parts are dropped and `..` removes the part before it, so `./app.json` in `.relctl.json`
/// and `app.json` are one file to relctl, as they are to git.
package enum LexicalPath {
    /// `relative` inside `base` (a folder); `relative` itself when it is absolute. Not normalised.
    package static func join(_ base: String, _ relative: String) -> String {
        if relative.hasPrefix("/") || base.isEmpty { return relative }
        return base.hasSuffix("/") ? base + relative : base + "/" + relative
    }

    /// The parts of `path` with `.` and `..` resolved; nil when a `..` climbs above its start.
    package static func parts(of path: String) -> [Substring]? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                if parts.isEmpty { return nil }
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        return parts
    }

    /// `path` with `.` and `..` resolved (absolute stays absolute); nil when a `..` climbs above its start.
    package static func normalize(_ path: String) -> String? {
        guard let parts = parts(of: path) else { return nil }
        return (path.hasPrefix("/") ? "/" : "") + joined(parts)
    }

    /// `path` relative to the folder `root`, both resolved lexically; nil when it is `root` itself or lies
    /// outside it.
    package static func relative(_ path: String, to root: String) -> String? {
        guard let pathParts = Self.parts(of: path), let rootParts = Self.parts(of: root),
              pathParts.count > rootParts.count, Array(pathParts.prefix(rootParts.count)) == rootParts else { return nil }
        return joined(pathParts.dropFirst(rootParts.count))
    }

    /// `parts` joined by `/`, appended one by one: the library's `joined(separator:)` on substrings is not specialised
    /// and costs a conformance scan of the runtime on its first call.
    private static func joined(_ parts: ArraySlice<Substring>) -> String {
        var out = ""
        var first = true
        for part in parts {
            if !first { out.append("/") }
            first = false
            out.append(contentsOf: part)
        }
        return out
    }

    private static func joined(_ parts: [Substring]) -> String { joined(parts[...]) }

    /// `path` (absolute, or relative to `root`) as a path inside `root`, the way git names it; nil outside.
    package static func inRepository(_ path: String, root: String) -> String? {
        relative(join(root, path), to: root)
    }
}
