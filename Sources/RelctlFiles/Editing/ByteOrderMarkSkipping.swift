/// Runs an editor on the text after a leading U+FEFF (byte order mark) and shifts its byte ranges back, so every
/// editor sees the text as it would without the mark and the mark's 3 bytes are never edited.
struct ByteOrderMarkSkipping: VersionEditor {
    let inner: any VersionEditor
    static let markLength = 3

    func parse(_ text: String, path: String) throws(FileEditError) -> any ParsedVersionFile {
        guard text.unicodeScalars.first == "\u{FEFF}" else { return try inner.parse(text, path: path) }
        return Shifted(inner: try inner.parse(String(text.unicodeScalars.dropFirst()), path: path), shift: Self.markLength,
                       path: path)
    }

    /// A file parsed without its mark, with every byte range moved past it.
    struct Shifted: ParsedVersionFile {
        let inner: any ParsedVersionFile
        let shift: Int
        let path: String

        private func moved(_ range: Range<Int>) -> Range<Int> { (range.lowerBound + shift)..<(range.upperBound + shift) }

        var locations: [VersionLocation] {
            inner.locations.map { location in
                var moved = location
                moved.range = self.moved(location.range)
                return moved
            }
        }

        func edits(for target: VersionTarget) throws(FileEditError) -> [TextEdit] {
            try inner.edits(for: target).map { TextEdit(range: moved($0.range), replacement: $0.replacement) }
        }

        var keepsPrerelease: Bool? { inner.keepsPrerelease }

        var xcodeTargets: [XcodeTargetVersion] {
            inner.xcodeTargets.map { version in
                var shifted = version
                for keyPath in [\XcodeTargetVersion.marketing, \XcodeTargetVersion.build]
                where shifted[keyPath: keyPath].kind == .pbxproj && shifted[keyPath: keyPath].path == path {
                    shifted[keyPath: keyPath].range = shifted[keyPath: keyPath].range.map(moved)
                }
                return shifted
            }
        }
    }
}
