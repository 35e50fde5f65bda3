import RelctlCore

/// Text from the repository (a version file's path, a tag) shown as inline code in a job summary, which the CI
/// renders as Markdown. A backtick in the text would end a one-backtick span early, and the rest would be read as
/// Markdown (a link, an image, a heading after a line break); so the span is fenced with one backtick more than
/// the longest run inside it (CommonMark's rule), padded with a space when the text starts or ends with a
/// backtick, and a line break or another control character is written as its octal escape (`\012`), as relctl
/// shows it everywhere else, so the summary keeps one line per item.
enum MarkdownCodeSpan {
    static func make(_ text: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in TerminalText.escaped(text).unicodeScalars {
            switch scalar {
            case "\n": escaped.append(contentsOf: "\\012".unicodeScalars)
            case "\r": escaped.append(contentsOf: "\\015".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        let escapedText = String(escaped)
        var longest = 0, run = 0
        for character in escapedText.utf8 {
            run = character == UInt8(ascii: "`") ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padding = escapedText.hasPrefix("`") || escapedText.hasSuffix("`") ? " " : ""
        return fence + padding + escapedText + padding + fence
    }
}
