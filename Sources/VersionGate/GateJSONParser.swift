/// A strict RFC 8259 reader over UTF-8 bytes that reports the line of the first problem. Nesting is limited
/// (``maximumDepth``) so a hostile document cannot exhaust the stack of a server that reads it.
struct GateJSONParser {
    static let maximumDepth = GateJSON.maximumDepth

    private let bytes: [UInt8]
    private var position = 0
    private var line = 1
    private var depth = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    mutating func parseDocument() throws(GateDocumentError) -> GateJSON {
        // A byte-order mark is not JSON, but editors write one; skip it.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        skipWhitespace()
        guard position < bytes.count else { throw failure("the document is empty (expected a JSON value)") }
        let value = try parseValue()
        skipWhitespace()
        if position < bytes.count { throw failure("unexpected \(describe(bytes[position])) after the JSON value") }
        return value
    }

    private func failure(_ message: String) -> GateDocumentError {
        GateDocumentError(message, line: line)
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(String(UnicodeScalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, GateText.isWhitespace(bytes[position]) {
            if bytes[position] == 0x0A { line += 1 }
            position += 1
        }
    }

    private mutating func parseValue() throws(GateDocumentError) -> GateJSON {
        guard position < bytes.count else { throw failure("unexpected end of the document (expected a value)") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure("unexpected \(describe(bytes[position])) (expected a JSON value)")
        }
    }

    private mutating func expectWord(_ word: String) throws(GateDocumentError) {
        let expected = Array(word.utf8)
        guard bytes.count - position >= expected.count, Array(bytes[position..<position + expected.count]) == expected
        else { throw failure("unexpected \(describe(bytes[position])) (expected a JSON value)") }
        position += expected.count
    }

    private mutating func enter() throws(GateDocumentError) {
        depth += 1
        if depth > GateJSONParser.maximumDepth {
            throw failure("nesting deeper than \(GateJSONParser.maximumDepth) levels")
        }
    }

    private mutating func parseObject() throws(GateDocumentError) -> GateJSON {
        try enter()
        position += 1
        var members: [(key: String, value: GateJSON)] = []
        var seen = Set<String>()
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw position < bytes.count
                    ? failure("unexpected \(describe(bytes[position])) (expected a key in double quotes)")
                    : failure("unexpected end of the document (expected a key)")
            }
            let keyLine = line
            let key = try parseString()
            if !seen.insert(key).inserted {
                throw GateDocumentError("duplicate key \"\(key)\"", line: keyLine)
            }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw failure("expected ':' after \"\(key)\"")
            }
            position += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            guard position < bytes.count else { throw failure("unexpected end of the document (expected ',' or '}')") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "}") {
                position += 1
                depth -= 1
                return .object(members)
            }
            throw failure("unexpected \(describe(bytes[position])) (expected ',' or '}')")
        }
    }

    private mutating func parseArray() throws(GateDocumentError) -> GateJSON {
        try enter()
        position += 1
        var items: [GateJSON] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            guard position < bytes.count else { throw failure("unexpected end of the document (expected ',' or ']')") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "]") {
                position += 1
                depth -= 1
                return .array(items)
            }
            throw failure("unexpected \(describe(bytes[position])) (expected ',' or ']')")
        }
    }

    private mutating func parseString() throws(GateDocumentError) -> String {
        position += 1
        var out: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): out.append(contentsOf: try parseUnicodeEscape())
                default: throw failure("invalid escape \\\(String(UnicodeScalar(escape))) in a string")
                }
            case 0x00..<0x20:
                throw failure(byte == 0x0A ? "line break inside a string (write \\n)" : "control character inside a string")
            default:
                out.append(byte)
                position += 1
            }
        }
        throw failure("unterminated string")
    }

    private mutating func hexQuad() throws(GateDocumentError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw failure("incomplete \\u escape") }
        var value: UInt32 = 0
        for byte in bytes[position..<position + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        position += 4
        return value
    }

    private mutating func parseUnicodeEscape() throws(GateDocumentError) -> [UInt8] {
        var value = try hexQuad()
        if (0xD800...0xDBFF).contains(value) {
            guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
            else { throw failure("unpaired surrogate in a \\u escape") }
            position += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate in a \\u escape") }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(value) {
            throw failure("unpaired surrogate in a \\u escape")
        }
        guard let scalar = Unicode.Scalar(value) else { throw failure("invalid \\u escape") }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func parseNumber() throws(GateDocumentError) -> String {
        let start = position
        func digits() -> Int {
            let begin = position
            while position < bytes.count, GateText.isDigit(bytes[position]) { position += 1 }
            return position - begin
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, GateText.isDigit(bytes[position]) else { throw failure("invalid number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, GateText.isDigit(bytes[position]) {
                throw failure("invalid number (leading zero)")
            }
        } else {
            _ = digits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw failure("invalid number (no digit after '.')") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else { throw failure("invalid number (no digit in the exponent)") }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }
}
