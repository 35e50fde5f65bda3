import RelctlCore

/// One configured file as read from disk and parsed once by its editor.
package struct FileVersions: Sendable {
    package var entry: FileEntry
    package var text: String
    /// The editor's parse of `text`: it gives the edits for any target without parsing again.
    package var parsed: any ParsedVersionFile
    /// Every version value found (`parsed.locations`).
    package var locations: [VersionLocation]
    /// pbxproj: where each selected target's version lives, per build configuration (empty for other formats).
    package var targets: [XcodeTargetVersion]
    /// The locations whose values count: all of them, less the pbxproj settings no target reads.
    package private(set) var usedLocations: [VersionLocation] = []

    package init(entry: FileEntry, text: String, parsed: any ParsedVersionFile) {
        self.entry = entry
        self.text = text
        self.parsed = parsed
        self.locations = parsed.locations
        self.targets = parsed.xcodeTargets
        self.usedLocations = findUsedLocations()
    }

    /// Reads and parses one entry through `files` (which also serves the files an Xcode project refers to).
    package static func load(_ entry: FileEntry, from files: ProjectFiles) throws(FileEditError) -> FileVersions {
        let text = try files.text(entry.path)
        return FileVersions(entry: entry, text: text, parsed: try entry.editor(reading: files).parse(text, path: entry.path))
    }

    /// Reads and parses one entry through `files`, telling `read` every other file its editor looked at (the
    /// .xcconfig files and Info.plists an Xcode project refers to, a Gradle script's properties): a caller that
    /// keeps parses knows which files a parse depends on.
    package static func load(_ entry: FileEntry, from files: ProjectFiles,
                             read: @escaping @Sendable (String) -> Void) throws(FileEditError) -> FileVersions {
        let text = try files.text(entry.path)
        let editor = entry.editor(readFile: { path in
            read(path)
            return files.readableText(path)
        })
        return FileVersions(entry: entry, text: text, parsed: try editor.parse(text, path: entry.path))
    }

    /// Reads one entry under `root`, with its Xcode targets resolved for a pbxproj.
    package static func load(root: String, entry: FileEntry) throws(FileEditError) -> FileVersions {
        try load(entry, from: ProjectFiles(root: root))
    }

    /// Whether the file holds a prerelease whole (`1.3.0-beta.1`) rather than its core: Android and JSON files do,
    /// iOS files do not, and a regex entry does when its pattern admits one.
    package var keepsPrerelease: Bool { parsed.keepsPrerelease ?? (entry.format.marketingPlatform != .ios) }

    /// The first directly written (non-indirect) value of a field that the app is built with, if any.
    package func value(_ field: VersionField) -> String? {
        usedLocations.first(where: { $0.field == field && $0.indirection == nil })?.value
    }

    /// iOS build: `iosBuild`, or pubspec's shared `build`.
    package var iosBuild: String? { value(.iosBuild) ?? value(.build) }
    /// Android build: `androidBuild`, or pubspec's shared `build`.
    package var androidBuild: String? { value(.androidBuild) ?? value(.build) }
    package var marketing: String? { value(.marketing) }
}
