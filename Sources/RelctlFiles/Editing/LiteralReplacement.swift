extension String {
    /// Every occurrence of the ASCII text `pattern` replaced by `replacement`, left to right, byte by byte.
    ///
    /// For build-setting references (`$(SRCROOT)`): Foundation's `replacingOccurrences` bridges to NSString and
    /// cost more than the rest of reading an Xcode project; this compares UTF-8 bytes and copies nothing when
    /// the pattern is absent.
    func replacingLiteral(_ pattern: String, with replacement: String) -> String {
        let text = Array(utf8), needle = Array(pattern.utf8)
        guard !needle.isEmpty, needle.count <= text.count else { return self }
        var out: [UInt8] = []
        var copied = 0, i = 0
        while i + needle.count <= text.count {
            if text[i] == needle[0] && text[i..<i + needle.count].elementsEqual(needle) {
                if out.isEmpty { out.reserveCapacity(text.count) }
                out.append(contentsOf: text[copied..<i])
                out.append(contentsOf: replacement.utf8)
                i += needle.count
                copied = i
            } else {
                i += 1
            }
        }
        guard copied > 0 else { return self }
        out.append(contentsOf: text[copied...])
        return String(decoding: out, as: UTF8.self)
    }
}
