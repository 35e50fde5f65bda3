internal import CLibGit2

/// A SHA-1 object id, stored in three words so hashing and comparing are cheap.
package struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    let a: UInt64, b: UInt64, c: UInt32

    init(_ oid: git_oid) {
        var copy = oid
        (a, b, c) = withUnsafeBytes(of: &copy.id) { raw in
            (raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
             raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
             raw.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
        }
    }

    init(_ pointer: UnsafePointer<git_oid>) { self.init(pointer.pointee) }

    /// Parses 40 hex digits; nil for anything else.
    package init?(hex: String) {
        var utf8 = Array(hex.utf8)
        guard utf8.count == 40 else { return nil }
        guard let id = utf8.withUnsafeMutableBufferPointer({ ObjectID(hexBytes: UnsafeBufferPointer($0), at: 0) }) else { return nil }
        self = id
    }

    /// Parses 40 hex digits starting at `offset` of a raw buffer (a commit object's `parent` line).
    init?(hexBytes bytes: UnsafeBufferPointer<UInt8>, at offset: Int) {
        guard offset + 40 <= bytes.count else { return nil }
        var raw = git_oid()
        let ok = withUnsafeMutableBytes(of: &raw.id) { out -> Bool in
            for i in 0..<20 {
                guard let hi = hexValue(bytes[offset + 2 * i]), let lo = hexValue(bytes[offset + 2 * i + 1]) else { return false }
                out[i] = hi << 4 | lo
            }
            return true
        }
        guard ok else { return nil }
        self.init(raw)
    }

    var gitOID: git_oid {
        var raw = git_oid()
        withUnsafeMutableBytes(of: &raw.id) { out in
            out.storeBytes(of: a, toByteOffset: 0, as: UInt64.self)
            out.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
            out.storeBytes(of: c, toByteOffset: 16, as: UInt32.self)
        }
        return raw
    }

    /// The 20 raw bytes (RelctlCore's `CommitID(bytes:)` takes them).
    package func withRawBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var raw = gitOID
        return withUnsafeBytes(of: &raw.id, body)
    }

    /// The 40-digit lowercase hex form.
    package var hex: String {
        var raw = gitOID
        return withUnsafeBytes(of: &raw.id) { bytes in
            String(unsafeUninitializedCapacity: 40) { out in
                let digits: StaticString = "0123456789abcdef"
                let d = digits.utf8Start
                for i in 0..<20 {
                    out[2 * i] = d[Int(bytes[i] >> 4)]
                    out[2 * i + 1] = d[Int(bytes[i] & 0xF)]
                }
                return 40
            }
        }
    }

    package var description: String { hex }
}

@inline(__always)
private func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
}
