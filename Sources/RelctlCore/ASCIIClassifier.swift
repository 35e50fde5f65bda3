/// Classifies one commit straight from its message's bytes, for a history walk that keeps only what its outputs print:
/// the result is exactly `CommitAnalyzer.classify` followed by `AnalyzedCommit.dropBodyAndFooters`, without the
/// strings and arrays in between (a copy of the message, its lines, the body, the footers, the sha as hex).
///
/// Only the usual message takes this path: ASCII without a carriage return, the summary being the header's line, not
/// a revert, no `fixup! ` prefix to strip. Anything else (and a message without contiguous UTF-8) goes through
/// ``CommitAnalyzer/classify(_:rules:)``, which compares characters where bytes could differ.
///
/// One classifier serves a batch of commits: it remembers the bump of each type it met (`ReleaseRules.bump(forType:)`
/// lowercases and hashes a string at every call; a batch has a handful of types).
package struct ASCIIClassifier {
    package let rules: ReleaseRules
    /// Types of up to 8 bytes, as written, packed in a word (with their length), and their bump under `rules`.
    private var knownTypes: [(type: UInt64, length: Int, bump: Bump)] = []

    package init(rules: ReleaseRules) {
        self.rules = rules
    }

    /// One commit classified with a classifier of its own.
    package static func classify(message: String, parentCount: Int, id: CommitID,
                                 rules: ReleaseRules) -> AnalyzedCommit {
        var classifier = ASCIIClassifier(rules: rules)
        return classifier.classify(message: message, parentCount: parentCount, id: id)
    }

    /// `id`: the commit's id, which becomes the result's `sha`.
    package mutating func classify(message: String, parentCount: Int, id: CommitID) -> AnalyzedCommit {
        let packed = PackedSHA.packed(id)
        if let fast = message.utf8.withContiguousStorageIfAvailable({
            classify(bytes: $0, parentCount: parentCount, sha: packed)
        }), let fast {
            return fast
        }
        var analyzed = CommitAnalyzer.classify(RawCommit(sha: packed.text, message: message, parentCount: parentCount),
                                               rules: rules)
        analyzed.dropBodyAndFooters()
        return analyzed
    }

    /// The byte-level classification, or `nil` for a message it leaves to ``CommitAnalyzer``.
    mutating func classify(bytes: UnsafeBufferPointer<UInt8>, parentCount: Int, sha: PackedSHA) -> AnalyzedCommit? {
        let count = bytes.count
        guard Self.isASCIIWithoutCR(bytes) else { return nil }

        // The summary, as `ConventionalCommitParser.summary(of:)` finds it.
        var summaryStart = 0
        while summaryStart < count, bytes[summaryStart] == 0x0A || bytes[summaryStart] == 0x20
                || bytes[summaryStart] == 0x09 {
            guard let newline = Self.index(of: 0x0A, in: bytes, from: summaryStart) else { break }
            var blank = true
            for k in summaryStart..<newline where !Self.isTrailingSpace(bytes[k]) { blank = false; break }
            guard blank else { break }
            summaryStart = newline + 1
        }
        let summaryLineEnd = Self.index(of: 0x0A, in: bytes, from: summaryStart) ?? count
        let summaryEnd = Self.trimmedEnd(bytes, summaryStart, summaryLineEnd)

        // The header's line: the first line not blank (as `CommitMessageLines` sees lines). It is the summary's
        // line unless a line of vertical tabs or form feeds comes first, which is left to the general path.
        var headerStart = 0
        var headerLineEnd = count
        while true {
            headerLineEnd = Self.index(of: 0x0A, in: bytes, from: headerStart) ?? count
            if Self.trimmedEnd(bytes, headerStart, headerLineEnd) > headerStart || headerLineEnd == count { break }
            headerStart = headerLineEnd + 1
        }
        guard headerStart == summaryStart else { return nil }

        var status: CommitStatus?
        if rules.ignoreMerges, parentCount > 1 {
            status = .merge
        } else if Self.hasPrefix(bytes, summaryStart, summaryEnd, "fixup! ") || Self.hasPrefix(bytes, summaryStart, summaryEnd, "squash! ")
                    || Self.hasPrefix(bytes, summaryStart, summaryEnd, "amend! ") {
            guard rules.ignoreFixups else { return nil }   // analyzed without its prefixes: the general path
            status = .fixup
        }
        let summary = String(decoding: UnsafeBufferPointer(rebasing: bytes[summaryStart..<summaryEnd]), as: UTF8.self)

        guard let header = Self.parseHeader(bytes, summaryStart, summaryEnd) else {
            if status == nil, Self.isRevertSummary(bytes, summaryStart, summaryEnd) { return nil }
            return AnalyzedCommit(packedSHA: sha, summary: summary, storedMessage: .none, bump: .none,
                                  status: status ?? .notConventional)
        }
        if status == nil, Self.isRevertSummary(bytes, summaryStart, summaryEnd)
            || Self.equalsASCIILowercased(bytes, header.typeStart, header.typeEnd, "revert") {
            return nil
        }

        let breaking = Self.breakingFooterValues(bytes, after: summaryLineEnd)
        var bump = Bump.none
        if status == nil {
            bump = !breaking.isEmpty || header.bang ? .major : self.bump(forType: bytes, header.typeStart, header.typeEnd)
            status = bump == .none ? .noReleaseType : .counted
        }

        // Without breaking-change footers, the breaking changes are the description when the header has `!`, else
        // none: what the compact form implies.
        let stored: StoredMessage
        if breaking.isEmpty, header.descriptionStart == header.colon + 2, summaryEnd - summaryStart <= Int(UInt16.max) {
            // The summary is the header as written: its parts are where the parser found them.
            let scope = header.scope ?? (header.typeEnd..<header.typeEnd)
            stored = .header(.init(typeStart: 0, typeEnd: UInt16(header.typeEnd - summaryStart),
                                   scopeStart: UInt16(scope.lowerBound - summaryStart),
                                   scopeEnd: UInt16(scope.upperBound - summaryStart),
                                   descriptionStart: UInt16(header.descriptionStart - summaryStart), bang: header.bang))
        } else {
            let description = Self.string(bytes, header.descriptionStart, summaryEnd)
            let breakingChanges = breaking.isEmpty
                ? (header.bang ? [description] : [])
                : breaking.map { $0.isEmpty ? description : $0 }
            let message = ConventionalMessage(type: Self.string(bytes, header.typeStart, header.typeEnd),
                                              scope: header.scope.map { Self.string(bytes, $0.lowerBound, $0.upperBound) },
                                              hasBreakingMarker: header.bang, description: description,
                                              breakingChanges: breakingChanges)
            stored = StoredMessage(message, summary: summary)
        }
        return AnalyzedCommit(packedSHA: sha, summary: summary, storedMessage: stored, bump: bump,
                              status: status ?? .notConventional)
    }

    /// `rules.bump(forType:)` of the type `bytes[start..<end]`, remembered for types of up to 8 bytes.
    private mutating func bump(forType bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bump {
        let length = end - start
        guard length <= 8 else { return rules.bump(forType: Self.string(bytes, start, end)) }
        var word: UInt64 = 0
        for k in start..<end { word = word << 8 | UInt64(bytes[k]) }
        for known in knownTypes where known.type == word && known.length == length { return known.bump }
        let bump = rules.bump(forType: Self.string(bytes, start, end))
        if knownTypes.count < 32 { knownTypes.append((word, length, bump)) }
        return bump
    }

    /// No byte above 0x7F and no carriage return, eight bytes at a time.
    static func isASCIIWithoutCR(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var k = 0
        while k + 8 <= count {
            let word = UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)
            guard word & 0x8080_8080_8080_8080 == 0 else { return false }
            // A zero byte of `word ^ 0x0D…` is a CR (exact once no byte has its top bit set).
            let x = word ^ 0x0D0D_0D0D_0D0D_0D0D
            guard (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 == 0 else { return false }
            k += 8
        }
        while k < count {
            guard bytes[k] < 0x80, bytes[k] != 0x0D else { return false }
            k += 1
        }
        return true
    }

    // MARK: Header

    private struct Header {
        var typeStart: Int
        var typeEnd: Int
        var scope: Range<Int>?
        var bang: Bool
        var colon: Int
        var descriptionStart: Int
    }

    /// `ConventionalCommitParser.parseHeader` on `bytes[start..<end]` (a line without trailing whitespace).
    private static func parseHeader(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Header? {
        var i = start
        guard i < end, bytes[i].isASCIILetter else { return nil }
        i += 1
        while i < end, bytes[i].isASCIILetter || bytes[i].isASCIIDigit || bytes[i] == 0x2D || bytes[i] == 0x5F { i += 1 }
        let typeEnd = i
        var scope: Range<Int>?
        if i < end, bytes[i] == 0x28 /* ( */ {
            i += 1
            let scopeStart = i
            while i < end, bytes[i] != 0x29 /* ) */ {
                if bytes[i] == 0x28 { return nil }
                i += 1
            }
            guard i < end, i > scopeStart else { return nil }
            scope = scopeStart..<i
            i += 1
        }
        var bang = false
        if i < end, bytes[i] == 0x21 /* ! */ {
            bang = true
            i += 1
        }
        guard i + 1 < end, bytes[i] == 0x3A /* : */, bytes[i + 1] == 0x20 else { return nil }
        var descriptionStart = i + 2
        while descriptionStart < end, isTrailingSpace(bytes[descriptionStart]) { descriptionStart += 1 }
        guard descriptionStart < end else { return nil }
        return Header(typeStart: start, typeEnd: typeEnd, scope: scope, bang: bang, colon: i,
                      descriptionStart: descriptionStart)
    }

    // MARK: Footers

    /// The values of the breaking-change footers of the lines after the header's (which ends at `headerLineEnd`), as
    /// `ConventionalCommitParser.parse` finds the footer block and joins continuation lines; the body, the other
    /// footers and the lines themselves are not built (a final empty line only adds a newline, which is trimmed).
    private static func breakingFooterValues(_ bytes: UnsafeBufferPointer<UInt8>, after headerLineEnd: Int) -> [String] {
        let count = bytes.count
        guard headerLineEnd < count else { return [] }
        // The footer block starts at the first line of the longest run of final paragraphs that start with a
        // footer, or at the first paragraph that starts with a breaking-change footer if that comes earlier.
        var lastRunStart: Int?      // where the current run of footer paragraphs starts
        var firstBreaking: Int?
        var inParagraph = false
        var start = headerLineEnd + 1
        while true {
            let lineEnd = index(of: 0x0A, in: bytes, from: start) ?? count
            let end = trimmedEnd(bytes, start, lineEnd)
            if end == start {
                inParagraph = false
            } else if !inParagraph {
                inParagraph = true
                if let footer = footerLine(bytes, start, end) {
                    if lastRunStart == nil { lastRunStart = start }
                    if firstBreaking == nil, isBreakingToken(bytes, footer.tokenStart, footer.tokenEnd) { firstBreaking = start }
                } else {
                    lastRunStart = nil
                }
            }
            if lineEnd == count { break }
            start = lineEnd + 1
        }
        var footerStart = lastRunStart ?? count
        if let firstBreaking, firstBreaking < footerStart { footerStart = firstBreaking }
        guard footerStart < count else { return [] }

        var values: [String] = []
        var current: [UInt8]?   // the value of the breaking footer being read
        func flush() {
            guard let value = current else { return }
            values.append(value.withUnsafeBufferPointer { String(decoding: trimmed($0), as: UTF8.self) })
            current = nil
        }
        start = footerStart
        while true {
            let lineEnd = index(of: 0x0A, in: bytes, from: start) ?? count
            let end = trimmedEnd(bytes, start, lineEnd)
            if let footer = footerLine(bytes, start, end) {
                flush()
                if isBreakingToken(bytes, footer.tokenStart, footer.tokenEnd) {
                    current = Array(UnsafeBufferPointer(rebasing: bytes[footer.valueStart..<end]))
                }
            } else if current != nil {
                current!.append(0x0A)
                current!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
            }
            if lineEnd == count { break }
            start = lineEnd + 1
        }
        flush()
        return values
    }

    /// `ConventionalCommitParser.footerLine` on `bytes[start..<end]`: the token's bounds and where the value starts.
    private static func footerLine(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int)
        -> (tokenStart: Int, tokenEnd: Int, valueStart: Int)? {
        var i = start
        if hasPrefix(bytes, start, end, "BREAKING CHANGE") {
            i += 15
        } else {
            guard i < end, bytes[i].isASCIILetter || bytes[i].isASCIIDigit else { return nil }
            while i < end, bytes[i].isASCIILetter || bytes[i].isASCIIDigit || bytes[i] == 0x2D { i += 1 }
        }
        let tokenEnd = i
        guard i < end else { return nil }
        if bytes[i] == 0x3A /* : */ {
            if i + 1 == end { return (start, tokenEnd, end) }
            guard bytes[i + 1] == 0x20 else { return nil }
            return (start, tokenEnd, i + 2)
        }
        if bytes[i] == 0x20, i + 2 < end, bytes[i + 1] == 0x23 /* # */ {
            return (start, tokenEnd, i + 2)
        }
        return nil
    }

    private static func isBreakingToken(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        end - start == 15 && (hasPrefix(bytes, start, end, "BREAKING CHANGE") || hasPrefix(bytes, start, end, "BREAKING-CHANGE"))
    }

    // MARK: Reverts

    /// `Revert "…"` or `Reapply "…"` (what `CommitAnalyzer.isRevertSummary` accepts, for ASCII).
    private static func isRevertSummary(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard end > start, bytes[end - 1] == 0x22 /* " */ else { return false }
        return (end - start > 8 && hasPrefix(bytes, start, end, "Revert \""))
            || (end - start > 9 && hasPrefix(bytes, start, end, "Reapply \""))
    }

    // MARK: Bytes

    /// The first `byte` at or after `start`, eight bytes at a time.
    static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var k = start
        let count = bytes.count
        if let base = bytes.baseAddress {
            let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
            while k + 8 <= count {
                let x = UInt64(littleEndian: UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)) ^ pattern
                // The lowest flagged byte is the first zero byte of `x` (a borrow only flags bytes above a zero one).
                let found = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
                if found != 0 { return k + found.trailingZeroBitCount / 8 }
                k += 8
            }
        }
        while k < count {
            if bytes[k] == byte { return k }
            k += 1
        }
        return nil
    }

    /// `end` moved back over trailing whitespace, not before `start`.
    @inline(__always)
    private static func trimmedEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var end = end
        while end > start, isTrailingSpace(bytes[end - 1]) { end -= 1 }
        return end
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                                  _ prefix: StaticString) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard end - start >= length else { return false }
        let p = prefix.utf8Start
        for k in 0..<length where bytes[start + k] != p[k] { return false }
        return true
    }

    /// Whether `bytes[start..<end]` lowercased is `lowercase` (ASCII).
    private static func equalsASCIILowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                                              _ lowercase: StaticString) -> Bool {
        guard end - start == lowercase.utf8CodeUnitCount else { return false }
        let p = lowercase.utf8Start
        for k in 0..<(end - start) {
            var byte = bytes[start + k]
            if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
            if byte != p[k] { return false }
        }
        return true
    }

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// Space, tab, CR, vertical tab, form feed.
    @inline(__always) private static func isTrailingSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    /// `bytes` without leading and trailing whitespace, newlines included.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0, end = bytes.count
        while start < end, isTrailingSpace(bytes[start]) || bytes[start] == 0x0A { start += 1 }
        while end > start, isTrailingSpace(bytes[end - 1]) || bytes[end - 1] == 0x0A { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }
}
