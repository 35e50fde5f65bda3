import RelctlCore

/// Android `build.gradle` (Groovy) and `build.gradle.kts` (Kotlin DSL): `versionCode` (Android build) and
/// `versionName` (marketing) inside `android { defaultConfig { … } }` only. A tokenizer skips comments
/// and strings and tracks braces, so product flavors, build types and comments never match.
///
/// Accepted values: a literal (`versionCode 12`, `versionName = "1.2"`), or a simple reference to a
/// Gradle property (`project.property("X")`, `X.toInteger()`, `Integer.parseInt(X)`, …), which is
/// reported as an `.gradleProperty` indirection so the caller can edit `gradle.properties` instead.
/// A name the script declares itself (`def X = 12`, `val X = …`, `int X = …`, `ext.X = …`) is a script value,
/// never a Gradle property: it is reported as computed, like anything else (arithmetic, version catalogs,
/// `flutter.versionCode`), and refused when it must be written. The exception is a Kotlin property delegate
/// `val X[: T] by project` (or `by rootProject`, `by settings`), which reads the Gradle property `X`: `X`,
/// `X.toInt()` and `X.toInteger()` are reported as `.gradleProperty("X")`.
public struct GradleEditor: VersionEditor {
    public var kotlin: Bool?

    /// `kotlin: nil` decides from the path (`.kts`).
    public init(kotlin: Bool? = nil) {
        self.kotlin = kotlin
    }

    func language(_ path: String) -> CodeLanguage {
        (kotlin ?? path.hasSuffix(".kts")) ? .kotlin : .groovy
    }

    public func read(_ text: String, path: String) throws(FileEditError) -> [VersionLocation] {
        let t = ByteText(text)
        let lang = language(path)
        let tokens = try CodeTokenizer.tokenize(t, language: lang, path: path).tokens
        let declared = Self.declaredNames(tokens)
        let delegated = Self.gradlePropertyDelegates(tokens)
        var stack: [String] = []
        var result: [VersionLocation] = []
        var i = 0
        func previousSignificant(_ k: Int) -> CodeToken? {
            var j = k - 1
            while j >= 0 { if tokens[j].kind != .newline { return tokens[j] }; j -= 1 }
            return nil
        }
        while i < tokens.count {
            let tok = tokens[i]
            if tok.kind == .punctuation && tok.text == "{" {
                stack.append(blockName(tokens, before: i))
                i += 1
                continue
            }
            if tok.kind == .punctuation && tok.text == "}" {
                if !stack.isEmpty { stack.removeLast() }
                i += 1
                continue
            }
            guard stack == ["android", "defaultConfig"], tok.kind == .identifier,
                  tok.text == "versionCode" || tok.text == "versionName" else { i += 1; continue }
            let prev = i > 0 ? tokens[i - 1] : nil
            guard prev == nil || prev!.kind == .newline || prev!.text == "{" || prev!.text == ";" else { i += 1; continue }
            let field: VersionField = tok.text == "versionCode" ? .androidBuild : .marketing
            // Collect the value tokens.
            var j = i + 1
            var parenthesized = false
            if j < tokens.count && tokens[j].text == "=" && tokens[j].kind == .punctuation { j += 1 }
            else if j < tokens.count && tokens[j].text == "(" && tokens[j].kind == .punctuation { parenthesized = true; j += 1 }
            var value: [CodeToken] = []
            var depth = 0
            while j < tokens.count {
                let v = tokens[j]
                if v.kind == .punctuation && (v.text == "(" || v.text == "[") { depth += 1 }
                if v.kind == .punctuation && (v.text == ")" || v.text == "]") {
                    if depth == 0 { if parenthesized { j += 1 }; break }
                    depth -= 1
                }
                if depth == 0 && !parenthesized && (v.kind == .newline || v.text == ";" || v.text == "}") { break }
                if v.kind != .newline { value.append(v) }
                j += 1
            }
            _ = previousSignificant
            result.append(location(field: field, name: tok.text, value: value, line: tok.line, path: path, lang: lang, declared: declared,
                                   delegated: delegated))
            i = j
        }
        try refuseDuplicates(result, path: path) { "\($0 == .marketing ? "versionName" : "versionCode") in android { defaultConfig { … } }" }
        return result
    }

    /// The name of the block a `{` opens: `defaultConfig {`, `create("free") {`, `release {`.
    func blockName(_ tokens: [CodeToken], before index: Int) -> String {
        var j = index - 1
        while j >= 0 && tokens[j].kind == .newline { j -= 1 }
        guard j >= 0 else { return "" }
        if tokens[j].kind == .identifier { return tokens[j].text }
        if tokens[j].text == ")" {
            var depth = 0
            while j >= 0 {
                if tokens[j].text == ")" { depth += 1 }
                if tokens[j].text == "(" { depth -= 1; if depth == 0 { break } }
                j -= 1
            }
            if j > 0 && tokens[j - 1].kind == .identifier { return tokens[j - 1].text + "()" }
        }
        return ""
    }

    /// The names declared as Gradle property delegates: `val X by project`, `val X: String by rootProject`,
    /// `val X: String? by settings`. Such a name reads the Gradle property `X` (gradle.properties).
    /// Other delegates (`by extra`, `by project.extra`, `by lazy { … }`) are script values.
    static func gradlePropertyDelegates(_ tokens: [CodeToken]) -> Set<String> {
        var names: Set<String> = []
        for k in tokens.indices where tokens[k].kind == .identifier && (tokens[k].text == "val" || tokens[k].text == "var") {
            if let name = delegatedName(tokens, declaredAt: k) { names.insert(name) }
        }
        return names
    }

    /// The name of `val X[: T] by project|rootProject|settings` whose keyword is at `k`, nil for any other declaration.
    static func delegatedName(_ tokens: [CodeToken], declaredAt k: Int) -> String? {
        guard k + 1 < tokens.count, tokens[k + 1].kind == .identifier else { return nil }
        var j = k + 2
        func skipNewlines() { while j < tokens.count && tokens[j].kind == .newline { j += 1 } }
        skipNewlines()
        if j < tokens.count, tokens[j].kind == .punctuation, tokens[j].text == ":" {
            j += 1
            // The type: `String`, `String?`, `kotlin.String`, `Provider<String>`.
            while j < tokens.count, tokens[j].text != "by",
                  tokens[j].kind == .identifier || tokens[j].kind == .newline
                    || (tokens[j].kind == .punctuation && [".", "?", "<", ">", ","].contains(tokens[j].text)) { j += 1 }
        }
        guard j + 1 < tokens.count, tokens[j].kind == .identifier, tokens[j].text == "by",
              tokens[j + 1].kind == .identifier, ["project", "rootProject", "settings"].contains(tokens[j + 1].text) else { return nil }
        let end = j + 2 < tokens.count ? tokens[j + 2] : nil
        guard end == nil || end!.kind == .newline || end!.text == ";" || end!.text == "}" else { return nil }
        return tokens[k + 1].text
    }

    /// Names the script declares itself, with the line: `def X`, `val X`, `var X`, a typed `int X =` /
    /// `String X =`, and extra properties `ext.X =` / `ext { X = … }`. Such a name is a script value, never a
    /// `gradle.properties` entry. A Gradle property delegate (`val X by project`) is not one: see `gradlePropertyDelegates`.
    static func declaredNames(_ tokens: [CodeToken]) -> [String: Int] {
        let keywords: Set<String> = ["def", "val", "var"]
        let types: Set<String> = ["int", "Integer", "long", "Long", "String", "Int", "short", "byte", "double", "float", "final"]
        var names: [String: Int] = [:]
        var extDepth: Int? = nil
        var depth = 0
        func next(_ k: Int) -> CodeToken? {
            var j = k + 1
            while j < tokens.count { if tokens[j].kind != .newline { return tokens[j] }; j += 1 }
            return nil
        }
        for (k, tok) in tokens.enumerated() {
            if tok.kind == .punctuation && tok.text == "{" {
                if k > 0, tokens[k - 1].text == "ext" || (k > 1 && tokens[k - 1].kind == .newline && tokens[k - 2].text == "ext") {
                    extDepth = extDepth ?? depth
                }
                depth += 1
                continue
            }
            if tok.kind == .punctuation && tok.text == "}" {
                depth -= 1
                if extDepth == depth { extDepth = nil }
                continue
            }
            guard tok.kind == .identifier, k + 1 < tokens.count else { continue }
            let name = tokens[k + 1]
            if keywords.contains(tok.text) || types.contains(tok.text), name.kind == .identifier, names[name.text] == nil {
                if keywords.contains(tok.text) ? delegatedName(tokens, declaredAt: k) == nil : next(k + 1)?.text == "=" {
                    names[name.text] = name.line
                }
            }
            if tok.text == "ext", name.text == ".", k + 2 < tokens.count, tokens[k + 2].kind == .identifier,
               next(k + 2)?.text == "=" {
                names[tokens[k + 2].text] = names[tokens[k + 2].text] ?? tokens[k + 2].line
            }
            if extDepth != nil, extDepth == depth - 1, next(k)?.text == "=", k == 0 || tokens[k - 1].kind == .newline
                || tokens[k - 1].text == "{" || tokens[k - 1].text == ";" {
                names[tok.text] = names[tok.text] ?? tok.line
            }
        }
        return names
    }

    func location(field: VersionField, name: String, value: [CodeToken], line: Int, path: String, lang: CodeLanguage,
                  declared: [String: Int] = [:], delegated: Set<String> = []) -> VersionLocation {
        let range = (value.first?.range.lowerBound ?? 0)..<(value.last?.range.upperBound ?? 0)
        if value.count == 1 {
            let v = value[0]
            if field == .androidBuild && v.kind == .number {
                return VersionLocation(field: field, value: v.text, line: line, range: v.range, isNumber: true, context: name)
            }
            if field == .marketing && v.isLiteralString {
                return VersionLocation(field: field, value: v.text, line: line, range: v.range, isNumber: false, context: name)
            }
        }
        // `val X by project`: `X` and `X.toInt()` read the Gradle property X.
        if let delegate = value.first(where: { $0.kind == .identifier && delegated.contains($0.text) && declared[$0.text] == nil }),
           (value.count == 1 || Self.isBareName(value, delegate.text)) {
            return VersionLocation(field: field, value: value.map(\.text).joined(), line: line, range: range,
                                   indirection: .gradleProperty(delegate.text), context: name)
        }
        let variable = value.first(where: { $0.kind == .identifier && declared[$0.text] != nil && Self.isBareName(value, $0.text) })
        if variable == nil, let property = Self.propertyReference(value, groovy: lang == .groovy) {
            return VersionLocation(field: field, value: value.map(\.text).joined(), line: line, range: range,
                                   indirection: .gradleProperty(property), context: name)
        }
        let texts = value.map(\.text)
        let hint: String
        if texts.contains(where: { $0.hasPrefix("flutter") }) {
            hint = "the value comes from pubspec.yaml; use a pubspec entry instead of this Gradle file"
        } else if texts.first == "libs" {
            hint = "the value comes from a version catalog; use a regex entry for gradle/libs.versions.toml"
        } else if let variable {
            hint = "\(variable.text) is a variable declared on line \(declared[variable.text]!) of this script, not a Gradle property; write the literal in \(name), or point a regex entry at that line"
        } else if value.isEmpty {
            hint = "write a literal, e.g. \(name) \(field == .marketing ? "\"1.0.0\"" : "1")"
        } else {
            hint = "write a literal, or read it from gradle.properties with project.property(\"\(field == .marketing ? "VERSION_NAME" : "VERSION_CODE")\") and add a properties entry"
        }
        let shown = value.isEmpty ? "nothing" : String(texts.joined(separator: " ").prefix(60))
        return VersionLocation(field: field, value: shown, line: line, range: range,
                               indirection: .computed(expression: shown, hint: hint), context: name)
    }

    /// Whether `value` is `name` alone or with a conversion (`name.toInteger()`, `Integer.parseInt(name)`), as
    /// opposed to an explicit `project.property("name")`.
    static func isBareName(_ value: [CodeToken], _ name: String) -> Bool {
        guard let reference = propertyReference(value, groovy: true), reference == name else { return false }
        return !value.contains(where: { $0.isString }) && !(value.count >= 3 && ["project", "rootProject"].contains(value[0].text))
    }

    /// `project.property("X")`, `project.findProperty("X")`, `providers.gradleProperty("X").get()`, `project.X`,
    /// `X.toInteger()`, `X as Integer`, `Integer.parseInt(X)`, `Integer.valueOf(X)`, and (Groovy) a bare
    /// ALL_CAPS property name → `X`.
    static func propertyReference(_ value: [CodeToken], groovy: Bool) -> String? {
        var v = value.map { ($0.isString ? "\u{1}" + $0.text : $0.text, $0.isLiteralString || !$0.isString) }
        guard v.allSatisfy(\.1) else { return nil }
        var texts = v.map(\.0)
        var converted = false
        var changed = true
        while changed {
            changed = false
            for suffix in [[".", "toInteger", "(", ")"], [".", "toInt", "(", ")"], [".", "toString", "(", ")"], [".", "get", "(", ")"]]
            where texts.count > suffix.count && Array(texts.suffix(suffix.count)) == suffix {
                texts.removeLast(suffix.count); converted = true; changed = true
            }
            if texts.count > 2, texts[texts.count - 2] == "as", ["Integer", "int", "String"].contains(texts.last!) {
                texts.removeLast(2); converted = true; changed = true
            }
            if texts.count >= 5, texts[0] == "Integer", texts[1] == ".", ["parseInt", "valueOf"].contains(texts[2]),
               texts[3] == "(", texts.last == ")" {
                texts = Array(texts[4..<(texts.count - 1)]); converted = true; changed = true
            }
        }
        v = []
        func isName(_ s: String) -> Bool { !s.hasPrefix("\u{1}") && (s.first?.isLetter == true || s.first == "_") }
        func str(_ s: String) -> String? { s.hasPrefix("\u{1}") ? String(s.dropFirst()) : nil }
        switch texts.count {
        case 1 where isName(texts[0]):
            let name = texts[0]
            if converted || (groovy && name.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" })) { return name }
            return nil
        case 3 where ["project", "rootProject"].contains(texts[0]) && texts[1] == "." && isName(texts[2]):
            return texts[2]
        case 4 where ["property", "findProperty"].contains(texts[0]) && texts[1] == "(" && texts[3] == ")":
            return str(texts[2])
        case 6 where ["project", "providers"].contains(texts[0]) && texts[1] == "."
            && ["property", "findProperty", "gradleProperty"].contains(texts[2]) && texts[3] == "(" && texts[5] == ")":
            return str(texts[4])
        default:
            return nil
        }
    }

    public func edits(_ text: String, path: String, target: VersionTarget) throws(FileEditError) -> [TextEdit] {
        let locations = try read(text, path: path)
        try requireFields(locations, target: target, fields: [.marketing, .androidBuild], path: path) {
            "\($0 == .marketing ? "versionName" : "versionCode") in android { defaultConfig { … } }"
        }
        try refuseComputed(locations, target: target, path: path)
        let bytes = Array(text.utf8)
        var edits: [TextEdit] = []
        for location in locations where location.indirection == nil {
            guard let newValue = target.value(for: location.field), newValue != location.value else { continue }
            if location.field == .androidBuild {
                guard isAllDigits(newValue) else {
                    throw FileEditError(path: path, line: location.line, message: "versionCode must be an integer, got \"\(newValue)\"")
                }
                edits.append(TextEdit(range: location.range, replacement: newValue))
            } else {
                let raw = String(decoding: bytes[location.range], as: UTF8.self)
                let quote = raw.hasPrefix("\"\"\"") ? "\"\"\"" : raw.hasPrefix("'''") ? "'''" : String(raw.prefix(1))
                edits.append(TextEdit(range: location.range, replacement: CodeTokenizer.literal(newValue, quote: quote, language: language(path))))
            }
        }
        return edits
    }
}
