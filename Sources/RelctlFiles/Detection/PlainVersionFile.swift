import RelctlCore

/// `relctl init`: a file at the root holding the version alone (`version.txt`, `VERSION`), as release-please's
/// "simple" strategy and many CI scripts keep it (`echo "VERSION_NAME=$(cat version.txt)"`). It becomes a `regex`
/// entry whose pattern is the whole line, so sync writes the version and nothing else.
///
/// Beside the app's own files it is added when it holds the same version; when the app's files hold a placeholder
/// the build overwrites (`version: 0.0.0+734` in a pubspec.yaml, `versionName "0.0.0"`), the plain file is where the
/// version lives: it is the entry, and the placeholder files are left out with a note. A plain file holding another
/// version than the app's real one is left out with a note.
package enum PlainVersionFile {
    /// The names looked for at the root, in this order.
    static let names = ["version.txt", "VERSION", "VERSION.txt", "version"]
    /// The whole line: a version of two or more numbers, an optional prerelease, trailing blanks.
    package static let pattern = "^(?<version>[0-9]+(?:\\.[0-9]+)+(?:-[0-9A-Za-z.]+)?)[ \\t]*$"
    /// Versions that say "set by the build", not a release.
    static let placeholders: Set<String> = ["0.0.0", "0.0.1", "0.0.0-dev", "0.0.0-development"]

    /// The root's plain version file and its version: a file of one line (comments and blank lines are not
    /// allowed: that would be another kind of file) holding a version.
    package static func find(_ files: ProjectFiles) -> (entry: FileEntry, version: String)? {
        for name in names where files.exists(name) && !files.isFolder(name) {
            guard let text = files.readableText(name), text.utf8.count <= 64 else { continue }
            let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            guard lines.count == 1 else { continue }
            let entry = FileEntry(path: name, format: .regex, options: FileOptions(pattern: pattern))
            guard let locations = try? entry.editor.read(text, path: name), locations.count == 1,
                  locations[0].field == .marketing, locations[0].value.contains(".") else { continue }
            return (entry, locations[0].value)
        }
        return nil
    }

    /// Whether `version` is a placeholder the build replaces.
    package static func isPlaceholder(_ version: String) -> Bool { placeholders.contains(version) }

    /// `entries` with the root's plain version file considered (see the type's comment); `appVersion` is the
    /// version the app's files state. Returns the entries and the app's version after the choice.
    package static func consider(_ entries: [FileEntry], appVersion: String?, files: ProjectFiles,
                                 notes: inout [String]) -> (entries: [FileEntry], appVersion: String?) {
        guard let (plain, version) = find(files), !entries.contains(where: { $0.path == plain.path }) else {
            return (entries, appVersion)
        }
        guard let appVersion, !entries.isEmpty else { return ([plain], version) }
        if appVersion == version { return (entries + [plain], appVersion) }
        if isPlaceholder(appVersion) && !isPlaceholder(version) {
            let left = entries.map(\.path)
            notes.append("\(left.joined(separator: ", ")) \(left.count == 1 ? "holds" : "hold") \(appVersion), a placeholder the build replaces, and \(plain.path) holds \(version): \(plain.path) is the version file; add \(left.count == 1 ? "that file" : "those files") to files if relctl should write \(left.count == 1 ? "it" : "them") too")
            return ([plain], version)
        }
        notes.append("\(plain.path) holds \(version), the app's files \(appVersion): left out; add \(OtherVersionPlaces.regexEntry(path: plain.path, pattern: pattern)) to files if it should follow the app")
        return (entries, appVersion)
    }
}
