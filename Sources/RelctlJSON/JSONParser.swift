/// The recursive-descent reader behind `JSONDocument.parse`: one pass over the UTF-8 bytes, recording each
/// node's byte range and line.
struct JSONParser {
    let bytes: [UInt8]
    let json5: Bool
    var pos = 0
    var depth = 0
    let lineStarts: [Int]
    let maximumDepth: Int

    init(text: String, json5: Bool, maximumDepth: Int) {
        self.bytes = Array(text.utf8)
        self.json5 = json5
        self.maximumDepth = maximumDepth
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { starts.append(i + 1) }
        self.lineStarts = starts
    }

    func lineAndColumn(_ offset: Int) -> (Int, Int) {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        var column = 1
        var i = lineStarts[lo]
        while i < offset && i < bytes.count {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        // Count the scalar at `offset` itself from column 1.
        return (lo + 1, column)
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        let (l, c) = lineAndColumn(offset ?? pos)
        return JSONParseError(line: l, column: c, message: message)
    }

    func describe(_ offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let b = bytes[offset]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        if b == 0x20 { return "space" }
        if b == 0x0A { return "end of line" }
        if b == 0x09 { return "tab" }
        return "byte 0x" + hex2(b)
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONNode {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { pos = 3 }
        try skipTrivia()
        guard pos < bytes.count else { throw error("empty document: expected a JSON value") }
        let node = try parseValue()
        try skipTrivia()
        if pos < bytes.count {
            throw error("unexpected \(describe(pos)) after the end of the JSON value")
        }
        return node
    }

    mutating func skipTrivia() throws(JSONParseError) {
        while pos < bytes.count {
            let b = bytes[pos]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                pos += 1
            } else if b == UInt8(ascii: "/"), pos + 1 < bytes.count,
                bytes[pos + 1] == UInt8(ascii: "/") || bytes[pos + 1] == UInt8(ascii: "*")
            {
                guard json5 else { throw error("comments are not allowed in strict JSON") }
                if bytes[pos + 1] == UInt8(ascii: "/") {
                    while pos < bytes.count && bytes[pos] != 0x0A { pos += 1 }
                } else {
                    let start = pos
                    pos += 2
                    while true {
                        guard pos + 1 < bytes.count else {
                            throw error("unterminated /* comment", at: start)
                        }
                        if bytes[pos] == UInt8(ascii: "*") && bytes[pos + 1] == UInt8(ascii: "/") {
                            pos += 2
                            break
                        }
                        pos += 1
                    }
                }
            } else if json5, b == 0xC2, pos + 1 < bytes.count, bytes[pos + 1] == 0xA0 {
                pos += 2  // no-break space
            } else {
                return
            }
        }
    }

    mutating func parseValue() throws(JSONParseError) -> JSONNode {
        guard pos < bytes.count else { throw error("unexpected end of input: expected a value") }
        let start = pos
        let line = lineAndColumn(start).0
        switch bytes[pos] {
        case UInt8(ascii: "{"):
            return try parseObject()
        case UInt8(ascii: "["):
            return try parseArray()
        case UInt8(ascii: "\""):
            let s = try parseString()
            return JSONNode(value: .string(s), range: start..<pos, line: line)
        case UInt8(ascii: "'") where json5:
            let s = try parseString()
            return JSONNode(value: .string(s), range: start..<pos, line: line)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let text = try parseNumber()
            return JSONNode(value: .number(text), range: start..<pos, line: line)
        case UInt8(ascii: "+") where json5, UInt8(ascii: ".") where json5:
            let text = try parseNumber()
            return JSONNode(value: .number(text), range: start..<pos, line: line)
        default:
            if matchWord("true") { return JSONNode(value: .bool(true), range: start..<pos, line: line) }
            if matchWord("false") { return JSONNode(value: .bool(false), range: start..<pos, line: line) }
            if matchWord("null") { return JSONNode(value: .null, range: start..<pos, line: line) }
            if bytes[pos] == UInt8(ascii: "'") {
                throw error("single-quoted strings are not allowed in strict JSON")
            }
            throw error("unexpected \(describe(pos)): expected a value")
        }
    }

    mutating func matchWord(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard pos + w.count <= bytes.count, Array(bytes[pos..<pos + w.count]) == w else { return false }
        let end = pos + w.count
        if end < bytes.count, isIdentifierByte(bytes[end]) { return false }
        pos = end
        return true
    }

    func isIdentifierByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_") || b == UInt8(ascii: "$")
            || b >= 0x80
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > maximumDepth { throw error("nesting deeper than \(maximumDepth) levels") }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONNode {
        let start = pos
        let line = lineAndColumn(start).0
        try enter()
        pos += 1
        var members: [JSONMember] = []
        var seen: [String: Int] = [:]
        try skipTrivia()
        if pos < bytes.count && bytes[pos] == UInt8(ascii: "}") {
            pos += 1
            depth -= 1
            return JSONNode(value: .object([]), range: start..<pos, line: line)
        }
        while true {
            try skipTrivia()
            guard pos < bytes.count else { throw error("unterminated object (opened at line \(line))") }
            let keyStart = pos
            let keyLine = lineAndColumn(keyStart).0
            let key: String
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") || (json5 && b == UInt8(ascii: "'")) {
                key = try parseString()
            } else if json5, isIdentifierByte(b), !(b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) {
                while pos < bytes.count && isIdentifierByte(bytes[pos]) { pos += 1 }
                key = String(decoding: bytes[keyStart..<pos], as: UTF8.self)
            } else if b == UInt8(ascii: "}") {
                // Only reachable after a comma.
                throw error("trailing comma before '}' is not allowed in strict JSON", at: lastComma)
            } else {
                throw error("unexpected \(describe(pos)): expected a string key")
            }
            let keyRange = keyStart..<pos
            try skipTrivia()
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else {
                throw error("unexpected \(describe(pos)): expected ':' after key \"\(key)\"")
            }
            pos += 1
            try skipTrivia()
            let value = try parseValue()
            if let firstLine = seen[key], !json5 {
                throw error("duplicate key \"\(key)\" (first defined at line \(firstLine))", at: keyStart)
            }
            if seen[key] == nil { seen[key] = keyLine }
            members.append(JSONMember(key: key, keyRange: keyRange, keyLine: keyLine, value: value))
            try skipTrivia()
            guard pos < bytes.count else { throw error("unterminated object (opened at line \(line))") }
            if bytes[pos] == UInt8(ascii: ",") {
                lastComma = pos
                pos += 1
                try skipTrivia()
                if json5, pos < bytes.count, bytes[pos] == UInt8(ascii: "}") {
                    pos += 1
                    break
                }
                continue
            }
            if bytes[pos] == UInt8(ascii: "}") {
                pos += 1
                break
            }
            throw error("unexpected \(describe(pos)): expected ',' or '}' in object")
        }
        depth -= 1
        return JSONNode(value: .object(members), range: start..<pos, line: line)
    }

    var lastComma = 0

    mutating func parseArray() throws(JSONParseError) -> JSONNode {
        let start = pos
        let line = lineAndColumn(start).0
        try enter()
        pos += 1
        var items: [JSONNode] = []
        try skipTrivia()
        if pos < bytes.count && bytes[pos] == UInt8(ascii: "]") {
            pos += 1
            depth -= 1
            return JSONNode(value: .array([]), range: start..<pos, line: line)
        }
        while true {
            try skipTrivia()
            guard pos < bytes.count else { throw error("unterminated array (opened at line \(line))") }
            if bytes[pos] == UInt8(ascii: "]") {
                throw error("trailing comma before ']' is not allowed in strict JSON", at: lastComma)
            }
            items.append(try parseValue())
            try skipTrivia()
            guard pos < bytes.count else { throw error("unterminated array (opened at line \(line))") }
            if bytes[pos] == UInt8(ascii: ",") {
                lastComma = pos
                pos += 1
                try skipTrivia()
                if json5, pos < bytes.count, bytes[pos] == UInt8(ascii: "]") {
                    pos += 1
                    break
                }
                continue
            }
            if bytes[pos] == UInt8(ascii: "]") {
                pos += 1
                break
            }
            throw error("unexpected \(describe(pos)): expected ',' or ']' in array")
        }
        depth -= 1
        return JSONNode(value: .array(items), range: start..<pos, line: line)
    }

    func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard pos + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var v: UInt32 = 0
        for i in 0..<4 {
            guard let h = hexValue(bytes[pos + i]) else {
                throw error("invalid \\u escape: expected 4 hex digits", at: pos + i)
            }
            v = v * 16 + h
        }
        pos += 4
        return v
    }

    /// Parses a quoted string starting at `pos` (on the quote) and returns its decoded value.
    mutating func parseString() throws(JSONParseError) -> String {
        let quote = bytes[pos]
        let start = pos
        pos += 1
        var out: [UInt8] = []
        while true {
            guard pos < bytes.count else { throw error("unterminated string", at: start) }
            let b = bytes[pos]
            if b == quote {
                pos += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") {
                let escStart = pos
                pos += 1
                guard pos < bytes.count else { throw error("unterminated string", at: start) }
                let e = bytes[pos]
                pos += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "'") where json5: out.append(0x27)
                case 0x0A where json5: break  // line continuation
                case UInt8(ascii: "u"):
                    var code = try readHex4()
                    if code >= 0xD800 && code <= 0xDBFF {
                        guard pos + 6 <= bytes.count, bytes[pos] == UInt8(ascii: "\\"),
                            bytes[pos + 1] == UInt8(ascii: "u")
                        else {
                            throw error("invalid \\u escape: high surrogate not followed by a low surrogate", at: escStart)
                        }
                        pos += 2
                        let low = try readHex4()
                        guard low >= 0xDC00 && low <= 0xDFFF else {
                            throw error("invalid \\u escape: high surrogate not followed by a low surrogate", at: escStart)
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if code >= 0xDC00 && code <= 0xDFFF {
                        throw error("invalid \\u escape: lone low surrogate", at: escStart)
                    }
                    guard let scalar = Unicode.Scalar(code) else {
                        throw error("invalid \\u escape", at: escStart)
                    }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw error("invalid escape sequence '\\\(describeRaw(e))' in string", at: escStart)
                }
                continue
            }
            if b < 0x20 {
                if b == 0x0A || b == 0x0D {
                    throw error("unterminated string (line break inside a string)", at: start)
                }
                throw error("control character U+\("00" + hex2(b)) must be escaped in a string")
            }
            out.append(b)
            pos += 1
        }
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    func hex2(_ b: UInt8) -> String {
        let h = String(b, radix: 16, uppercase: true)
        return h.count == 1 ? "0" + h : h
    }

    func describeRaw(_ b: UInt8) -> String {
        b >= 0x20 && b < 0x7F ? String(Character(Unicode.Scalar(b))) : "\\x" + hex2(b)
    }

    /// Parses a number and returns its text as written.
    mutating func parseNumber() throws(JSONParseError) -> String {
        let start = pos
        if bytes[pos] == UInt8(ascii: "-") || (json5 && bytes[pos] == UInt8(ascii: "+")) { pos += 1 }
        guard pos < bytes.count else { throw error("invalid number: expected a digit", at: pos) }
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < bytes.count && JSONParser.isDigit(bytes[pos]) {
                throw error("invalid number: leading zeros are not allowed", at: start)
            }
        } else if JSONParser.isDigit(bytes[pos]) {
            while pos < bytes.count && JSONParser.isDigit(bytes[pos]) { pos += 1 }
        } else if !(json5 && bytes[pos] == UInt8(ascii: ".")) {
            throw error("invalid number: expected a digit after '-'", at: pos)
        }
        if pos < bytes.count && bytes[pos] == UInt8(ascii: ".") {
            pos += 1
            let fracStart = pos
            while pos < bytes.count && JSONParser.isDigit(bytes[pos]) { pos += 1 }
            if pos == fracStart && !json5 { throw error("invalid number: expected a digit after '.'", at: pos) }
        }
        if pos < bytes.count && (bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E")) {
            pos += 1
            if pos < bytes.count && (bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-")) { pos += 1 }
            let expStart = pos
            while pos < bytes.count && JSONParser.isDigit(bytes[pos]) { pos += 1 }
            if pos == expStart { throw error("invalid number: expected a digit in the exponent", at: pos) }
        }
        if pos < bytes.count && isIdentifierByte(bytes[pos]) {
            throw error("invalid number: unexpected \(describe(pos))", at: pos)
        }
        return String(decoding: bytes[start..<pos], as: UTF8.self)
    }
}
