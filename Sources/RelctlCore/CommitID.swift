/// A commit's id: its 20 bytes (SHA-1), as the history walk reads them, without a string.
///
/// Held as three big-endian words, so the hex form's first 16 digits are `leadingWord`: equality, hashing and the
/// lookup by first word (``CommitAnalyzer/combine(_:broughtIn:)``) are word compares. `RelctlGit`'s object ids give
/// their bytes to ``init(bytes:)``; everything else (tests, the fuzzer) spells one in hex.
public struct CommitID: Hashable, Sendable, CustomStringConvertible {
    /// Digits 1-16, 17-32 and 33-40 of the hex form.
    package let leadingWord: UInt64
    let middleWord: UInt64
    let trailingWord: UInt32

    /// The id whose 20 bytes start `bytes` (at least 20 bytes; an object id's raw form).
    package init(bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count >= 20, "a commit id is 20 bytes")
        leadingWord = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        middleWord = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        trailingWord = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
    }

    /// 40 lowercase hex digits, as git prints an id; nil for anything else (uppercase included: a sha written by
    /// hand is kept as text by ``AnalyzedCommit``, which compares it lowercased).
    public init?(hex: String) {
        var leading: UInt64 = 0, middle: UInt64 = 0, trailing: UInt32 = 0
        var count = 0
        for byte in hex.utf8 {
            let value: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = UInt64(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
            switch count {
            case 0..<16: leading = leading << 4 | value
            case 16..<32: middle = middle << 4 | value
            case 32..<40: trailing = trailing << 4 | UInt32(value)
            default: return nil
            }
            count += 1
        }
        guard count == 40 else { return nil }
        leadingWord = leading
        middleWord = middle
        trailingWord = trailing
    }

    /// The 40-digit lowercase hex form.
    public var hex: String {
        String(unsafeUninitializedCapacity: 40) { out in
            let digits: StaticString = "0123456789abcdef"
            let d = digits.utf8Start
            for i in 0..<16 { out[i] = d[Int(leadingWord >> UInt64(60 - 4 * i) & 0xF)] }
            for i in 0..<16 { out[16 + i] = d[Int(middleWord >> UInt64(60 - 4 * i) & 0xF)] }
            for i in 0..<8 { out[32 + i] = d[Int(trailingWord >> UInt32(28 - 4 * i) & 0xF)] }
            return 40
        }
    }

    public var description: String { hex }
}
