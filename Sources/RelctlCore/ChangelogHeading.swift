/// A level-2 heading of a changelog, in the forms Keep a Changelog files and relctl write:
/// `## [Unreleased]`, `## Unreleased`, `## [1.2.0] - 2024-01-02`, `## 1.2.0 (2024-01-02)`,
/// `## [1.2.0](https://github.com/o/r/compare/v1.1.0...v1.2.0) - 2024-01-02`.
struct ChangelogHeading: Hashable, Sendable {
    /// The label as written: `Unreleased`, `1.2.0`, `v1.2.0`.
    var label: String
    /// `[label]` rather than a bare word.
    var bracketed: Bool
    /// The URL of an inline link (`[label](url)`).
    var link: String?
    /// Where ``link`` stands in the line, in UTF-8 bytes.
    var linkOffsets: Range<Int>?
    /// The text after the label and its link (` - 2024-01-02`).
    var rest: String

    /// `nil` when `line` (without its line ending) is not a `## ` heading with a label.
    init?(_ line: Substring) {
        guard line.hasPrefix("##"), line.dropFirst(2).first == " " || line.dropFirst(2).first == "\t" else { return nil }
        var text = line.dropFirst(2).drop(while: { $0 == " " || $0 == "\t" })
        if text.first == "[" {
            guard let close = text.firstIndex(of: "]") else { return nil }
            label = String(text[text.index(after: text.startIndex)..<close])
            bracketed = true
            text = text[text.index(after: close)...]
            if text.first == "(", let end = text.firstIndex(of: ")") {
                let url = text[text.index(after: text.startIndex)..<end]
                link = String(url)
                let start = line.utf8.distance(from: line.startIndex, to: url.startIndex)
                linkOffsets = start..<(start + url.utf8.count)
                text = text[text.index(after: end)...]
            } else if text.first == "[", let end = text.firstIndex(of: "]") {
                text = text[text.index(after: end)...] // `[1.2.0][]` or `[1.2.0][ref]`: a reference link
            }
        } else {
            let word = text.prefix(while: { $0 != " " && $0 != "\t" })
            label = String(word)
            bracketed = false
            text = text.dropFirst(word.count)
        }
        guard !label.isEmpty else { return nil }
        rest = String(text)
    }

    /// `## Unreleased` or `## [Unreleased]`, in any case.
    var isUnreleased: Bool { label.lowercased() == "unreleased" }

    /// The text before the version when ``label`` is a version (`""` for `1.2.0`, `v` for `v1.2.0`);
    /// `nil` otherwise.
    var versionPrefix: String? { Self.versionPrefix(of: label) }

    /// The text before the version in a label such as `1.2.0`, `v1.2.0` or `app-v2024.11` (letters, `-`, `_`
    /// then a version: digits with at least one dot); `nil` when the label is no version.
    static func versionPrefix(of label: String) -> String? {
        let prefix = label.prefix(while: { !$0.isASCIIDigit })
        let version = label.dropFirst(prefix.count)
        guard prefix.count <= 16, prefix.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") }),
              let first = version.first, first.isASCIIDigit, version.contains("."),
              !version.contains(where: { $0 == " " || $0 == "\t" }) else { return nil }
        return String(prefix)
    }

    /// The first `YYYY-MM-DD` in ``rest``: the text before it and the date's range.
    var isoDate: (before: Substring, range: Range<String.Index>)? {
        let characters = Array(rest.indices)
        let shape = Array("0000-00-00")
        guard characters.count >= shape.count else { return nil }
        for start in 0...(characters.count - shape.count) {
            let matches = shape.indices.allSatisfy { offset in
                let character = rest[characters[start + offset]]
                return shape[offset] == "-" ? character == "-" : character.isASCIIDigit
            }
            if matches {
                let lower = characters[start]
                let upper = start + shape.count < characters.count ? characters[start + shape.count] : rest.endIndex
                return (rest[..<lower], lower..<upper)
            }
        }
        return nil
    }
}
