#if canImport(Glibc)
import Glibc
#endif

/// Lays help text out for the width it is read at: the terminal's (or `COLUMNS`, as git reads it), 80 when there is
/// no terminal. The texts are written as paragraphs; here each is wrapped:
/// - a paragraph whose lines all start at the margin is prose: its lines are joined and wrapped again (a paragraph
///   opening with `HEADING: ` keeps its continuation lines under the text after the heading);
/// - an indented line (an option row, an exit code, an example) keeps its line; when it is too long it wraps under
///   its own text (an option row: under the description's column).
/// A word longer than the width is never cut (a path, a JSON shape): it overflows.
enum HelpLayout {
    /// The width help is laid out for: `COLUMNS` when set (git's rule), else the terminal's width when the output
    /// is the process's stdout and a terminal, else 80. Never below 40.
    static func width(environment: [String: String], output: Output) -> Int {
        if let columns = environment["COLUMNS"], let n = Int(columns), n > 0 { return max(40, n) }
        var size = winsize()
        if let descriptor = output.standardOut?.descriptor, isatty(descriptor) != 0,
           ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return max(40, Int(size.ws_col))
        }
        return 80
    }

    static func wrap(_ text: String, width: Int) -> String {
        var out: [String] = []
        var paragraph: [Substring] = []
        func flush() {
            defer { paragraph = [] }
            guard !paragraph.isEmpty else { return }
            let prose = paragraph.allSatisfy { $0.first.map { $0 != " " } ?? false }
                && !(paragraph.count > 1 && paragraph[0].hasSuffix(":"))
            if prose {
                out += fill(joined(paragraph), width: width, hanging: headingIndent(paragraph[0]))
            } else {
                for line in paragraph { out += wrapLine(line, width: width) }
            }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " }) {
                flush()
                out.append("")
            } else {
                paragraph.append(line)
            }
        }
        flush()
        return out.joined(separator: "\n")
    }

    /// The paragraph's lines as one: joined by a space, except inside a JSON shape broken after a comma or a brace.
    private static func joined(_ lines: [Substring]) -> String {
        var text = ""
        for line in lines {
            if let last = text.last, !text.isEmpty {
                let glued = (last == "," || last == "{" || last == "[") && (line.first == "\"" || line.first == "{")
                if !glued { text += " " }
            }
            text += line.drop { $0 == " " }
        }
        return text
    }

    /// `OVERVIEW: `, `USAGE: `, `EXIT CODES: `: the continuation lines start under the text after the heading.
    private static func headingIndent(_ line: Substring) -> Int {
        guard let colon = line.firstIndex(of: ":") else { return 0 }
        let heading = line[..<colon]
        guard !heading.isEmpty, heading.allSatisfy({ $0.isUppercase || $0 == " " }),
              line[colon...].dropFirst().first == " " else { return 0 }
        return heading.count + 2
    }

    /// One indented line, wrapped under its own text when too long.
    private static func wrapLine(_ line: Substring, width: Int) -> [String] {
        guard line.count > width else { return [String(line)] }
        let lead = line.prefix { $0 == " " }.count
        // An option row: `  --name <V>   description`, continued under the description; a description on a line
        // of its own (its option's name was too long) is continued at its own column.
        var hanging = lead == CommandSpec.descriptionColumn ? lead : lead + 2
        let chars = Array(line)
        if lead > 0, let gap = (lead..<(chars.count - 1)).first(where: { chars[$0] == " " && chars[$0 + 1] == " " }) {
            var start = gap
            while start < chars.count && chars[start] == " " { start += 1 }
            if start < width / 2 { hanging = start }
        }
        let first = String(line.prefix(lead))
        return fill(String(line.dropFirst(lead)), width: width, hanging: hanging, firstIndent: first)
    }

    /// `text` in lines of at most `width` characters, the first after `firstIndent`, the others after `hanging`
    /// spaces; runs of spaces inside a line are kept (aligned columns). A word too long for a line of its own (a
    /// JSON shape) is broken after its commas and bars.
    private static func fill(_ text: String, width: Int, hanging: Int, firstIndent: String = "") -> [String] {
        var lines: [String] = []
        var current = firstIndent
        var currentHasWord = false
        let pad = String(repeating: " ", count: hanging)
        var rest = Substring(text)
        while !rest.isEmpty {
            let spaces = rest.prefix { $0 == " " }
            rest = rest.dropFirst(spaces.count)
            let word = rest.prefix { $0 != " " }
            rest = rest.dropFirst(word.count)
            guard !word.isEmpty else { break }
            for (k, piece) in pieces(of: word, fitting: width - hanging).enumerated() {
                let separator = currentHasWord && k == 0 ? String(spaces) : ""
                if currentHasWord, current.count + separator.count + piece.count > width {
                    lines.append(current)
                    current = pad + piece
                } else {
                    current += separator + piece
                }
                currentHasWord = true
            }
        }
        lines.append(current)
        return lines
    }

    /// `word` whole, or, when longer than `room`, cut after its commas and bars into pieces that fit where it can.
    private static func pieces(of word: Substring, fitting room: Int) -> [Substring] {
        guard word.count > room, word.contains(where: { $0 == "," || $0 == "|" }) else { return [word] }
        var result: [Substring] = []
        var start = word.startIndex
        var index = word.startIndex
        while index < word.endIndex {
            if word[index] == "," || word[index] == "|" {
                let next = word.index(after: index)
                result.append(word[start..<next])
                start = next
            }
            index = word.index(after: index)
        }
        if start < word.endIndex { result.append(word[start...]) }
        return result
    }
}
