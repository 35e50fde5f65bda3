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
package struct GradleEditor: VersionEditor {
    package var kotlin: Bool?

    /// `kotlin: nil` decides from the path (`.kts`).
    package init(kotlin: Bool? = nil) {
        self.kotlin = kotlin
    }

    func language(_ path: String) -> CodeLanguage {
        (kotlin ?? path.hasSuffix(".kts")) ? .kotlin : .groovy
    }

    package func parse(_ text: String, path: String) throws(FileEditError) -> any ParsedVersionFile {
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
            // An assignment wrapped onto the next line (`versionCode =` then `12`): the value starts there.
            if isPunctuation(j - 1, "=") { while j < tokens.count && tokens[j].kind == .newline { j += 1 } }
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
            let found = location(field: field, name: tok.text, context: context, value: value, line: value.first?.line ?? tok.line, path: path,
                                 script: script, override: !isDefault)
            if isDefault { defaults.append(found) } else { overrides.append(found) }
            i = j
        }
        try refuseDuplicates(defaults, path: path) { "\($0 == .marketing ? "versionName" : "versionCode") in android { defaultConfig { … } }" }
        return Parsed(text: text, path: path, language: lang, locations: defaults + overrides)
    }

    struct Parsed: ParsedVersionFile {
        let text: String
        let path: String
        let language: CodeLanguage
        let locations: [VersionLocation]

        func edits(for target: VersionTarget) throws(FileEditError) -> [TextEdit] {
            try requireFields(locations, target: target, fields: [.marketing, .androidBuild], path: path) {
                "\($0 == .marketing ? "versionName" : "versionCode") in android { defaultConfig { … } }"
            }
            try refuseComputed(locations, target: target, path: path)
            return try literalEdits(locations, target: target) { location, newValue throws(FileEditError) in
                if location.field == .androidBuild && location.isNumber != false {
                    guard newValue.isASCIIDigits else {
                        throw FileEditError(path: path, line: location.line, message: "versionCode must be an integer, got \"\(newValue)\"")
                    }
                    return newValue
                }
                let raw = text.utf8Text(location.range)
                let quote = raw.hasPrefix("\"\"\"") ? "\"\"\"" : raw.hasPrefix("'''") ? "'''" : String(raw.prefix(1))
                return CodeTokenizer.literal(newValue, quote: quote, language: language)
            }
        }
    }
}
