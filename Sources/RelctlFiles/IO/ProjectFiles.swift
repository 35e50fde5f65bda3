import Foundation

/// The files of one project, each read from disk at most once.
///
/// Every reader of version files goes through one of these: the configured entries, the `.xcconfig` files and
/// Info.plists an Xcode project refers to, the `gradle.properties` a build script reads, and what `relctl init`
/// looks at. A file read twice would cost a second `open` (and, for a large file, a second decode) and could
/// even change in between; the one deliberate second read is `TransactionalWriter`'s check right before it
/// writes. Paths are relative to `root` (an absolute path is used as is).
package final class ProjectFiles: @unchecked Sendable {
    package let root: String
    private let lock = NSLock()
    private var texts: [String: ReadText] = [:]

    /// A file's text or why it could not be read (not `Result<String, FileEditError>`, whose generic requirement
    /// costs the Swift runtime a scan of the binary's protocol conformances, `FileEditError: Error`, on every run).
    private enum ReadText {
        case success(String)
        case failure(FileEditError)

        func get() throws(FileEditError) -> String {
            switch self {
            case .success(let text): return text
            case .failure(let error): throw error
            }
        }
    }

    package init(root: String) {
        self.root = root
    }

    /// `path` under the root (an absolute path as is).
    package static func absolute(root: String, path: String) -> String {
        path.hasPrefix("/") ? path : (root.hasSuffix("/") ? root + path : root + "/" + path)
    }

    package func absolute(_ path: String) -> String { Self.absolute(root: root, path: path) }

    /// The UTF-8 text of `path`, read on first use. Errors name the path as given (relative to the root).
    package func text(_ path: String) throws(FileEditError) -> String {
        lock.lock()
        let cached = texts[path]
        lock.unlock()
        if let cached { return try cached.get() }
        let result: ReadText
        do throws(FileEditError) {
            result = .success(try TextFile.read(absolutePath: absolute(path), shownAs: path))
        } catch {
            result = .failure(error)
        }
        lock.lock()
        texts[path] = result
        lock.unlock()
        return try result.get()
    }

    /// The text of `path`, nil when it cannot be read as a version file (missing, a link, not UTF-8 …).
    package func readableText(_ path: String) -> String? { try? text(path) }

    /// Whether something exists at `path` (no read: a `stat`).
    package func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: absolute(path)) }

    /// Whether `path` is a folder ("" is the root).
    package func isFolder(_ path: String) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: absolute(path.isEmpty ? "." : path), isDirectory: &isDir) && isDir.boolValue
    }

    /// The names in folder `path` ("" is the root), sorted; empty when it cannot be listed.
    package func children(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: absolute(path.isEmpty ? "." : path))) ?? []).sorted()
    }

    /// The same project seen with `texts` in place of what is on disk (root-relative paths): what the files will
    /// hold once a planned sync is written.
    package func overlaid(with replaced: [String: String]) -> ProjectFiles {
        let copy = ProjectFiles(root: root)
        lock.lock()
        copy.texts = texts
        lock.unlock()
        for (path, text) in replaced { copy.texts[path] = .success(text) }
        return copy
    }
}
