/// What a Gradle `versionCode` / `versionName` value expression reads, recognised from its tokens: a Gradle property,
/// a version catalog entry, an environment variable, or a literal fallback behind one of them (`X ?: 12`).
/// Anything else is computed.
enum GradleExpression {
    /// The token texts with conversions and wrappers peeled off: `.toInt()`, `.toInteger()`, `.toString()`,
    /// `.get()`, `as Integer`, `as String?`, `Integer.parseInt(…)`, `Integer.valueOf(…)`, safe-call `?`, and
    /// parentheses around the whole. A string token is marked with a leading U+0001 so `"X"` and `X` differ.
    /// `converted` tells whether anything was peeled (a bare name alone is not a reference in Kotlin).
    static func peeled(_ value: [CodeToken]) -> (texts: [String], converted: Bool)? {
        guard value.allSatisfy({ $0.isLiteralString || !$0.isString }) else { return nil }
        var texts = value.filter { !($0.kind == .punctuation && $0.text == "?") }.map { $0.isString ? "\u{1}" + $0.text : $0.text }
        var converted = texts.count != value.count
        var changed = true
        while changed {
            changed = false
            for suffix in [[".", "toInteger", "(", ")"], [".", "toInt", "(", ")"], [".", "toString", "(", ")"], [".", "get", "(", ")"]]
            where texts.count > suffix.count && Array(texts.suffix(suffix.count)) == suffix {
                texts.removeLast(suffix.count); converted = true; changed = true
            }
            if texts.count > 2, texts[texts.count - 2] == "as", ["Integer", "int", "String", "Int"].contains(texts.last!) {
                texts.removeLast(2); converted = true; changed = true
            }
            if texts.count >= 5, texts[0] == "Integer", texts[1] == ".", ["parseInt", "valueOf"].contains(texts[2]),
               texts[3] == "(", texts.last == ")" {
                texts = Array(texts[4..<(texts.count - 1)]); converted = true; changed = true
            }
            if texts.count >= 2, texts.first == "(", texts.last == ")", closingParen(texts, 0) == texts.count - 1 {
                texts = Array(texts[1..<(texts.count - 1)]); changed = true
            }
        }
        return (texts, converted)
    }

    /// The index of the `)` matching the `(` at `open`.
    static func closingParen(_ texts: [String], _ open: Int) -> Int? {
        var depth = 0
        for k in open..<texts.count {
            if texts[k] == "(" { depth += 1 }
            if texts[k] == ")" { depth -= 1; if depth == 0 { return k } }
        }
        return nil
    }

    static func isName(_ s: String) -> Bool { !s.hasPrefix("\u{1}") && (s.first?.isLetter == true || s.first == "_") }
    static func string(_ s: String) -> String? { s.hasPrefix("\u{1}") ? String(s.dropFirst()) : nil }

    /// `project.property("X")`, `project.findProperty("X")`, `findProperty("X")`, `providers.gradleProperty("X").get()`,
    /// `project.X`, `X.toInteger()`, `X as Integer`, `Integer.parseInt(X)`, `Integer.valueOf(X)`,
    /// `(project.findProperty("X") as String?)?.toInt()`, and (Groovy) a bare ALL_CAPS property name → `X`.
    static func propertyReference(_ value: [CodeToken], groovy: Bool) -> String? {
        guard let (texts, converted) = peeled(value) else { return nil }
        switch texts.count {
        case 1 where isName(texts[0]):
            let name = texts[0]
            if converted || (groovy && name.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" })) { return name }
            return nil
        case 3 where ["project", "rootProject"].contains(texts[0]) && texts[1] == "." && isName(texts[2]):
            return texts[2]
        case 4 where ["property", "findProperty"].contains(texts[0]) && texts[1] == "(" && texts[3] == ")":
            return string(texts[2])
        case 6 where ["project", "providers", "rootProject"].contains(texts[0]) && texts[1] == "."
            && ["property", "findProperty", "gradleProperty"].contains(texts[2]) && texts[3] == "(" && texts[5] == ")":
            return string(texts[4])
        default:
            return nil
        }
    }

    /// `libs.versions.app.version.get()` (with any conversion) → `app.version`, the alias as the script spells it.
    static func catalogAlias(_ value: [CodeToken]) -> String? {
        guard let (texts, _) = peeled(value), texts.count >= 5, texts[0] == "libs", texts[1] == ".", texts[2] == "versions" else { return nil }
        var parts: [String] = []
        var k = 3
        while k < texts.count {
            guard texts[k] == ".", k + 1 < texts.count, isName(texts[k + 1]) else { return nil }
            parts.append(texts[k + 1])
            k += 2
        }
        return parts.isEmpty ? nil : parts.joined(separator: ".")
    }

    /// `System.getenv("X")` (with any conversion) → `X`.
    static func environmentVariable(_ value: [CodeToken]) -> String? {
        guard let (texts, _) = peeled(value), texts.count == 6, texts[0] == "System", texts[1] == ".", texts[2] == "getenv",
              texts[3] == "(", texts[5] == ")" else { return nil }
        return string(texts[4])
    }

    /// A literal fallback: `A ?: 12`, `(A ?: "12").toInt()`, `A.getOrElse("1.0")`, `A.orElse(12)`, or Groovy's
    /// `cond ? A : 12`, where `A` is what wins when it is set. The literal must be the last value of the
    /// expression (only closing parentheses and conversions may follow it).
    static func fallback(_ value: [CodeToken]) -> (primary: [CodeToken], literal: CodeToken)? {
        guard let literalIndex = value.lastIndex(where: { $0.kind == .number || $0.isLiteralString }) else { return nil }
        // Only `)` and conversions after the literal.
        let after = value[(literalIndex + 1)...].map(\.text)
        var rest = ArraySlice(after)
        while let first = rest.first {
            if first == ")" { rest = rest.dropFirst(); continue }
            if rest.starts(with: [".", "toInt", "(", ")"]) || rest.starts(with: [".", "toInteger", "(", ")"])
                || rest.starts(with: [".", "toString", "(", ")"]) { rest = rest.dropFirst(4); continue }
            if rest.starts(with: ["as"]), rest.count >= 2 { rest = rest.dropFirst(2); continue }
            return nil
        }
        guard literalIndex >= 1 else { return nil }
        let before = value[literalIndex - 1]
        // `?:` (two adjacent tokens), or the `:` of a ternary.
        if before.text == ":", literalIndex >= 2, value[literalIndex - 2].text == "?",
           value[literalIndex - 2].range.upperBound == before.range.lowerBound {
            var primary = Array(value[..<(literalIndex - 2)])
            // `(A ?: "12")`: drop the `(` that opens the pair.
            var unmatched: [Int] = []
            for (k, token) in primary.enumerated() where token.kind == .punctuation {
                if token.text == "(" { unmatched.append(k) }
                if token.text == ")", !unmatched.isEmpty { unmatched.removeLast() }
            }
            if let open = unmatched.last { primary = Array(primary[(open + 1)...]) }
            return primary.isEmpty ? nil : (primary, value[literalIndex])
        }
        if before.text == ":" {
            // `cond ? A : 12`: A is between the `?` and the `:`.
            guard let question = value[..<(literalIndex - 1)].lastIndex(where: { $0.text == "?" }) else { return nil }
            let primary = Array(value[(question + 1)..<(literalIndex - 1)])
            return primary.isEmpty ? nil : (primary, value[literalIndex])
        }
        if before.text == "(", literalIndex >= 3, ["getOrElse", "orElse", "getOrDefault"].contains(value[literalIndex - 2].text),
           value[literalIndex - 3].text == "." {
            let primary = Array(value[..<(literalIndex - 3)])
            return primary.isEmpty ? nil : (primary, value[literalIndex])
        }
        return nil
    }
}
