// The one home of the ASCII character checks every parser of relctl needs. They work on UTF-8 bytes: `Character`
// properties (`isNumber`) accept every script's digits (`٣`), and re-run grapheme breaking on each step.

extension UInt8 {
    /// `0`…`9`.
    @inline(__always) package var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
    /// `A`…`Z`, `a`…`z`.
    @inline(__always) package var isASCIILetter: Bool { (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) }
    /// A space or a tab.
    @inline(__always) package var isASCIIHorizontalSpace: Bool { self == 0x20 || self == 0x09 }
    /// `0`…`9`, `A`…`F`, `a`…`f`.
    @inline(__always) package var isASCIIHexDigit: Bool { isASCIIDigit || (self >= 0x41 && self <= 0x46) || (self >= 0x61 && self <= 0x66) }
}

extension StringProtocol {
    /// Not empty, and only ASCII digits (`0042` is; `4.2`, `-1`, `٣` and `""` are not).
    package var isASCIIDigits: Bool { !isEmpty && utf8.allSatisfy(\.isASCIIDigit) }
}

extension Character {
    /// `0`…`9`, for the parsers that walk characters (tag names, changelog headings).
    package var isASCIIDigit: Bool { isASCII && isNumber }
    /// `A`…`Z`, `a`…`z`, `0`…`9`.
    package var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}
