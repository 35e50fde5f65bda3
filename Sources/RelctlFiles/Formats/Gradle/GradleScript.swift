import RelctlCore

/// What the value of a `versionCode` / `versionName` needs to know about the whole build script: the names it declares
/// itself and the Gradle property delegates it reads.
extension GradleEditor {
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
}
