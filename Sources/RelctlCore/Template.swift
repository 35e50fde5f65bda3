/// A value a ``Template`` renders: the data of a changelog section or a store note (see the README's "Templates").
public indirect enum TemplateValue: Hashable, Sendable {
    case string(String)
    case bool(Bool)
    case list([TemplateValue])
    case object([String: TemplateValue])
    case null

    /// Falsey values leave a section out (and an inverted section in): `false`, null, an empty list and an empty
    /// string (so `{{#scope}}…{{/scope}}` is left out for a commit without a scope).
    var isFalsey: Bool {
        switch self {
        case .bool(let flag): return !flag
        case .null: return true
        case .list(let items): return items.isEmpty
        case .string(let text): return text.isEmpty
        case .object: return false
        }
    }

    /// How a variable tag writes the value: strings as they are, booleans `true`/`false`, anything else nothing.
    var text: String {
        switch self {
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .list, .object, .null: return ""
        }
    }
}

/// relctl's template language: a subset of Mustache (https://mustache.github.io/mustache.5.html).
///
/// - `{{name}}` writes a value; `{{{name}}}` and `{{& name}}` too. There is no HTML escaping: the output is Markdown
///   or plain text, where `<`, `&` and quotes are text (`{{x}}` and `{{{x}}}` write the same).
/// - `{{#name}}…{{/name}}` renders its content once per item of a list (each item the context), once with an object
///   as the context, once for any other truthy value; not at all for a falsey one (false, null, empty list, empty
///   string). `{{^name}}…{{/name}}` renders its content only for a falsey value.
/// - `{{! comment }}` writes nothing. Names are looked up from the innermost context outwards; dotted names
///   (`a.b.c`) look up `a` so, then `b` in it, then `c`; `{{.}}` is the current item.
/// - Standalone lines: a line holding only a section, inverted-section, closing or comment tag (and spaces or tabs)
///   is removed whole, with its line break.
/// - Not supported (an error naming the tag): partials `{{> x}}`, set delimiters `{{=<% %>=}}`.
public struct Template: Hashable, Sendable {
    indirect enum Node: Hashable, Sendable {
        case text(String)
        case variable(name: String)
        case section(name: String, inverted: Bool, children: [Node])
    }

    let nodes: [Node]

    /// Parses `source`, read from `path`; a ``Problem`` says where it is wrong (`path:line:column: message`, the line
    /// and column 1-based, in characters) and what, with the fix.
    public init(_ source: String, path: String = "template") throws(Problem) {
        var parser = Parser(source: Array(source.unicodeScalars), path: path)
        nodes = try parser.parse()
    }

    /// Whether a tag of the template names `name` (`{{name}}`, `{{#name}}`, `{{^name}}`, or `name.x`): `authors` is
    /// asked of the forge only when a template uses it.
    public func uses(_ name: String) -> Bool {
        func scan(_ nodes: [Node]) -> Bool {
            nodes.contains { node in
                switch node {
                case .text: return false
                case .variable(let used): return used == name || used.hasPrefix(name + ".")
                case .section(let used, _, let children): return used == name || used.hasPrefix(name + ".") || scan(children)
                }
            }
        }
        return scan(nodes)
    }

    /// `data` rendered.
    public func render(_ data: TemplateValue) -> String {
        var out = ""
        Self.render(nodes, stack: [data], into: &out)
        return out
    }

    private static func render(_ nodes: [Node], stack: [TemplateValue], into out: inout String) {
        for node in nodes {
            switch node {
            case .text(let text):
                out += text
            case .variable(let name):
                out += lookup(name, in: stack).text
            case .section(let name, let inverted, let children):
                let value = lookup(name, in: stack)
                if inverted {
                    if value.isFalsey { render(children, stack: stack, into: &out) }
                    continue
                }
                if value.isFalsey { continue }
                if case .list(let items) = value {
                    for item in items { render(children, stack: stack + [item], into: &out) }
                } else {
                    render(children, stack: stack + [value], into: &out)
                }
            }
        }
    }

    static func lookup(_ name: String, in stack: [TemplateValue]) -> TemplateValue {
        if name == "." { return stack.last ?? .null }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var value: TemplateValue?
        for context in stack.reversed() {
            if case .object(let members) = context, let found = members[parts[0]] {
                value = found
                break
            }
        }
        guard var current = value else { return .null }
        for part in parts.dropFirst() {
            guard case .object(let members) = current, let next = members[part] else { return .null }
            current = next
        }
        return current
    }

    // MARK: Parsing

    struct Parser {
        let source: [Unicode.Scalar]
        /// Where the source was read from, for the location of an error.
        let path: String
        var index = 0

        /// A tag as read: its kind (`#`, `^`, `/`, `!`, `&`, `{`, or nil for a variable), name, and where it sits.
        struct Tag {
            var kind: Unicode.Scalar?
            var name: String
            var start: Int
            var end: Int
        }

        enum Token {
            case text(Int, Int)
            case tag(Tag)
        }

        mutating func parse() throws(Problem) -> [Node] {
            let tokens = try tokenize()
            let trimmed = removeStandaloneLines(tokens)
            var position = 0
            let nodes = try build(trimmed, &position, open: nil)
            return nodes
        }

        func location(_ offset: Int) -> (line: Int, column: Int) {
            var line = 1
            var column = 1
            for scalar in source[..<min(offset, source.count)] {
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            }
            return (line, column)
        }

        func error(_ offset: Int, _ message: String) -> Problem {
            let (line, column) = location(offset)
            return Problem(message, at: DiagnosticLocation(path: path, line: line, column: column))
        }

        func starts(_ text: String, at offset: Int) -> Bool {
            let scalars = Array(text.unicodeScalars)
            guard offset + scalars.count <= source.count else { return false }
            return Array(source[offset..<(offset + scalars.count)]) == scalars
        }

        mutating func tokenize() throws(Problem) -> [Token] {
            var tokens: [Token] = []
            var textStart = 0
            while index < source.count {
                guard starts("{{", at: index) else { index += 1; continue }
                if textStart < index { tokens.append(.text(textStart, index)) }
                let start = index
                var kind: Unicode.Scalar? = index + 2 < source.count ? source[index + 2] : nil
                if let k = kind, !["#", "^", "/", "!", "&", "{", ">", "="].contains(k) { kind = nil }
                let close = kind == "{" ? "}}}" : "}}"
                var end = index + 2
                while end < source.count, !starts(close, at: end) { end += 1 }
                guard end < source.count else {
                    throw error(start, "unclosed tag '\(String(String.UnicodeScalarView(source[start..<min(start + 12, source.count)])))'; end it with \(close)")
                }
                let inner = source[(start + 2 + (kind == nil ? 0 : 1))..<end]
                let name = String(String.UnicodeScalarView(inner)).trimmingASCIIWhitespace()
                index = end + close.unicodeScalars.count
                textStart = index
                if kind == ">" { throw error(start, "partials ({{> \(name)}}) are not supported; put the text in the template itself") }
                if kind == "=" { throw error(start, "changing the delimiters ({{=…=}}) is not supported; keep {{ and }}") }
                if kind != "!" {
                    guard !name.isEmpty else { throw error(start, "empty tag; write a name inside it, like {{version}}") }
                    let valid = name == "." || name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
                        !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
                    }
                    guard valid else { throw error(start, "'\(name)' is not a name; use letters, digits, '_' and '-', with dots between parts (commit.scope) or '.' for the current item") }
                }
                tokens.append(.tag(Tag(kind: kind, name: name, start: start, end: index)))
            }
            if textStart < source.count { tokens.append(.text(textStart, source.count)) }
            return tokens
        }

        /// Drops the whitespace and line break around a section, inverted, closing or comment tag alone on its line.
        func removeStandaloneLines(_ tokens: [Token]) -> [(start: Int, end: Int, tag: Tag?)] {
            var pieces: [(start: Int, end: Int, tag: Tag?)] = tokens.map {
                switch $0 {
                case .text(let s, let e): return (s, e, nil)
                case .tag(let tag): return (tag.start, tag.end, tag)
                }
            }
            for (position, piece) in pieces.enumerated() {
                guard let tag = piece.tag, let kind = tag.kind, ["#", "^", "/", "!"].contains(kind) else { continue }
                // The line's start: back over spaces and tabs to a line break or the start of the template.
                var lineStart = tag.start
                while lineStart > 0, source[lineStart - 1] == " " || source[lineStart - 1] == "\t" { lineStart -= 1 }
                guard lineStart == 0 || source[lineStart - 1] == "\n" else { continue }
                // Only spaces and tabs on either side up to the line breaks: no other tag can be on the line (a tag
                // ends with `}` and starts with `{`).
                var lineEnd = tag.end
                while lineEnd < source.count, source[lineEnd] == " " || source[lineEnd] == "\t" { lineEnd += 1 }
                if lineEnd < source.count, source[lineEnd] == "\r", lineEnd + 1 < source.count, source[lineEnd + 1] == "\n" { lineEnd += 2 }
                else if lineEnd < source.count, source[lineEnd] == "\n" { lineEnd += 1 }
                else if lineEnd != source.count { continue }
                // Cut the text before (from lineStart) and after (to lineEnd).
                if position > 0, pieces[position - 1].tag == nil, pieces[position - 1].end > lineStart {
                    pieces[position - 1].end = max(pieces[position - 1].start, lineStart)
                }
                if position + 1 < pieces.count, pieces[position + 1].tag == nil, pieces[position + 1].start < lineEnd {
                    pieces[position + 1].start = min(pieces[position + 1].end, lineEnd)
                }
            }
            return pieces
        }

        func build(_ pieces: [(start: Int, end: Int, tag: Tag?)], _ position: inout Int, open: Tag?) throws(Problem) -> [Node] {
            var nodes: [Node] = []
            while position < pieces.count {
                let piece = pieces[position]
                position += 1
                guard let tag = piece.tag else {
                    if piece.start < piece.end { nodes.append(.text(String(String.UnicodeScalarView(source[piece.start..<piece.end])))) }
                    continue
                }
                switch tag.kind {
                case "!":
                    continue
                case "#", "^":
                    let children = try build(pieces, &position, open: tag)
                    nodes.append(.section(name: tag.name, inverted: tag.kind == "^", children: children))
                case "/":
                    guard let open else {
                        throw error(tag.start, "{{/\(tag.name)}} closes no section; remove it, or open the section with {{#\(tag.name)}}")
                    }
                    guard open.name == tag.name else {
                        let (line, column) = location(open.start)
                        throw error(tag.start, "{{/\(tag.name)}} does not close {{\(open.kind.map { String($0) } ?? "#")\(open.name)}} (opened at \(line):\(column)); close that one first with {{/\(open.name)}}")
                    }
                    return nodes
                default:
                    nodes.append(.variable(name: tag.name))
                }
            }
            if let open {
                throw error(open.start, "section {{\(open.kind.map { String($0) } ?? "#")\(open.name)}} is never closed; add {{/\(open.name)}} where it ends")
            }
            return nodes
        }
    }
}
