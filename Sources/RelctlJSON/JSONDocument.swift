// A JSON reader that keeps source positions: the one parser of relctl and of the app-side VersionGate library
// (this module imports nothing, not even Foundation, so VersionGate can depend on it and stay importable by an
// iOS app or a Linux server).
//
// Two dialects:
// - strict (`allowJSON5: false`): RFC 8259 JSON; duplicate keys are an error.
// - tolerant (`allowJSON5: true`): what Expo's JSON5 reader accepts in app.json:
//   `//` and `/* */` comments, trailing commas, single-quoted strings and
//   unquoted identifier keys. Duplicate keys are kept (last one wins for
//   `member(_:)`, as in JavaScript); `members(named:)` returns all of them so
//   editors can refuse an ambiguous file.
//
// Every node records the UTF-8 byte range of its token(s) in the source and its
// 1-based line, so callers can report `path:line:` and editors can replace
// exactly the bytes of one value.

public enum JSONDocument {
    /// How deep objects and arrays may nest unless the caller says otherwise, so a hostile document cannot
    /// exhaust the stack.
    public static let defaultMaximumDepth = 512

    /// Parses a whole document (one value, surrounded by whitespace and, in JSON5 mode, comments). Nesting deeper
    /// than `maximumDepth` objects and arrays is an error.
    public static func parse(
        _ text: String, allowJSON5: Bool, maximumDepth: Int = defaultMaximumDepth
    ) throws(JSONParseError) -> JSONNode {
        var parser = JSONParser(text: text, json5: allowJSON5, maximumDepth: maximumDepth)
        return try parser.parseDocument()
    }

    /// 1-based line of a UTF-8 byte offset in `text`.
    public static func line(ofOffset offset: Int, in text: String) -> Int {
        var line = 1
        var i = 0
        for b in text.utf8 {
            if i >= offset { break }
            if b == UInt8(ascii: "\n") { line += 1 }
            i += 1
        }
        return line
    }

    /// `s` as a JSON string with no raw control character at all: C0 as ``quote(_:quote:)`` writes it, DEL and the
    /// C1 controls (U+0080–U+009F; U+009B is a terminal's CSI) as `\u007f` … `\u009f`. For what a terminal may
    /// show: relctl's `--json` and the major-release marker.
    public static func quoteEscapingControls(_ s: String) -> String {
        let quoted = quote(s)
        guard quoted.unicodeScalars.contains(where: { $0.value >= 0x7F && $0.value <= 0x9F }) else { return quoted }
        var out = ""
        for scalar in quoted.unicodeScalars {
            if scalar.value >= 0x7F && scalar.value <= 0x9F {
                out += "\\u00" + String(scalar.value, radix: 16)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Encodes `s` as a JSON string literal with the given quote character.
    public static func quote(_ s: String, quote q: Character = "\"") -> String {
        var out = String(q)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if Character(scalar) == q {
                    out += "\\" + String(q)
                } else if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out.append(q)
        return out
    }
}
