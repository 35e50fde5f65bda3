/// Runs an editor on one field only (`"only"` of an entry): its locations are only that field's values (so the
/// other neither shows in `current` nor counts as drift) and its edits never write the other.
struct FieldSelecting: VersionEditor {
    let inner: any VersionEditor
    let only: OnlyField

    func parse(_ text: String, path: String) throws(FileEditError) -> any ParsedVersionFile {
        Selected(inner: try inner.parse(text, path: path), only: only)
    }

    struct Selected: ParsedVersionFile {
        let inner: any ParsedVersionFile
        let only: OnlyField

        var locations: [VersionLocation] { inner.locations.filter { only.admits($0.field) } }

        func edits(for target: VersionTarget) throws(FileEditError) -> [TextEdit] {
            try inner.edits(for: only.selecting(target))
        }

        var keepsPrerelease: Bool? { inner.keepsPrerelease }
        var xcodeTargets: [XcodeTargetVersion] { inner.xcodeTargets }
    }
}
