#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RelctlCore

/// A parsed old-style (OpenStep) property list value with source positions, as used by `project.pbxproj`.
indirect enum PBXValue {
    case string(String, range: Range<Int>, quoted: Bool)
    case array([PBXValue])
    case dict([(key: String, value: PBXValue)])

    subscript(key: String) -> PBXValue? {
        if case .dict(let pairs) = self { return pairs.last(where: { $0.key == key })?.value }
        return nil
    }

    var string: String? {
        if case .string(let s, _, _) = self { return s }
        return nil
    }

    var array: [PBXValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
}

struct PBXParser {
    let t: ByteText
    var pos = 0
    let path: String
    /// Nesting of dictionaries and arrays; real projects stay under ten, a hostile file must not exhaust the stack.
    var depth = 0
    static let maxDepth = 200

    init(_ t: ByteText, path: String) {
        self.t = t
        self.path = path
    }

    func fail(_ message: String) -> FileEditError {
        FileEditError(path: path, line: t.line(of: min(pos, max(0, t.bytes.count - 1))), message: "cannot parse project.pbxproj: \(message)")
    }

    mutating func skip() throws(FileEditError) {
        let b = t.bytes
        while pos < b.count {
            if b[pos] == 0x20 || b[pos] == 0x09 || b[pos] == 0x0A || b[pos] == 0x0D { pos += 1; continue }
            if b[pos] == UInt8(ascii: "/"), pos + 1 < b.count {
                if b[pos + 1] == UInt8(ascii: "/") {
                    while pos < b.count && b[pos] != 0x0A { pos += 1 }
                    continue
                }
                if b[pos + 1] == UInt8(ascii: "*") {
                    pos += 2
                    while pos + 1 < b.count && !(b[pos] == UInt8(ascii: "*") && b[pos + 1] == UInt8(ascii: "/")) { pos += 1 }
                    guard pos + 1 < b.count else { throw fail("unterminated comment") }
                    pos += 2
                    continue
                }
            }
            break
        }
    }

    static func isUnquoted(_ c: UInt8) -> Bool {
        c.isIdentifierByte || c == UInt8(ascii: ".") || c == UInt8(ascii: "/") || c == UInt8(ascii: "-") || c == UInt8(ascii: ":")
    }

    mutating func parseDocument() throws(FileEditError) -> PBXValue {
        if t.bytes.starts(with: Array("// !$*UTF8*$!".utf8)) { pos = 0 }
        try skip()
        let v = try parseValue()
        try skip()
        guard pos >= t.bytes.count else { throw fail("unexpected text after the root dictionary") }
        return v
    }

    private mutating func enter() throws(FileEditError) {
        depth += 1
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth) levels") }
    }

    mutating func parseValue() throws(FileEditError) -> PBXValue {
        let b = t.bytes
        guard pos < b.count else { throw fail("unexpected end of file") }
        switch b[pos] {
        case UInt8(ascii: "{"):
            try enter()
            pos += 1
            var pairs: [(key: String, value: PBXValue)] = []
            while true {
                try skip()
                guard pos < b.count else { throw fail("unterminated dictionary") }
                if b[pos] == UInt8(ascii: "}") { pos += 1; depth -= 1; return .dict(pairs) }
                guard case .string(let key, _, _) = try parseValue() else { throw fail("dictionary key must be a string") }
                try skip()
                guard pos < b.count, b[pos] == UInt8(ascii: "=") else { throw fail("expected '=' after \(key)") }
                pos += 1
                try skip()
                let value = try parseValue()
                try skip()
                guard pos < b.count, b[pos] == UInt8(ascii: ";") else { throw fail("expected ';' after the value of \(key)") }
                pos += 1
                pairs.append((key, value))
            }
        case UInt8(ascii: "("):
            try enter()
            pos += 1
            var items: [PBXValue] = []
            while true {
                try skip()
                guard pos < b.count else { throw fail("unterminated array") }
                if b[pos] == UInt8(ascii: ")") { pos += 1; depth -= 1; return .array(items) }
                items.append(try parseValue())
                try skip()
                if pos < b.count && b[pos] == UInt8(ascii: ",") { pos += 1 }
            }
        case UInt8(ascii: "\""):
            let start = pos
            pos += 1
            var out: [UInt8] = []
            while pos < b.count && b[pos] != UInt8(ascii: "\"") {
                if b[pos] == UInt8(ascii: "\\") && pos + 1 < b.count {
                    pos += 1
                    switch b[pos] {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    default: out.append(b[pos])
                    }
                } else {
                    out.append(b[pos])
                }
                pos += 1
            }
            guard pos < b.count else { pos = start; throw fail("unterminated string") }
            pos += 1
            return .string(String(decoding: out, as: UTF8.self), range: start..<pos, quoted: true)
        default:
            let start = pos
            while pos < b.count && Self.isUnquoted(b[pos]) { pos += 1 }
            guard pos > start else { throw fail("unexpected character '\(Character(Unicode.Scalar(b[pos])))'") }
            return .string(t.string(start..<pos), range: start..<pos, quoted: false)
        }
    }
}
