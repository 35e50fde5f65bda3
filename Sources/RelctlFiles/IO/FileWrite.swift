import Foundation

/// One file to replace: its expected current bytes (nil: the file must not exist yet) and the new bytes.
package struct FileWrite: Sendable, Hashable {
    /// Absolute path.
    package var path: String
    package var oldBytes: [UInt8]?
    package var newBytes: [UInt8]
    /// The path errors show, relative to the project root; nil: `path` relative to the git work tree holding it.
    package var displayPath: String?

    package init(path: String, oldBytes: [UInt8]?, newBytes: [UInt8], displayPath: String? = nil) {
        self.path = path
        self.oldBytes = oldBytes
        self.newBytes = newBytes
        self.displayPath = displayPath
    }

    /// The repository root the write must stay inside, when `displayPath` says it: `path` is the root, a slash and
    /// `displayPath`. `TransactionalWriter` checks the folder it writes in, links resolved, still lies inside it.
    package var confiningRoot: String? {
        guard let displayPath, !displayPath.isEmpty, !displayPath.hasPrefix("/"), path.hasSuffix("/" + displayPath) else { return nil }
        return String(path.dropLast(displayPath.utf8.count + 1))
    }

    /// The path for messages: `displayPath`, else `path` relative to the nearest enclosing folder with a `.git`
    /// (the repository root relctl runs in), else `path` as is.
    package var shownPath: String {
        if let displayPath { return displayPath }
        var folder = (path as NSString).deletingLastPathComponent
        while folder.count > 1 {
            if FileManager.default.fileExists(atPath: folder + "/.git") {
                return String(path.dropFirst(folder.count + 1))
            }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return path
    }
}
