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
        let script = Script(bytes: t.bytes, language: lang, declared: Self.declaredNames(tokens),
                            delegated: Self.gradlePropertyDelegates(tokens),
                            propertiesFile: tokens.first(where: { $0.isLiteralString && Self.isVersionPropertiesFile($0.text) })?.text)
        var stack: [[String]] = []
        var defaults: [VersionLocation] = []
        var overrides: [VersionLocation] = []
        var i = 0
        func isPunctuation(_ k: Int, _ text: String) -> Bool {
            k >= 0 && k < tokens.count && tokens[k].kind == .punctuation && tokens[k].text == text
        }
        while i < tokens.count {
            let tok = tokens[i]
            if tok.kind == .punctuation && tok.text == "{" {
                stack.append(GradleBlockPath.names(tokens, openingAt: i))
                i += 1
                continue
            }
            if tok.kind == .punctuation && tok.text == "}" {
                if !stack.isEmpty { stack.removeLast() }
                i += 1
                continue
            }
            guard tok.kind == .identifier, tok.text == "versionCode" || tok.text == "versionName" else { i += 1; continue }
            // The dotted receiver before the name: `android.defaultConfig.versionCode`, `output.versionCode`.
            var chain: [String] = []
            var first = i
            while first >= 2, isPunctuation(first - 1, "."), tokens[first - 2].kind == .identifier {
                chain.insert(tokens[first - 2].text, at: 0)
                first -= 2
            }
            let prev = first > 0 ? tokens[first - 1] : nil
            let statementStart = prev == nil || prev!.kind == .newline || prev!.text == "{" || prev!.text == ";"
            let scope = stack.flatMap { $0 } + chain
            let field: VersionField = tok.text == "versionCode" ? .androidBuild : .marketing
            var j = i + 1
            var parenthesized = false
            let context: String
            let isDefault = statementStart && Array(scope.suffix(2)) == ["android", "defaultConfig"]
            if isDefault {
                // `versionCode 12`, `versionCode = 12`, `versionCode(12)`
                context = tok.text
                if isPunctuation(j, "=") { j += 1 } else if isPunctuation(j, "(") { parenthesized = true; j += 1 }
            } else if scope.contains("androidComponents"), isPunctuation(i - 1, ".") || statementStart,
                      isPunctuation(j, "=") || (isPunctuation(j, ".") && j + 2 < tokens.count && tokens[j + 1].text == "set" && isPunctuation(j + 2, "(")) {
                // androidComponents { onVariants { it.outputs.forEach { output -> output.versionCode.set(12) } } }:
                // the value a variant's output really gets.
                context = chain.isEmpty ? "androidComponents \(tok.text)" : (chain + [tok.text]).joined(separator: ".")
                if isPunctuation(j, "=") { j += 1 } else { parenthesized = true; j += 3 }
            } else {
                i += 1
                continue
            }
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
            let found = location(field: field, name: tok.text, context: context, value: value, line: tok.line, path: path,
                                 script: script, override: !isDefault)
            if isDefault { defaults.append(found) } else { overrides.append(found) }
            i = j
        }
        try refuseDuplicates(defaults, path: path) { "\($0 == .marketing ? "versionName" : "versionCode") in android { defaultConfig { … } }" }
        return defaults + overrides
    }

    /// What `location` needs to know about the whole script.
    struct Script {
        var bytes: [UInt8]
        var language: CodeLanguage
        /// Names the script declares itself, with their lines.
        var declared: [String: Int]
        /// Names declared as Gradle property delegates (`val X by project`).
        var delegated: Set<String>
        /// A `*.properties` file the script names (`file("version.properties")`), other than gradle.properties,
        /// local.properties and signing files: a computed value probably comes from it.
        var propertiesFile: String?
    }

    static func isVersionPropertiesFile(_ s: String) -> Bool {
        let name = s.split(separator: "/").last.map(String.init) ?? s
        return name.hasSuffix(".properties") && !["gradle.properties", "local.properties", "key.properties", "keystore.properties"].contains(name)
    }

    /// The expression as written, on one line: whitespace runs (newlines included) become one space.
    static func sourceText(_ bytes: [UInt8], _ range: Range<Int>) -> String {
        var out: [UInt8] = []
        var space = false
        for b in bytes[range] {
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                space = true
                continue
            }
            if space && !out.isEmpty { out.append(0x20) }
            space = false
            out.append(b)
        }
        let text = String(decoding: out, as: UTF8.self)
        return text.count > 80 ? String(text.prefix(79)) + "…" : text
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

    func location(field: VersionField, name: String, context: String, value: [CodeToken], line: Int, path: String,
                  script: Script, override: Bool = false) -> VersionLocation {
        let range = (value.first?.range.lowerBound ?? 0)..<(value.last?.range.upperBound ?? 0)
        let source = Self.sourceText(script.bytes, range)
        if value.count == 1, let literal = literal(value[0], field: field) {
            return VersionLocation(field: field, value: literal, line: line, range: value[0].range,
                                   isNumber: value[0].kind == .number, context: context)
        }
        if let variable = GradleExpression.environmentVariable(value) {
            let example = field == .marketing ? "\"1.0.0\"" : "1"
            let hint = field == .marketing
                ? "the build reads the environment variable \(variable); add a literal fallback relctl can write, e.g. System.getenv(\"\(variable)\") ?: \(example)"
                : "the build reads the environment variable \(variable); add a literal fallback relctl can write, e.g. System.getenv(\"\(variable)\")?.toInt() ?: \(example), or let CI own the number (buildNumber strategy \"env\" or \"keep\")"
            return VersionLocation(field: field, value: source, line: line, range: range,
                                   indirection: .computed(expression: source, hint: hint), context: context)
        }
        if let reference = reference(value, script: script) {
            return VersionLocation(field: field, value: source, line: line, range: range, indirection: reference, context: context)
        }
        // `X ?: 12`: the literal is what a build without X gets; it is edited, and `current` shows what overrides it.
        // Not when the primary reads the properties file the script loads (`versionProps['VERSION_CODE'] ?: '1'`):
        // that file always wins, so the value is computed from it.
        if let (primary, fallback) = GradleExpression.fallback(value), let literal = literal(fallback, field: field),
           reference(primary, script: script) != nil || script.propertiesFile == nil || !primary.contains(where: \.isLiteralString) {
            let primaryRange = primary.first!.range.lowerBound..<primary.last!.range.upperBound
            let overriddenBy = reference(primary, script: script)
                ?? .computed(expression: Self.sourceText(script.bytes, primaryRange), hint: "")
            return VersionLocation(field: field, value: literal, line: line, range: fallback.range,
                                   isNumber: fallback.kind == .number, context: context, overriddenBy: overriddenBy)
        }
        let texts = value.map(\.text)
        let example = field == .marketing ? "\"1.0.0\"" : "1"
        let hint: String
        let variable = value.first(where: { $0.kind == .identifier && script.declared[$0.text] != nil && Self.isBareName(value, $0.text) })
        if texts.contains(where: { $0.hasPrefix("flutter") }) {
            hint = "the value comes from pubspec.yaml; use a pubspec entry instead of this Gradle file"
        } else if texts.first == "libs" {
            hint = "relctl follows libs.versions.<name>.get() to gradle/libs.versions.toml; write it that way, or write a literal"
        } else if let variable {
            hint = "\(variable.text) is a variable declared on line \(script.declared[variable.text]!) of this script, not a Gradle property; write the literal in \(name), or point a regex entry at that line"
        } else if let file = script.propertiesFile, value.contains(where: \.isLiteralString) {
            hint = "the value seems to come from \(file); use a properties entry for that file (with versionNameKey/versionCodeKey) instead of this Gradle file"
        } else if value.isEmpty {
            hint = "write a literal, e.g. \(name) \(example)"
        } else if override {
            hint = "androidComponents sets it for the variant outputs, over defaultConfig; write a literal there, e.g. \(context).set(\(example)), or remove it so defaultConfig's value is used"
        } else {
            hint = "write a literal, or read it from gradle.properties with project.property(\"\(field == .marketing ? "VERSION_NAME" : "VERSION_CODE")\") and add a properties entry"
        }
        let shown = value.isEmpty ? "nothing" : source
        return VersionLocation(field: field, value: shown, line: line, range: range,
                               indirection: .computed(expression: shown, hint: hint), context: context)
    }

    /// The value of a literal token for `field`: a whole number (or a string of digits) for versionCode, a plain string
    /// for versionName; nil for anything else.
    func literal(_ token: CodeToken, field: VersionField) -> String? {
        if field == .androidBuild {
            if token.kind == .number || (token.isLiteralString && token.text.isASCIIDigits) { return token.text }
            return nil
        }
        return token.isLiteralString ? token.text : nil
    }

    /// Where a value that is not a literal comes from, when relctl can follow it or name it: a Gradle property
    /// (`val X by project`, `project.property("X")`, an undeclared name), a version catalog entry, or an environment
    /// variable (named, never followed).
    func reference(_ value: [CodeToken], script: Script) -> Indirection? {
        // `val X by project`: `X` and `X.toInt()` read the Gradle property X.
        if let delegate = value.first(where: { $0.kind == .identifier && script.delegated.contains($0.text) && script.declared[$0.text] == nil }),
           value.count == 1 || Self.isBareName(value, delegate.text) {
            return .gradleProperty(delegate.text)
        }
        if let alias = GradleExpression.catalogAlias(value) { return .versionCatalog(alias) }
        if let variable = GradleExpression.environmentVariable(value) {
            return .computed(expression: "System.getenv(\"\(variable)\")", hint: "the environment variable \(variable)")
        }
        let variable = value.first(where: { $0.kind == .identifier && script.declared[$0.text] != nil && Self.isBareName(value, $0.text) })
        if variable == nil, let property = GradleExpression.propertyReference(value, groovy: script.language == .groovy) {
            return .gradleProperty(property)
        }
        return nil
    }

    /// Whether `value` is `name` alone or with a conversion (`name.toInteger()`, `Integer.parseInt(name)`), as
    /// opposed to an explicit `project.property("name")`.
    static func isBareName(_ value: [CodeToken], _ name: String) -> Bool {
        guard let reference = GradleExpression.propertyReference(value, groovy: true), reference == name else { return false }
        return !value.contains(where: { $0.isString }) && !(value.count >= 3 && ["project", "rootProject"].contains(value[0].text))
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
            if location.field == .androidBuild && location.isNumber != false {
                guard newValue.isASCIIDigits else {
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
