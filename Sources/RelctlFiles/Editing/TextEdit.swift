/// Replace the UTF-8 bytes `range` of a file with `replacement`.
package struct TextEdit: Hashable, Sendable {
    /// UTF-8 byte offsets into the original text.
    package var range: Range<Int>
    package var replacement: String

    package init(range: Range<Int>, replacement: String) {
        self.range = range
        self.replacement = replacement
    }
}

/// Applies non-overlapping edits (in any order). Bytes outside the edited ranges never change.
package func applying(_ edits: [TextEdit], to text: String) -> String {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var cursor = 0
    // Stable: two insertions at one offset (a pubspec's version and its new "+N") keep the order given.
    let ordered = edits.enumerated().sorted { ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset) }
    for edit in ordered.map(\.element) {
        precondition(edit.range.lowerBound >= cursor && edit.range.upperBound <= bytes.count,
                     "overlapping or out-of-bounds TextEdit \(edit.range)")
        out.append(contentsOf: bytes[cursor..<edit.range.lowerBound])
        out.append(contentsOf: Array(edit.replacement.utf8))
        cursor = edit.range.upperBound
    }
    out.append(contentsOf: bytes[cursor...])
    return String(decoding: out, as: UTF8.self)
}
