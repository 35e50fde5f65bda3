/// The planned new content of one file.
package struct FileChange: Sendable {
    /// Path relative to the root, as in the entry.
    package var path: String
    package var absolutePath: String
    package var format: FileFormat
    package var oldText: String
    package var newText: String
    /// What was found before editing.
    package var locations: [VersionLocation]
    package var edits: [TextEdit]
    /// The values this file was asked to hold.
    package var target: VersionTarget

    package var isChanged: Bool { oldText != newText }

    /// The one conversion of a planned change into a write: the bytes read (checked again right before writing)
    /// and the new ones, with the path messages show as in the entry.
    package var write: FileWrite {
        FileWrite(path: absolutePath, oldBytes: Array(oldText.utf8), newBytes: Array(newText.utf8), displayPath: path)
    }
}
