/// An ``AnalyzedCommit``'s conventional message, small: a header that is the summary's (type, scope and description
/// are parts of the summary) as byte offsets into it, anything else (a body, footers, breaking changes other than
/// the description) whole in a box. Which form holds a message depends only on the message and the summary, so
/// equal commits store equal values.
enum StoredMessage: Hashable, Sendable {
    case none
    case header(HeaderOffsets)
    case full(MessageBox)

    /// Where the header's parts sit in the summary's UTF-8 bytes (a summary longer than 65,535 bytes is boxed).
    struct HeaderOffsets: Hashable, Sendable {
        let typeStart: UInt16
        let typeEnd: UInt16
        /// `scopeStart == scopeEnd`: no scope (a written scope is never empty).
        let scopeStart: UInt16
        let scopeEnd: UInt16
        /// The description runs from here to the end of the summary.
        let descriptionStart: UInt16
        /// `!` before the colon; its breaking change is then the description.
        let bang: Bool
    }

    init(_ message: ConventionalMessage?, summary: String) {
        guard let message else { self = .none; return }
        if message.body == nil, message.footers.isEmpty, message.scope?.isEmpty != true,
           message.breakingChanges == (message.hasBreakingMarker ? [message.description] : []),
           let offsets = Self.offsets(of: message, in: summary) {
            self = .header(offsets)
        } else {
            self = .full(MessageBox(message))
        }
    }

    func message(summary: String) -> ConventionalMessage? {
        switch self {
        case .none:
            return nil
        case .full(let box):
            return box.message
        case .header(let o):
            let utf8 = Array(summary.utf8)
            func part(_ start: UInt16, _ end: UInt16) -> String {
                String(decoding: utf8[Int(start)..<Int(end)], as: UTF8.self)
            }
            let description = String(decoding: utf8[Int(o.descriptionStart)...], as: UTF8.self)
            return ConventionalMessage(type: part(o.typeStart, o.typeEnd),
                                       scope: o.scopeStart == o.scopeEnd ? nil : part(o.scopeStart, o.scopeEnd),
                                       hasBreakingMarker: o.bang, description: description,
                                       breakingChanges: o.bang ? [description] : [])
        }
    }

    /// The header's offsets when the summary ends with `type(scope)!: description` exactly as the message holds
    /// it (the summary of a fixup analyzed as its target starts with the `fixup! ` prefixes); else nil.
    private static func offsets(of message: ConventionalMessage, in summary: String) -> HeaderOffsets? {
        var header = Array(message.type.utf8)
        var scopeRange = 0..<0
        if let scope = message.scope {
            header.append(UInt8(ascii: "("))
            scopeRange = header.count..<(header.count + scope.utf8.count)
            header += scope.utf8
            header.append(UInt8(ascii: ")"))
        }
        if message.hasBreakingMarker { header.append(UInt8(ascii: "!")) }
        header += ": ".utf8
        let descriptionStart = header.count
        header += message.description.utf8
        let bytes = Array(summary.utf8)
        guard bytes.count >= header.count, bytes.count <= Int(UInt16.max),
              bytes[(bytes.count - header.count)...].elementsEqual(header) else { return nil }
        let base = bytes.count - header.count
        // `feat:  x` has the description `x`: the header written back has one space, so it does not match above.
        return HeaderOffsets(typeStart: UInt16(base), typeEnd: UInt16(base + message.type.utf8.count),
                             scopeStart: UInt16(base + scopeRange.lowerBound), scopeEnd: UInt16(base + scopeRange.upperBound),
                             descriptionStart: UInt16(base + descriptionStart), bang: message.hasBreakingMarker)
    }
}

/// A whole conventional message, for the few the compact form cannot hold.
final class MessageBox: Hashable, Sendable {
    let message: ConventionalMessage
    init(_ message: ConventionalMessage) { self.message = message }
    static func == (lhs: MessageBox, rhs: MessageBox) -> Bool { lhs.message == rhs.message }
    func hash(into hasher: inout Hasher) { hasher.combine(message) }
}
