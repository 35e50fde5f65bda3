/// A Markdown link reference definition on one line: `[1.2.0]: https://github.com/o/r/compare/v1.1.0...v1.2.0`.
/// (Definitions spanning lines or with a title on the next line are not recognised; their line is kept as is.)
struct LinkReferenceDefinition: Hashable, Sendable {
    /// The label as written (`unreleased`, `Unreleased`, `1.2.0`).
    var label: String
    var url: String
    /// Where the URL stands in the line, in UTF-8 bytes (inside `<…>` when angle-bracketed).
    var urlOffsets: Range<Int>
    /// What separates `]:` from the URL (a space, or the spaces that align a list of definitions).
    var spacing: String

    /// `nil` when `line` (without its line ending) is not a definition.
    init?(_ line: Substring) {
        var rest = line[...]
        var indent = 0
        while rest.first == " ", indent < 4 { rest = rest.dropFirst(); indent += 1 }
        guard indent < 4, rest.first == "[", let close = rest.firstIndex(of: "]") else { return nil }
        let label = rest[rest.index(after: rest.startIndex)..<close]
        guard !label.isEmpty, !label.hasPrefix("^"), !label.contains("["),
              !label.allSatisfy({ $0 == " " || $0 == "\t" }) else { return nil }
        rest = rest[close...].dropFirst()
        guard rest.first == ":" else { return nil }
        rest = rest.dropFirst()
        let spacing = rest.prefix(while: { $0 == " " || $0 == "\t" })
        rest = rest.dropFirst(spacing.count)
        var url = rest.prefix(while: { $0 != " " && $0 != "\t" })
        if url.hasPrefix("<"), let end = rest.firstIndex(of: ">") {
            url = rest[rest.index(after: rest.startIndex)..<end]
        }
        guard !url.isEmpty else { return nil }
        self.label = String(label)
        self.url = String(url)
        self.spacing = String(spacing)
        let start = line.utf8.distance(from: line.startIndex, to: url.startIndex)
        urlOffsets = start..<(start + url.utf8.count)
    }
}
