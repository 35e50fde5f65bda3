import RelctlCore

/// One version file of the project, relative to the project root.
package struct FileEntry: Sendable, Hashable {
    package var path: String
    package var format: FileFormat
    package var options: FileOptions

    package init(path: String, format: FileFormat, options: FileOptions = FileOptions()) {
        self.path = path
        self.format = format
        self.options = options
    }

    /// A json entry writing the version of the package.json in the folder of `path` (Expo's fallback when
    /// app.json has no `expo.version`).
    package func isPackageJSONVersion(beside path: String) -> Bool {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return format == .json && self.path == (folder.isEmpty ? "" : folder + "/") + "package.json"
            && (options.keyPath ?? ["version"]) == ["version"] && (options.field ?? .marketing) == .marketing
    }

    /// The editor for this entry, alone: a project file's references into other files are not followed. A
    /// leading UTF-8 byte order mark is kept in the text (so it is written back unchanged) and hidden from the
    /// format's editor.
    package var editor: any VersionEditor { editor(readFile: nil) }

    /// The editor, looking through `files` into the files a project file refers to (an Xcode project's .xcconfig
    /// files and Info.plists) to know where each target's version really lives.
    package func editor(reading files: ProjectFiles) -> any VersionEditor {
        editor(readFile: { path in files.readableText(path) })
    }

    func editor(readFile: (@Sendable (String) -> String?)?) -> any VersionEditor {
        let unit = format.unit
        let inner = ByteOrderMarkSkipping(inner: unit.editor(options, readFile: readFile))
        guard let only = options.only, unit.takesOnly else { return inner }
        return FieldSelecting(inner: inner, only: only)
    }
}
