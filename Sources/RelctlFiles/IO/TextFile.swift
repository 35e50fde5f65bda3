import Foundation

/// Reading one version file as text: UTF-8 only, byte for byte, never through a symbolic link.
package enum TextFile {
    /// Reads the UTF-8 text at `absolutePath`; errors name the file `shownAs` (its path relative to the root).
    static func read(absolutePath full: String, shownAs path: String) throws(FileEditError) -> String {
        if let target = SymbolicLink.target(full) {
            throw FileEditError(path: path, line: nil, message: "is a symbolic link to \(target)",
                                hint: "point the files entry at the real file\(SymbolicLink.realPath(of: target, linkPath: path).map { ", \($0)" } ?? ""); relctl does not write through links")
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: full, isDirectory: &isDir) else {
            throw FileEditError(path: path, line: nil, message: "file not found", hint: "fix the path in .relctl.json or run relctl init")
        }
        guard !isDir.boolValue else { throw FileEditError(path: path, line: nil, message: "is a directory, not a file") }
        guard let data = FileManager.default.contents(atPath: full) else {
            throw FileEditError(path: path, line: nil, message: "cannot read the file")
        }
        return try decode(Array(data), path: path)
    }

    /// The text of `bytes`, byte for byte: a leading byte order mark is kept as U+FEFF (editors skip it), so
    /// `Array(text.utf8) == bytes`. Anything but valid UTF-8 is a one-line error saying how to convert it.
    static func decode(_ bytes: [UInt8], path: String) throws(FileEditError) -> String {
        if bytes.starts(with: Array("bplist".utf8)) {
            throw FileEditError(path: path, message: "is a binary property list, not text; relctl edits UTF-8 files only",
                                hint: "convert it with plutil -convert xml1 \(path)")
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw FileEditError(path: path, message: "is UTF-16 text; relctl edits UTF-8 files only — convert it with iconv -f utf-16 -t utf-8")
        }
        if let offset = firstInvalidUTF8Offset(bytes) {
            let byte = "0x" + String(bytes[offset], radix: 16, uppercase: true).leftPadded(to: 2)
            throw FileEditError(path: path, message: "not valid UTF-8 text (byte \(byte) at offset \(offset)); relctl edits UTF-8 files only — convert it with iconv -f latin1 -t utf-8")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text of `bytes` when they are valid UTF-8 (the one test `decode` applies), byte for byte; nil otherwise.
    package static func utf8Text(_ bytes: [UInt8]) -> String? {
        firstInvalidUTF8Offset(bytes) == nil ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// The offset of the first byte that does not start (or continue) a well-formed UTF-8 sequence, nil when valid.
    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF   // the allowed range of the second byte
            switch b {
            case 0x00...0x7F: i += 1; continue
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard i + length <= bytes.count else { return i }
            guard (low...high).contains(bytes[i + 1]) else { return i }
            for k in 2..<max(2, length) where !(0x80...0xBF).contains(bytes[i + k]) { return i }
            i += length
        }
        return nil
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
