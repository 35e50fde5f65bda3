import RelctlCore

/// The names an Expo JS config binds to its `package.json` (`import pkg from "./package.json"`,
/// `const pkg = require("./package.json")`, `import { version } from "./package.json"`,
/// `const { version } = require("./package.json")`, `const VERSION = pkg.version`), so that `version: pkg.version`,
/// `version: VERSION`, `version` (shorthand) and `version: require("./package.json").version` are read as what they
/// are: the marketing version lives in that package.json, which a `json` entry writes.
struct PackageJSONBindings {
    /// Names bound to the whole package.json object, with its path as written.
    var objects: [String: String] = [:]
    /// Names bound to its `version`.
    var versions: [String: String] = [:]

    init(_ tokens: [CodeToken]) {
        let code = tokens.filter { $0.kind != .newline }
        func isPackageJSON(_ t: CodeToken) -> Bool {
            t.isLiteralString && (t.text == "package.json" || t.text.hasSuffix("/package.json"))
        }
        func text(_ k: Int) -> String? { k >= 0 && k < code.count ? code[k].text : nil }
        /// `require("…package.json")` starting at `k`: the path and the index after `)`.
        func require(at k: Int) -> (String, Int)? {
            guard text(k) == "require", text(k + 1) == "(", k + 2 < code.count, isPackageJSON(code[k + 2]), text(k + 3) == ")" else { return nil }
            return (code[k + 2].text, k + 4)
        }
        /// `{ version }`, `{ version: v }` between `open` and its `}`: the local name of `version`, and the index after `}`.
        func destructured(at open: Int) -> (String?, Int)? {
            guard text(open) == "{" else { return nil }
            var k = open + 1
            var name: String?
            while k < code.count, code[k].text != "}" {
                if code[k].kind == .identifier, code[k].text == "version", text(k - 1) == "{" || text(k - 1) == "," {
                    name = text(k + 1) == ":" || text(k + 1) == "as" ? text(k + 2) : "version"
                }
                k += 1
            }
            return k < code.count ? (name, k + 1) : nil
        }
        for k in code.indices where code[k].kind == .identifier {
            switch code[k].text {
            case "import":
                // import X from "…", import * as X from "…", import { version [as v] } from "…", import X, { version } from "…"
                var j = k + 1
                var objectName: String?
                var versionName: String?
                if text(j) == "*", text(j + 1) == "as", j + 2 < code.count { objectName = code[j + 2].text; j += 3 }
                else if j < code.count, code[j].kind == .identifier, code[j].text != "type" { objectName = code[j].text; j += 1 }
                if text(j) == "," { j += 1 }
                if let (name, after) = destructured(at: j) { versionName = name; j = after }
                guard text(j) == "from", j + 1 < code.count, isPackageJSON(code[j + 1]) else { continue }
                if let objectName { objects[objectName] = code[j + 1].text }
                if let versionName { versions[versionName] = code[j + 1].text }
            case "const", "let", "var":
                if let (name, after) = destructured(at: k + 1), text(after) == "=", let (path, _) = require(at: after + 1) {
                    if let name { versions[name] = path }
                    continue
                }
                guard k + 2 < code.count, code[k + 1].kind == .identifier else { continue }
                var j = k + 2
                // A TypeScript annotation: `const pkg: { version: string } = …`, `const VERSION: string = …`.
                if text(j) == ":" {
                    var depth = 0
                    j += 1
                    while j < code.count, depth > 0 || code[j].text != "=" {
                        if code[j].text == "{" { depth += 1 } else if code[j].text == "}" { depth -= 1 }
                        j += 1
                    }
                }
                guard text(j) == "=" else { continue }
                // The value on the line of its first token (a declaration without a semicolon ends with its line).
                let line = j + 1 < code.count ? code[j + 1].line : 0
                let value = Array(code[(j + 1)...].prefix { $0.line == line && $0.text != ";" && $0.text != "," }.prefix(8))
                if let (path, after) = require(at: j + 1), after == j + 1 + 4, !(text(after) == ".") {
                    objects[code[k + 1].text] = path
                } else if let path = Self.versionPath(value, boundSoFar: self) {
                    versions[code[k + 1].text] = path
                }
            default:
                continue
            }
        }
    }

    /// The package.json path (as written) whose version `value` (the tokens of a property value) reads, nil for
    /// anything else: `pkg.version`, `require("./package.json").version`, a name bound to it; a TypeScript
    /// `as string` after it is allowed.
    static func versionPath(_ value: [CodeToken], boundSoFar bindings: PackageJSONBindings) -> String? {
        var v = value.filter { $0.kind != .newline }
        if v.count >= 2, v[v.count - 2].text == "as", v[v.count - 1].kind == .identifier { v.removeLast(2) }
        if v.count == 1, v[0].kind == .identifier { return bindings.versions[v[0].text] }
        if v.count == 3, v[0].kind == .identifier, v[1].text == ".", v[2].text == "version" { return bindings.objects[v[0].text] }
        if v.count == 6, v[0].text == "require", v[1].text == "(", v[2].isLiteralString,
           v[2].text == "package.json" || v[2].text.hasSuffix("/package.json"), v[3].text == ")", v[4].text == ".", v[5].text == "version" {
            return v[2].text
        }
        return nil
    }

    func versionPath(_ value: [CodeToken]) -> String? { Self.versionPath(value, boundSoFar: self) }
}
