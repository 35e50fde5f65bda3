// ASCII character classes, shared by every parser in the package. Version strings, build numbers, commit
// headers and config keys are ASCII by rule: `Character.isNumber` alone would take `٣` or `½` for a digit.

extension UInt8 {
    /// `0`…`9`.
    package var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
    /// `A`…`Z`, `a`…`z`.
    package var isASCIILetter: Bool { (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) }
    /// `0`…`9`, `A`…`F`, `a`…`f`.
    package var isASCIIHexDigit: Bool { isASCIIDigit || (self >= 0x41 && self <= 0x46) || (self >= 0x61 && self <= 0x66) }
}

extension Character {
    /// `0`…`9`.
    package var isASCIIDigit: Bool { isASCII && isNumber }
    /// `A`…`Z`, `a`…`z`, `0`…`9`.
    package var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}

extension StringProtocol {
    /// Not empty, and nothing but `0`…`9`.
    package var isAllDigits: Bool { !isEmpty && utf8.allSatisfy(\.isASCIIDigit) }
}
