import RelctlCore

/// `"only"` of a pbxproj, plist or xcconfig entry: the one value relctl reads and writes in that file.
/// `"only": "build"` leaves the marketing version alone (a target whose version is kept elsewhere, or by hand)
/// and writes the build number; `"only": "marketing"` the other way round.
public enum OnlyField: String, Sendable, Hashable, CaseIterable {
    case marketing, build

    /// Whether a value of `field` is this entry's to read and write.
    public func admits(_ field: VersionField) -> Bool {
        switch self {
        case .marketing: return field == .marketing
        case .build: return field != .marketing
        }
    }

    /// The formats that take the option.
    public static let formats: Set<FileFormat> = [.pbxproj, .plist, .xcconfig]
}

/// Runs an editor on one field only: `read` reports only that field's values (so the other neither shows in
/// `current` nor counts as drift) and `edits` never writes the other.
struct FieldSelecting: VersionEditor {
    let inner: any VersionEditor
    let only: OnlyField

    func read(_ text: String, path: String) throws(FileEditError) -> [VersionLocation] {
        try inner.read(text, path: path).filter { only.admits($0.field) }
    }

    func edits(_ text: String, path: String, target: VersionTarget) throws(FileEditError) -> [TextEdit] {
        var selected = target
        if !only.admits(.marketing) { selected.marketing = nil }
        if !only.admits(.iosBuild) { selected.iosBuild = nil; selected.androidBuild = nil }
        return try inner.edits(text, path: path, target: selected)
    }
}
