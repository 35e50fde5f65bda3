/// The names a `{` opens in a Gradle script, so `android { defaultConfig { … } }` is found however it is reached:
/// `android {`, `project.android {`, `android.defaultConfig {`, `android.apply {`, `with(android) {`,
/// `configure<ApplicationExtension> {`, `extensions.configure<BaseAppModuleExtension> {`,
/// `extensions.configure(com.android.build.api.dsl.ApplicationExtension::class.java) {`,
/// `extensions.getByType<ApplicationExtension>().apply {`, `the<ApplicationExtension>().run {` all open `android`;
/// `configure<ApplicationAndroidComponentsExtension> {` opens `androidComponents`.
enum GradleBlockPath {
    /// Extension types whose `defaultConfig` carries `versionCode` / `versionName` (an application's, not a library's).
    static let androidTypes: Set<String> = ["ApplicationExtension", "BaseAppModuleExtension", "AppExtension", "BaseExtension"]
    static let componentsTypes: Set<String> = ["ApplicationAndroidComponentsExtension", "AndroidComponentsExtension"]
    /// Kotlin scope functions: `android.apply {` opens `android`.
    static let scopeFunctions: Set<String> = ["apply", "run", "also", "let", "with"]
    /// Calls whose type argument (or class argument) names the block: `configure<T> {`, `getByType(T::class.java).apply {`.
    static let typedCalls: Set<String> = ["configure", "getByType", "findByType", "the", "with"]

    /// The names the `{` at `index` opens, outermost first (`android.defaultConfig {` → `["android", "defaultConfig"]`).
    static func names(_ tokens: [CodeToken], openingAt index: Int) -> [String] {
        var j = index - 1
        while j >= 0 && tokens[j].kind == .newline { j -= 1 }
        return receiver(tokens, endingAt: j)
    }

    /// The dotted receiver chain ending at `end`, e.g. `variant.outputs.forEach` or `configure<ApplicationExtension>`.
    static func receiver(_ tokens: [CodeToken], endingAt end: Int) -> [String] {
        var parts: [String] = []
        var j = end
        while j >= 0 {
            let tok = tokens[j]
            if tok.kind == .identifier {
                if !scopeFunctions.contains(tok.text) { parts.insert(tok.text, at: 0) }
                j -= 1
            } else if tok.kind == .punctuation && tok.text == ")" {
                guard let open = matching(tokens, close: j, open: "(", closeText: ")") else { break }
                let arguments = Array(tokens[(open + 1)..<j])
                let callee = open - 1
                if callee >= 0, tokens[callee].kind == .punctuation, tokens[callee].text == ">",
                   let less = matching(tokens, close: callee, open: "<", closeText: ">") {
                    // `getByType<T>()`, `the<T>()`
                    parts.insert(typedName(Array(tokens[(less + 1)..<callee])) ?? "call()", at: 0)
                    j = less - 1 >= 0 && tokens[less - 1].kind == .identifier ? less - 2 : less - 1
                } else if callee >= 0, tokens[callee].kind == .identifier {
                    let name = tokens[callee].text
                    if typedCalls.contains(name), let typed = typedName(arguments) {
                        parts.insert(typed, at: 0)
                    } else if !scopeFunctions.contains(name) || name == "with" {
                        parts.insert(name + "()", at: 0)
                    }
                    j = callee - 1
                } else {
                    break
                }
            } else if tok.kind == .punctuation && tok.text == ">" {
                // `configure<T> {`
                guard let less = matching(tokens, close: j, open: "<", closeText: ">") else { break }
                let callee = less - 1
                guard callee >= 0, tokens[callee].kind == .identifier else { break }
                parts.insert(typedName(Array(tokens[(less + 1)..<j])) ?? tokens[callee].text + "<>", at: 0)
                j = callee - 1
            } else {
                break
            }
            // The chain goes on only through `.` (or `?.`).
            if j >= 0, tokens[j].kind == .punctuation, tokens[j].text == "." {
                j -= 1
                if j >= 0, tokens[j].kind == .punctuation, tokens[j].text == "?" { j -= 1 }
                continue
            }
            break
        }
        return parts
    }

    /// `android` for an application extension type (or `with(android)`), `androidComponents` for the components one.
    static func typedName(_ tokens: [CodeToken]) -> String? {
        let identifiers = tokens.filter { $0.kind == .identifier }.map(\.text)
        if identifiers.contains(where: androidTypes.contains) { return "android" }
        if identifiers.contains(where: componentsTypes.contains) { return "androidComponents" }
        if identifiers == ["android"] { return "android" }
        if identifiers == ["androidComponents"] { return "androidComponents" }
        return nil
    }

    /// The index of the opening token matching the closing one at `close`, on the same nesting level.
    static func matching(_ tokens: [CodeToken], close: Int, open: String, closeText: String) -> Int? {
        var depth = 0
        var k = close
        while k >= 0 {
            let t = tokens[k]
            if t.kind == .punctuation {
                if t.text == closeText { depth += 1 }
                if t.text == open { depth -= 1; if depth == 0 { return k } }
                if open == "<" && (t.text == "{" || t.text == "}" || t.text == ";") { return nil }
            }
            if open == "<" && t.kind == .newline { return nil }
            k -= 1
        }
        return nil
    }
}
