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
    /// The product flavour whose own `versionCode` / `versionName` (in `productFlavors { canary { … } }`) this entry
    /// reads and writes instead of defaultConfig's; nil: defaultConfig's, and those of the flavours that hold the same
    /// value (kept in step with it). A flavour holding another value than defaultConfig is another product: it is
    /// written only through an entry naming it.
    package var flavor: String?

    /// `kotlin: nil` decides from the path (`.kts`).
    package init(kotlin: Bool? = nil, flavor: String? = nil) {
        self.kotlin = kotlin
        self.flavor = flavor
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
        // The product flavour each open block is (nil: none): `canary {`, `create("canary") {` inside productFlavors.
        var flavorStack: [String?] = []
        var flavors: [(name: String, location: VersionLocation)] = []
        var flavorNames: [String] = []
        var defaults: [VersionLocation] = []
        var overrides: [VersionLocation] = []
        var i = 0
        func isPunctuation(_ k: Int, _ text: String) -> Bool {
            k >= 0 && k < tokens.count && tokens[k].kind == .punctuation && tokens[k].text == text
        }
        while i < tokens.count {
            let tok = tokens[i]
            if tok.kind == .punctuation && tok.text == "{" {
                let parent = stack.flatMap { $0 }
                let names = GradleBlockPath.names(tokens, openingAt: i)
                var flavor: String? = nil
                if parent.last == "productFlavors" && parent.contains("android") && flavorStack.allSatisfy({ $0 == nil }) {
                    flavor = Self.flavorName(tokens, openingAt: i)
                    if let flavor, !flavorNames.contains(flavor) { flavorNames.append(flavor) }
                }
                stack.append(names)
                flavorStack.append(flavor)
                i += 1
                continue
            }
            if tok.kind == .punctuation && tok.text == "}" {
                if !stack.isEmpty { stack.removeLast() }
                if !flavorStack.isEmpty { flavorStack.removeLast() }
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
            let flavor = statementStart && chain.isEmpty ? flavorStack.last ?? nil : nil
            if let flavor {
                context = "\(tok.text) in productFlavors { \(flavor) }"
                if isPunctuation(j, "=") { j += 1 } else if isPunctuation(j, "(") { parenthesized = true; j += 1 }
            } else if isDefault {
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
            if let flavor { flavors.append((flavor, found)) } else if isDefault { defaults.append(found) } else { overrides.append(found) }
            i = j
        }
        try refuseDuplicates(defaults, path: path) { "\($0 == .marketing ? "versionName" : "versionCode") in android { defaultConfig { … } }" }
        if let wanted = self.flavor {
            guard flavorNames.contains(wanted) else {
                throw FileEditError(path: path, line: nil, message: "no product flavor \(wanted) in android { productFlavors { … } }",
                                    hint: flavorNames.isEmpty ? "this script declares no product flavors; remove \"flavor\" from its files entry"
                                                              : "flavors declared here: \(flavorNames.joined(separator: ", "))")
            }
            let own = flavors.filter { $0.name == wanted }.map(\.location)
            try refuseDuplicates(own, path: path) { "\($0 == .marketing ? "versionName" : "versionCode") in productFlavors { \(wanted) }" }
            return Parsed(text: text, path: path, language: lang, locations: own, flavor: wanted, flavorNames: flavorNames)
        }
        // Flavours holding defaultConfig's value are kept in step with it; the others are products of their own.
        let inStep = flavors.map(\.location).filter { location in
            defaults.contains { $0.field == location.field && $0.value == location.value && $0.indirection == location.indirection }
        }
        return Parsed(text: text, path: path, language: lang, locations: defaults + inStep + overrides, flavorNames: flavorNames)
    }

    /// The flavours of a script whose own versionCode or versionName differs from defaultConfig's (a canary or
    /// internal build released as another app): name, and the values it sets.
    package static func ownVersionFlavors(_ text: String, path: String) -> [(name: String, marketing: String?, build: String?)] {
        guard let parsed = try? GradleEditor().parse(text, path: path) as? Parsed else { return [] }
        let all = parsed.locations
        let names = parsed.flavorNames
        var result: [(name: String, marketing: String?, build: String?)] = []
        for name in names {
            guard let own = try? GradleEditor(flavor: name).parse(text, path: path).locations, !own.isEmpty else { continue }
            let differs = own.contains { location in
                !all.contains { $0.field == location.field && $0.line == location.line && $0.range == location.range }
            }
            if differs {
                result.append((name, own.first { $0.field == .marketing }?.value, own.first { $0.field == .androidBuild }?.value))
            }
        }
        return result
    }

    /// The flavour a block inside productFlavors declares: `canary {`, `create("canary") {`, `register("canary")`,
    /// `getByName("canary") {`, `maybeCreate("canary").apply {`.
    static func flavorName(_ tokens: [CodeToken], openingAt index: Int) -> String? {
        var j = index - 1
        while j >= 0 && tokens[j].kind == .newline { j -= 1 }
        guard j >= 0 else { return nil }
        if tokens[j].kind == .identifier {
            if GradleBlockPath.scopeFunctions.contains(tokens[j].text), j >= 2, tokens[j - 1].text == "." { j -= 2 } else { return tokens[j].text }
        }
        guard tokens[j].kind == .punctuation, tokens[j].text == ")",
              let open = GradleBlockPath.matching(tokens, close: j, open: "(", closeText: ")") else { return nil }
        return tokens[(open + 1)..<j].first(where: \.isLiteralString)?.text
    }

    struct Parsed: ParsedVersionFile {
        let text: String
        let path: String
        let language: CodeLanguage
        let locations: [VersionLocation]
        var flavor: String? = nil
        /// The product flavours the script declares.
        var flavorNames: [String] = []

        func edits(for target: VersionTarget) throws(FileEditError) -> [TextEdit] {
            if let flavor {
                // A flavour sets what it overrides; the rest it takes from defaultConfig, which is another entry's.
                try requireFields(locations, target: target, fields: [.androidBuild], path: path) {
                    "\($0 == .marketing ? "versionName" : "versionCode") in productFlavors { \(flavor) }"
                }
            } else {
                try requireFields(locations, target: target, fields: [.marketing, .androidBuild], path: path) {
                    "\($0 == .marketing ? "versionName" : "versionCode") in android { defaultConfig { … } }"
                }
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
