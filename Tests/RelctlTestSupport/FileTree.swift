import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The bytes of every regular file below `root`, by path relative to it; folders named in `skipping` (at the top,
/// such as `.git`) are left out. For "exactly these bytes were written" and "nothing changed" checks.
public func fileTree(at root: String, skipping skipped: Set<String> = []) throws -> [String: Data] {
    var result: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: root)
    while let relative = enumerator?.nextObject() as? String {
        let top = relative.split(separator: "/", maxSplits: 1).first.map(String.init) ?? relative
        if skipped.contains(top) { continue }
        var isDirectory: ObjCBool = false
        let full = root + "/" + relative
        if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
            result[relative] = try Data(contentsOf: URL(fileURLWithPath: full))
        }
    }
    return result
}

/// True when `path` itself (not what it points to) is a symbolic link.
public func isSymbolicLink(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK
}
