import Foundation

/// Just enough YAML for the CI recipes in the README: block mappings and sequences by indentation, plain and
/// quoted scalars, `|` literal blocks, comments. Not a YAML parser for anything else: the recipes are written in
/// this subset, and a recipe it cannot read fails the test that reads it.
indirect enum MiniYAML: Equatable {
    case scalar(String)
    case sequence([MiniYAML])
    case mapping([(String, MiniYAML)])

    static func == (lhs: MiniYAML, rhs: MiniYAML) -> Bool { "\(lhs)" == "\(rhs)" }

    struct ParseError: Error, CustomStringConvertible { let description: String }

    subscript(_ key: String) -> MiniYAML? {
        guard case .mapping(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }
    var string: String? { if case .scalar(let s) = self { return s } else { return nil } }
    var items: [MiniYAML] { if case .sequence(let items) = self { return items } else { return [] } }
    var members: [(String, MiniYAML)] { if case .mapping(let members) = self { return members } else { return [] } }

    static func parse(_ text: String) throws -> MiniYAML {
        var parser = Parser(lines: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        return try parser.block(indent: 0)
    }

    private struct Parser {
        let lines: [String]
        var index = 0

        init(lines: [String]) { self.lines = lines }

        static func indentation(_ line: String) -> Int { line.prefix { $0 == " " }.count }
        static func isBlank(_ line: String) -> Bool {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty || trimmed.hasPrefix("#")
        }

        mutating func skipBlank() { while index < lines.count, Self.isBlank(lines[index]) { index += 1 } }

        /// The block starting at the next line indented `indent` or more.
        mutating func block(indent: Int) throws -> MiniYAML {
            skipBlank()
            guard index < lines.count else { return .scalar("") }
            let column = Self.indentation(lines[index])
            guard column >= indent else { return .scalar("") }
            let content = lines[index].dropFirst(column)
            return content.hasPrefix("- ") || content == "-" ? try sequence(column) : try mapping(column)
        }

        mutating func sequence(_ column: Int) throws -> MiniYAML {
            var items: [MiniYAML] = []
            while true {
                skipBlank()
                guard index < lines.count, Self.indentation(lines[index]) == column,
                      lines[index].dropFirst(column).hasPrefix("-") else { break }
                let rest = String(lines[index].dropFirst(column + 1)).drop { $0 == " " }
                if rest.isEmpty {
                    index += 1
                    items.append(try block(indent: column + 1))
                } else if Self.keyValue(String(rest)) != nil {
                    // `- key: value` starts a mapping whose keys line up after the dash.
                    let inner = column + (lines[index].dropFirst(column).count - rest.count)
                    var replaced = lines
                    replaced[index] = String(repeating: " ", count: inner) + rest
                    var sub = Parser(lines: replaced)
                    sub.index = index
                    items.append(try sub.mapping(inner))
                    index = sub.index
                } else {
                    items.append(.scalar(try Self.scalar(String(rest))))
                    index += 1
                }
            }
            return .sequence(items)
        }

        mutating func mapping(_ column: Int) throws -> MiniYAML {
            var members: [(String, MiniYAML)] = []
            while true {
                skipBlank()
                guard index < lines.count, Self.indentation(lines[index]) == column else { break }
                let content = String(lines[index].dropFirst(column))
                if content.hasPrefix("- ") { break }
                guard let (key, value) = Self.keyValue(content) else {
                    throw ParseError(description: "line \(index + 1): not 'key: value': \(content)")
                }
                index += 1
                if value.isEmpty {
                    members.append((key, try block(indent: column + 1)))
                } else if value == "|" {
                    members.append((key, .scalar(literal(column))))
                } else {
                    members.append((key, .scalar(try Self.scalar(value))))
                }
            }
            return .mapping(members)
        }

        /// The lines of a `|` block: indented more than its key, the common indentation removed, ending in `\n`.
        mutating func literal(_ column: Int) -> String {
            var body: [String] = []
            var blockIndent: Int?
            while index < lines.count {
                let line = lines[index]
                if line.trimmingCharacters(in: .whitespaces).isEmpty { body.append(""); index += 1; continue }
                let indent = Self.indentation(line)
                guard indent > column else { break }
                if blockIndent == nil { blockIndent = indent }
                body.append(String(line.dropFirst(min(indent, blockIndent!))))
                index += 1
            }
            while body.last == "" { body.removeLast() }
            return body.joined(separator: "\n") + "\n"
        }

        /// `key: value` (the value may be empty); nil when the line is no mapping entry.
        static func keyValue(_ content: String) -> (String, String)? {
            guard let colon = content.range(of: ": ") ?? (content.hasSuffix(":") ? content.range(of: ":", options: .backwards) : nil) else {
                return nil
            }
            let key = String(content[..<colon.lowerBound])
            guard !key.isEmpty, !key.contains(" ") || key.hasPrefix("\"") else { return nil }
            return (key, String(content[colon.upperBound...]).trimmingCharacters(in: .whitespaces))
        }

        /// A scalar: quoted (`"…"`, `'…'`) or plain, a trailing ` # comment` removed.
        static func scalar(_ text: String) throws -> String {
            let text = text.trimmingCharacters(in: .whitespaces)
            if let quote = text.first, quote == "\"" || quote == "'" {
                var value = ""
                var iterator = text.dropFirst().makeIterator()
                var closed = false
                while let c = iterator.next() {
                    if c == quote {
                        if quote == "'" { var copy = iterator; if copy.next() == "'" { value.append("'"); iterator = copy; continue } }
                        closed = true
                        break
                    }
                    if quote == "\"", c == "\\", let next = iterator.next() { value.append(next == "n" ? "\n" : next); continue }
                    value.append(c)
                }
                guard closed else { throw ParseError(description: "unterminated quote: \(text)") }
                return value
            }
            if let comment = text.range(of: " #") { return String(text[..<comment.lowerBound]).trimmingCharacters(in: .whitespaces) }
            return text
        }
    }
}
