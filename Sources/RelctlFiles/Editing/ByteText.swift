import RelctlCore

/// Byte-level view of a text with line lookup.
struct ByteText {
    let bytes: [UInt8]
    let lineStarts: [Int]

    init(_ text: String) {
        bytes = Array(text.utf8)
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A { starts.append(i + 1) }
        lineStarts = starts
    }

    func line(of offset: Int) -> Int {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo + 1
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// Byte range of line `n` (1-based) without its `\n` / `\r\n`.
    func lineRange(_ n: Int) -> Range<Int> {
        let start = lineStarts[n - 1]
        var end = n < lineStarts.count ? lineStarts[n] - 1 : bytes.count
        if end > start && bytes[end - 1] == 0x0D { end -= 1 }
        return start..<end
    }

    var lineCount: Int { lineStarts.count }
}

extension UInt8 {
    /// A byte of an identifier in the formats relctl reads: an ASCII letter or digit, `_` or `$`.
    var isIdentifierByte: Bool { isASCIIDigit || isASCIILetter || self == 0x5F || self == 0x24 }
}

extension String {
    /// Without leading and trailing spaces, tabs and CRs. Works on UTF-8 bytes: Character-wise trimming
    /// re-runs grapheme breaking at each step, which a hostile line can make quadratic.
    var trimmingSpaces: String {
        let bytes = utf8
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return "" }
        let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D })!
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}

extension String {
    /// The UTF-8 byte at `offset` (constant time on a native string).
    func utf8Byte(at offset: Int) -> UInt8 { utf8[utf8.index(utf8.startIndex, offsetBy: offset)] }

    /// The text of the UTF-8 bytes `range`.
    func utf8Text(_ range: Range<Int>) -> String {
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return String(decoding: utf8[start..<utf8.index(start, offsetBy: range.count)], as: UTF8.self)
    }
}
