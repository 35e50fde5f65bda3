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
