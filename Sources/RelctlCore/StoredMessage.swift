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
            let utf8 = summary.utf8
            func part(_ start: UInt16, _ end: Int) -> String {
                let from = utf8.index(utf8.startIndex, offsetBy: Int(start))
                return String(decoding: utf8[from..<utf8.index(utf8.startIndex, offsetBy: end)], as: UTF8.self)
            }
            let description = part(o.descriptionStart, utf8.count)
            return ConventionalMessage(type: part(o.typeStart, Int(o.typeEnd)),
                                       scope: o.scopeStart == o.scopeEnd ? nil : part(o.scopeStart, Int(o.scopeEnd)),
                                       hasBreakingMarker: o.bang, description: description,
                                       breakingChanges: o.bang ? [description] : [])
        }
    }

    /// The header's offsets when the summary ends with `type(scope)!: description` exactly as the message holds
    /// it (the summary of a fixup analyzed as its target starts with the `fixup! ` prefixes); else nil. Compared in
    /// place: no array is made.
    private static func offsets(of message: ConventionalMessage, in summary: String) -> HeaderOffsets? {
        let type = message.type.utf8, description = message.description.utf8, scope = message.scope?.utf8
        let length = type.count + (scope.map { $0.count + 2 } ?? 0) + (message.hasBreakingMarker ? 1 : 0) + 2
            + description.count
        let utf8 = summary.utf8
        let total = utf8.count
        guard total >= length, total <= Int(UInt16.max) else { return nil }
        let base = total - length
        var index = utf8.index(utf8.startIndex, offsetBy: base)
        var position = base
        func matches(_ bytes: some Sequence<UInt8>) -> Bool {
            for byte in bytes {
                guard utf8[index] == byte else { return false }
                index = utf8.index(after: index)
                position += 1
            }
            return true
        }
        guard matches(type) else { return nil }
        let typeEnd = position
        var scopeStart = position, scopeEnd = position
        if let scope {
            guard matches(CollectionOfOne(UInt8(ascii: "("))) else { return nil }
            scopeStart = position
            guard matches(scope) else { return nil }
            scopeEnd = position
            guard matches(CollectionOfOne(UInt8(ascii: ")"))) else { return nil }
        }
        if message.hasBreakingMarker { guard matches(CollectionOfOne(UInt8(ascii: "!"))) else { return nil } }
        guard matches(": ".utf8) else { return nil }
        let descriptionStart = position
        guard matches(description) else { return nil }
        // `feat:  x` has the description `x`: the header written back has one space, so it does not match above.
        return HeaderOffsets(typeStart: UInt16(base), typeEnd: UInt16(typeEnd),
                             scopeStart: UInt16(scopeStart), scopeEnd: UInt16(scopeEnd),
                             descriptionStart: UInt16(descriptionStart), bang: message.hasBreakingMarker)
    }
}

/// A whole conventional message, for the few the compact form cannot hold.
final class MessageBox: Hashable, Sendable {
    let message: ConventionalMessage
    init(_ message: ConventionalMessage) { self.message = message }
    static func == (lhs: MessageBox, rhs: MessageBox) -> Bool { lhs.message == rhs.message }
    func hash(into hasher: inout Hasher) { hasher.combine(message) }
}
