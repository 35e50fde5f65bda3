// The one home of the ASCII character checks every parser of relctl needs. They work on UTF-8 bytes: `Character`
// properties (`isNumber`) accept every script's digits (`٣`), and re-run grapheme breaking on each step.

extension UInt8 {
    /// `0`…`9`.
    @inline(__always) package var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
    /// `A`…`Z`, `a`…`z`.
    @inline(__always) package var isASCIILetter: Bool { (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) }
    /// A space or a tab.
    @inline(__always) package var isASCIIHorizontalSpace: Bool { self == 0x20 || self == 0x09 }
}

extension StringProtocol {
    /// Not empty, and only ASCII digits (`0042` is; `4.2`, `-1`, `٣` and `""` are not).
    package var isASCIIDigits: Bool { !isEmpty && utf8.allSatisfy(\.isASCIIDigit) }
}
