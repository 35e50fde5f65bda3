import RelctlCore

/// A small tokenizer for Groovy, Kotlin script and JavaScript/TypeScript: enough to find literal values
/// while never matching inside comments or strings, and to track braces.
struct CodeToken {
    enum Kind: Equatable {
        case identifier
        case number
        /// A string literal; `interpolated` when it contains `${…}` (or `$name` in Groovy/Kotlin double quotes).
        case string(quote: String, interpolated: Bool)
        case punctuation
        case newline
    }

    var kind: Kind
    var range: Range<Int>
    var line: Int
    /// Source text for identifiers, numbers and punctuation; the decoded value for strings.
    var text: String

    var isString: Bool { if case .string = kind { return true } else { return false } }
    var isLiteralString: Bool { if case .string(_, let i) = kind { return !i } else { return false } }
}

struct CodeComment {
    var text: String
    var line: Int
}

enum CodeLanguage {
    case groovy, kotlin, javascript
}

struct CodeTokenizer {
    static func tokenize(_ t: ByteText, language: CodeLanguage, path: String) throws(FileEditError) -> (tokens: [CodeToken], comments: [CodeComment]) {
        let b = t.bytes
        var tokens: [CodeToken] = []
        var comments: [CodeComment] = []
        var i = 0
        func starts(_ s: String, at p: Int) -> Bool {
            let u = Array(s.utf8)
            return p + u.count <= b.count && Array(b[p..<p + u.count]) == u
        }
        while i < b.count {
            let c = b[i]
            if c == 0x0A {
                tokens.append(CodeToken(kind: .newline, range: i..<i + 1, line: t.line(of: i), text: "\n"))
                i += 1
                continue
            }
            if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0C { i += 1; continue }
            if c == UInt8(ascii: "/") && i + 1 < b.count && b[i + 1] == UInt8(ascii: "/") {
                let start = i
                while i < b.count && b[i] != 0x0A { i += 1 }
                comments.append(CodeComment(text: t.string(start..<i), line: t.line(of: start)))
                continue
            }
            if c == UInt8(ascii: "/") && i + 1 < b.count && b[i + 1] == UInt8(ascii: "*") {
                let start = i
                i += 2
                while i + 1 < b.count && !(b[i] == UInt8(ascii: "*") && b[i + 1] == UInt8(ascii: "/")) { i += 1 }
                guard i + 1 < b.count else {
                    throw FileEditError(path: path, line: t.line(of: start), message: "unterminated /* comment")
                }
                i += 2
                comments.append(CodeComment(text: t.string(start..<i), line: t.line(of: start)))
                continue
            }
            if c == UInt8(ascii: "#") && i == 0 && i + 1 < b.count && b[i + 1] == UInt8(ascii: "!") { // shebang
                while i < b.count && b[i] != 0x0A { i += 1 }
                continue
            }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") || (c == UInt8(ascii: "`") && language == .javascript) {
                let start = i
                var quote = String(Character(Unicode.Scalar(c)))
                if language != .javascript, starts(quote + quote + quote, at: i) { quote = quote + quote + quote }
                let q = Array(quote.utf8)
                i += q.count
                var out: [UInt8] = []
                var interpolated = false
                let allowsDollar = (language != .javascript && c == UInt8(ascii: "\"")) || c == UInt8(ascii: "`")
                let multiline = q.count == 3 || c == UInt8(ascii: "`")
                while true {
                    guard i < b.count else {
                        throw FileEditError(path: path, line: t.line(of: start), message: "unterminated string")
                    }
                    if b[i] == q[0] && i + q.count <= b.count && Array(b[i..<i + q.count]) == q { i += q.count; break }
                    if b[i] == 0x0A && !multiline {
                        throw FileEditError(path: path, line: t.line(of: start), message: "unterminated string")
                    }
                    if b[i] == UInt8(ascii: "\\") && i + 1 < b.count {
                        out.append(b[i + 1])
                        i += 2
                        continue
                    }
                    if allowsDollar && b[i] == UInt8(ascii: "$") && i + 1 < b.count
                        && (b[i + 1] == UInt8(ascii: "{") || (language != .javascript && (b[i + 1].isASCIILetter || b[i + 1] == UInt8(ascii: "_")))) {
                        interpolated = true
                        if b[i + 1] == UInt8(ascii: "{") {
                            // Skip to the matching brace (strings inside interpolations are rare in version lines).
                            var depth = 0
                            while i < b.count {
                                if b[i] == UInt8(ascii: "{") { depth += 1 }
                                if b[i] == UInt8(ascii: "}") { depth -= 1; if depth == 0 { i += 1; break } }
                                out.append(b[i])
                                i += 1
                            }
                            continue
                        }
                    }
                    out.append(b[i])
                    i += 1
                }
                tokens.append(CodeToken(kind: .string(quote: quote, interpolated: interpolated), range: start..<i,
                                        line: t.line(of: start), text: String(decoding: out, as: UTF8.self)))
                continue
            }
            if c.isASCIIDigit {
                let start = i
                while i < b.count && (b[i].isIdentifierByte || b[i] == UInt8(ascii: ".")) {
                    // `1.toString()` style calls: stop before `.` followed by a letter.
                    if b[i] == UInt8(ascii: ".") && i + 1 < b.count && !b[i + 1].isASCIIDigit { break }
                    i += 1
                }
                tokens.append(CodeToken(kind: .number, range: start..<i, line: t.line(of: start), text: t.string(start..<i)))
                continue
            }
            if c.isIdentifierByte || c >= 0x80 {
                let start = i
                while i < b.count && (b[i].isIdentifierByte || b[i] >= 0x80) { i += 1 }
                tokens.append(CodeToken(kind: .identifier, range: start..<i, line: t.line(of: start), text: t.string(start..<i)))
                continue
            }
            tokens.append(CodeToken(kind: .punctuation, range: i..<i + 1, line: t.line(of: i), text: String(Character(Unicode.Scalar(c)))))
            i += 1
        }
        return (tokens, comments)
    }

    /// Encodes a string literal with the quote style found in the file.
    static func literal(_ value: String, quote: String, language: CodeLanguage) -> String {
        var out = ""
        for ch in value {
            if ch == "\\" { out += "\\\\"; continue }
            if String(ch) == String(quote.prefix(1)) { out += "\\" + String(ch); continue }
            if ch == "$" && (quote.hasPrefix("\"") && language != .javascript || quote == "`") { out += "\\$"; continue }
            out.append(ch)
        }
        return quote + out + quote
    }
}
