/// A git-trailer-shaped footer of a commit message: `Token: value` or `Token #value`.
public struct Footer: Hashable, Sendable {
    /// The token as written (`Reviewed-by`, `Refs`, `BREAKING CHANGE`).
    public var token: String
    /// The value after the separator; continuation lines are joined with `"\n"`.
    /// For `Refs #123` the value is `123` (the `#` belongs to the separator, see ``usesHashSeparator``).
    public var value: String
    /// `true` for the `Token #value` form, `false` for `Token: value`.
    public var usesHashSeparator: Bool

    public init(token: String, value: String, usesHashSeparator: Bool = false) {
        self.token = token
        self.value = value
        self.usesHashSeparator = usesHashSeparator
    }

    /// `BREAKING CHANGE` or `BREAKING-CHANGE`, uppercase only (Conventional Commits 1.0.0 §15–16).
    public var isBreakingChange: Bool { token == "BREAKING CHANGE" || token == "BREAKING-CHANGE" }
}

/// A commit message that follows Conventional Commits 1.0.0.
public struct ConventionalMessage: Hashable, Sendable {
    /// The type as written (`feat`, `FEAT`); compare ``normalizedType``.
    public var type: String
    /// The scope as written, without parentheses.
    public var scope: String?
    /// `true` when the header has `!` right before the colon.
    public var hasBreakingMarker: Bool
    /// The header text after `": "`, without surrounding whitespace.
    public var description: String
    /// The text between the header and the footers; `nil` when there is none.
    public var body: String?
    /// The footers, in message order.
    public var footers: [Footer]
    /// Texts of the `BREAKING CHANGE` / `BREAKING-CHANGE` footers; when there is none but the
    /// header has `!`, the description. An empty breaking footer also yields the description.
    public var breakingChanges: [String]

    public init(type: String, scope: String? = nil, hasBreakingMarker: Bool = false,
                description: String, body: String? = nil, footers: [Footer] = [],
                breakingChanges: [String] = []) {
        self.type = type
        self.scope = scope
        self.hasBreakingMarker = hasBreakingMarker
        self.description = description
        self.body = body
        self.footers = footers
        self.breakingChanges = breakingChanges
    }

    /// `true` when the header has `!` or a breaking-change footer is present.
    public var isBreaking: Bool { hasBreakingMarker || !breakingChanges.isEmpty }

    /// The type lowercased, for comparisons.
    public var normalizedType: String { type.lowercased() }

    /// The scope lowercased, for comparisons.
    public var normalizedScope: String? { scope?.lowercased() }
}

/// Parses commit messages according to Conventional Commits 1.0.0.
///
/// - Line endings: `\r\n` is treated as `\n`; trailing whitespace of every line is ignored.
/// - Header: `type(scope)!: description` where type is `[A-Za-z][A-Za-z0-9_-]*`, the optional
///   scope is non-empty without parentheses, `!` is optional, and `": "` (colon and a space)
///   precedes a non-empty description. Leading whitespace is not allowed.
/// - Body: everything after the header up to the footer block; blank lines around it are
///   dropped. A missing blank line after the header is tolerated.
/// - Footers: the footer block is the longest run of final paragraphs whose first line is a
///   footer (`Token: value`, `Token #value`, with `Token` = `[A-Za-z0-9][A-Za-z0-9-]*` or the
///   literal `BREAKING CHANGE`). Inside it, a line that is not a footer continues the value of
///   the previous footer. A footer-looking line followed by a plain paragraph is body text, except a
///   `BREAKING CHANGE:`/`BREAKING-CHANGE:` line starting a paragraph: the footers start there at the latest,
///   and the paragraphs after it continue its value (missing a major is the costly mistake).
/// - Leading blank lines before the header are skipped, as git's subject does.
/// - Everything runs in time linear in the message length.
public enum ConventionalCommitParser {
    /// The conventional structure of `message`, or `nil` when its header is not conventional.
    public static func parse(_ message: String) -> ConventionalMessage? {
        let text = CommitMessageLines(message)
        // Leading blank lines (a message kept with --cleanup=verbatim) are skipped, as git's subject does.
        guard let headerIndex = text.lines.firstIndex(where: { !$0.isEmpty }),
              let header = parseHeader(text.bytes[text.lines[headerIndex]]) else { return nil }

        // Paragraphs after the header: ranges of line indices of consecutive non-blank lines.
        var paragraphs: [Range<Int>] = []
        var lineIndex = headerIndex + 1
        while lineIndex < text.lines.count {
            if text.lines[lineIndex].isEmpty { lineIndex += 1; continue }
            let start = lineIndex
            while lineIndex < text.lines.count, !text.lines[lineIndex].isEmpty { lineIndex += 1 }
            paragraphs.append(start..<lineIndex)
        }

        var footerParagraph = paragraphs.count
        while footerParagraph > 0,
              footerLine(text.bytes[text.lines[paragraphs[footerParagraph - 1].lowerBound]]) != nil {
            footerParagraph -= 1
        }
        // A breaking-change footer is never demoted to body text: its value runs until the next footer token
        // (Conventional Commits §10), across blank lines, so a paragraph after it (a note, `git cherry-pick -x`'s
        // "(cherry picked from …)") belongs to it and the footers start there at the latest.
        if let breaking = paragraphs.firstIndex(where: { paragraph in
            footerLine(text.bytes[text.lines[paragraph.lowerBound]]).map { Footer(token: String(decoding: $0.token, as: UTF8.self), value: "").isBreakingChange } ?? false
        }), breaking < footerParagraph {
            footerParagraph = breaking
        }

        var body: String?
        if footerParagraph > 0 {
            body = text.joined(paragraphs[0].lowerBound..<paragraphs[footerParagraph - 1].upperBound)
        }

        var footers: [Footer] = []
        if footerParagraph < paragraphs.count {
            var current: (token: String, hash: Bool, value: [UInt8])?
            func flush() {
                guard let footer = current else { return }
                footers.append(Footer(token: footer.token,
                                      value: String(decoding: trimmed(footer.value[...]), as: UTF8.self),
                                      usesHashSeparator: footer.hash))
            }
            let firstLine = paragraphs[footerParagraph].lowerBound
            for line in text.lines[firstLine...] {
                let bytes = text.bytes[line]
                if let footer = footerLine(bytes) {
                    flush()
                    current = (String(decoding: footer.token, as: UTF8.self), footer.hash, Array(footer.value))
                } else {
                    // Continuation line (or a blank line between footer paragraphs).
                    current?.value.append(0x0A)
                    current?.value.append(contentsOf: bytes)
                }
            }
            flush()
        }

        var breakingChanges = footers.filter(\.isBreakingChange).map { $0.value.isEmpty ? header.description : $0.value }
        if breakingChanges.isEmpty, header.bang { breakingChanges = [header.description] }

        return ConventionalMessage(type: header.type, scope: header.scope, hasBreakingMarker: header.bang,
                                   description: header.description, body: body, footers: footers,
                                   breakingChanges: breakingChanges)
    }

    /// Decodes raw commit-message bytes as UTF-8, replacing invalid sequences with U+FFFD.
    public static func decode(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// ``parse(_:)`` of the lossily decoded `bytes`.
    public static func parse(bytes: [UInt8]) -> ConventionalMessage? {
        parse(decode(bytes))
    }

    /// The first non-blank line of `message` (the summary, as git shows it), without `\r` or trailing whitespace.
    public static func summary(of message: String) -> String {
        var utf8 = message.utf8[...]
        while let first = utf8.first, first == 0x0A || first == 0x0D || first == 0x20 || first == 0x09 {
            // Skip only whole blank lines: stop at the first line holding anything else.
            guard let newline = utf8.firstIndex(of: 0x0A) else { break }
            if utf8[..<newline].allSatisfy({ isTrailingSpace($0) }) { utf8 = utf8[utf8.index(after: newline)...] } else { break }
        }
        var end = utf8.firstIndex(of: 0x0A) ?? utf8.endIndex
        var bytes = utf8[..<end]
        while let last = bytes.last, isTrailingSpace(last) {
            end = message.utf8.index(before: end)
            bytes = utf8[..<end]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Header

    private struct Header {
        var type: String
        var scope: String?
        var bang: Bool
        var description: String
    }

    private static func parseHeader(_ line: ArraySlice<UInt8>) -> Header? {
        var i = line.startIndex
        let end = line.endIndex
        guard i < end, line[i].isASCIILetter else { return nil }
        i += 1
        while i < end, line[i].isASCIILetter || line[i].isASCIIDigit || line[i] == 0x2D || line[i] == 0x5F { i += 1 }
        let type = String(decoding: line[line.startIndex..<i], as: UTF8.self)

        var scope: String?
        if i < end, line[i] == 0x28 /* ( */ {
            i += 1
            let scopeStart = i
            while i < end, line[i] != 0x29 /* ) */ {
                if line[i] == 0x28 { return nil } // nested parenthesis
                i += 1
            }
            guard i < end, i > scopeStart else { return nil } // unterminated or empty scope
            scope = String(decoding: line[scopeStart..<i], as: UTF8.self)
            i += 1
        }

        var bang = false
        if i < end, line[i] == 0x21 /* ! */ {
            bang = true
            i += 1
        }
        guard i + 1 < end, line[i] == 0x3A /* : */, line[i + 1] == 0x20 else { return nil }
        let description = trimmed(line[(i + 2)...])
        guard !description.isEmpty else { return nil }
        return Header(type: type, scope: scope, bang: bang,
                      description: String(decoding: description, as: UTF8.self))
    }

    // MARK: Footers

    private static let breakingChangeToken = Array("BREAKING CHANGE".utf8)

    /// Splits a footer line into token and value, or `nil` when the line is not a footer.
    static func footerLine(_ line: ArraySlice<UInt8>) -> (token: ArraySlice<UInt8>, hash: Bool, value: ArraySlice<UInt8>)? {
        var i = line.startIndex
        if line.starts(with: breakingChangeToken) {
            i += breakingChangeToken.count
        } else {
            guard i < line.endIndex, line[i].isASCIILetter || line[i].isASCIIDigit else { return nil }
            while i < line.endIndex, line[i].isASCIILetter || line[i].isASCIIDigit || line[i] == 0x2D { i += 1 }
        }
        let token = line[line.startIndex..<i]
        guard i < line.endIndex else { return nil }
        if line[i] == 0x3A /* : */ {
            // "Token: value", or "Token:" alone with the value on the following lines.
            if i + 1 == line.endIndex { return (token, false, line[line.endIndex...]) }
            guard line[i + 1] == 0x20 else { return nil }
            return (token, false, line[(i + 2)...])
        }
        if line[i] == 0x20, i + 2 < line.endIndex, line[i + 1] == 0x23 /* # */ {
            return (token, true, line[(i + 2)...])
        }
        return nil
    }
}

// MARK: - Shared text helpers

/// A commit message split into lines: `\r\n` handled as `\n`, trailing whitespace excluded.
struct CommitMessageLines {
    let bytes: [UInt8]
    /// Byte ranges of each line, without the newline and trailing whitespace.
    let lines: [Range<Int>]

    init(_ message: String) {
        bytes = Array(message.utf8)
        var lines: [Range<Int>] = []
        var start = 0
        var index = 0
        while index <= bytes.count {
            if index == bytes.count || bytes[index] == 0x0A {
                var end = index
                while end > start, isTrailingSpace(bytes[end - 1]) { end -= 1 }
                lines.append(start..<end)
                start = index + 1
            }
            index += 1
        }
        // A final newline does not start another line.
        if lines.count > 1, let last = lines.last, last.isEmpty, bytes.last == 0x0A { lines.removeLast() }
        self.lines = lines
    }

    /// The lines at `lineIndices`, joined with `"\n"`.
    func joined(_ lineIndices: Range<Int>) -> String {
        var result: [UInt8] = []
        for index in lineIndices {
            if index != lineIndices.lowerBound { result.append(0x0A) }
            result.append(contentsOf: bytes[lines[index]])
        }
        return String(decoding: result, as: UTF8.self)
    }
}



/// Space, tab, CR, vertical tab, form feed.
@inline(__always) private func isTrailingSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0B || byte == 0x0C
}

/// `bytes` without leading and trailing ASCII whitespace (including newlines).
private func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var slice = bytes
    while let first = slice.first, isTrailingSpace(first) || first == 0x0A { slice = slice.dropFirst() }
    while let last = slice.last, isTrailingSpace(last) || last == 0x0A { slice = slice.dropLast() }
    return slice
}
