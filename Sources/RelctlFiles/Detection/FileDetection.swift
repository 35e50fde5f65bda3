import RelctlCore

/// What `relctl init` has found so far, as each format's unit adds to it (`VersionFileFormat.detect`, in
/// `FormatRegistry` order). Every file is read through `files`, once.
package struct FileDetection {
    package let files: ProjectFiles
    package var entries: [FileEntry] = []
    /// Why something was left out, one line each.
    package var notes: [String] = []
    /// The app's version as its cross-platform config states it (expo, pubspec): the first such file found decides.
    package private(set) var statedVersion: String?
    private var versionStated = false
    /// The marketing version of the Xcode project's app target, when it is a literal.
    package var xcodeAppVersion: String?
    /// The marketing version of the first Android file found.
    package var androidAppVersion: String?

    package init(files: ProjectFiles) {
        self.files = files
    }

    /// The app's version, against which other products are told apart: the one its cross-platform config states,
    /// else the Xcode app target's, else the Android one.
    package var appVersion: String? { statedVersion ?? xcodeAppVersion ?? androidAppVersion }

    /// The locations of an entry's file (its editor alone) when it holds at least one literal value; nil otherwise.
    package func literalLocations(_ entry: FileEntry) -> [VersionLocation]? {
        guard let text = files.readableText(entry.path), let locations = try? entry.editor.read(text, path: entry.path) else { return nil }
        return locations.contains(where: { $0.indirection == nil }) ? locations : nil
    }

    /// Adds `entry` when its file holds a literal value. With `statesAppVersion` (a cross-platform app config), the
    /// first such entry's version becomes `statedVersion`.
    package mutating func add(_ entry: FileEntry, statesAppVersion: Bool = false) {
        guard let locations = literalLocations(entry) else { return }
        entries.append(entry)
        if statesAppVersion && !versionStated {
            versionStated = true
            statedVersion = locations.first(where: { $0.field == .marketing && $0.indirection == nil })?.value
        }
    }
}
