import RelctlCore

/// Expo `app.config.js` / `app.config.ts`. Edits only literals:
/// - a string/number literal in a `version:` property (top level of the exported object or under `expo`),
///   `buildNumber:` (under `ios`) or `versionCode:` (under `android`); properties inside arrays
///   (plugin options) are ignored;
/// - or the single literal on a line marked with a comment `relctl-version` (marketing),
///   `relctl-version:ios-build` or `relctl-version:android-build`. A marker for a field replaces the
///   property lookup for that field, so `const VERSION = '1.2.0' // relctl-version` works with `version: VERSION`.
/// A computed value (identifier, call, template with `${}`) is refused with an error naming the line.
package struct ExpoJSEditor: VersionEditor {
    package init() {}

    static let markers: [(String, VersionField)] = [
        ("relctl-version:ios-build", .iosBuild), ("relctl-version:android-build", .androidBuild), ("relctl-version", .marketing),
    ]

    static let hint = "relctl edits only literals in JS configs: move the version to app.json or package.json and read it from there, or mark the line holding the literal with a // relctl-version comment"

    package func parse(_ text: String, path: String) throws(FileEditError) -> any ParsedVersionFile {
        let t = ByteText(text)
        let (tokens, comments) = try CodeTokenizer.tokenize(t, language: .javascript, path: path)
        var result: [VersionLocation] = []
        var markedFields: Set<VersionField> = []

        for comment in comments {
            guard let marker = Self.markers.first(where: { comment.text.contains($0.0) }) else { continue }
            let field = marker.1
            markedFields.insert(field)
            let literals = tokens.filter { $0.line == comment.line && ($0.isString || $0.kind == .number) }
            guard literals.count == 1, literals[0].kind == .number || literals[0].isLiteralString else {
                throw FileEditError(path: path, line: comment.line,
                                    message: "line marked \(marker.0) must hold exactly one string or number literal (found \(literals.count))",
                                    hint: "put the literal alone on the marked line")
            }
            let v = literals[0]
            result.append(VersionLocation(field: field, value: v.text, line: v.line, range: v.range,
                                          isNumber: v.kind == .number, context: marker.0))
        }

        let packageJSON = PackageJSONBindings(tokens)
        func packagePath(_ written: String) -> String {
            XcodePaths.join(XcodePaths.folder(of: path), written) ?? written
        }
        // Property lookup with a stack of containers: (kind, key that opened it).
        var stack: [(kind: String, key: String?)] = []
        for (i, tok) in tokens.enumerated() where tok.kind != .newline {
            if tok.kind == .punctuation {
                switch tok.text {
                case "{":
                    var key: String? = nil
                    let prev = significant(tokens, before: i, count: 2)
                    if prev.count == 2, prev[1].text == ":", prev[0].kind == .identifier || prev[0].isLiteralString { key = prev[0].text }
                    // `import { version } from …`, `const { version } = …`: a binding pattern, not an object.
                    let pattern = prev.last.map { $0.kind == .identifier && ["import", "const", "let", "var"].contains($0.text) } ?? false
                    stack.append((pattern ? "pattern" : "{", key))
                case "[", "(":
                    stack.append((tok.text, nil))
                case "}", "]", ")":
                    if !stack.isEmpty { stack.removeLast() }
                default: break
                }
                continue
            }
            guard tok.kind == .identifier || tok.isLiteralString,
                  ["version", "buildNumber", "versionCode"].contains(tok.text),
                  let next = significant(tokens, after: i), next.kind == .punctuation,
                  !stack.contains(where: { $0.kind == "[" }), stack.last?.kind == "{" else { continue }
            let prev = significant(tokens, before: i, count: 1).first
            guard prev == nil || prev!.text == "{" || prev!.text == "," else { continue }
            let keys = stack.compactMap(\.key)
            if next.text != ":" {
                // The shorthand `version,` of `import { version } from "./package.json"`: the version lives there.
                guard tok.kind == .identifier, tok.text == "version", next.text == "," || next.text == "}",
                      keys == [] || keys == ["expo"], !markedFields.contains(.marketing),
                      let written = packageJSON.versions["version"] else { continue }
                result.append(VersionLocation(field: .marketing, value: "version", line: tok.line, range: tok.range,
                                              indirection: .packageJSON(packagePath(written)), context: (keys + ["version"]).joined(separator: ".")))
                continue
            }
            let field: VersionField
            switch tok.text {
            case "version" where keys == [] || keys == ["expo"]: field = .marketing
            case "buildNumber" where keys == ["ios"] || keys == ["expo", "ios"]: field = .iosBuild
            case "versionCode" where keys == ["android"] || keys == ["expo", "android"]: field = .androidBuild
            default: continue
            }
            if markedFields.contains(field) { continue }
            // Value: tokens up to `,` or the closing brace at this depth.
            var value: [CodeToken] = []
            var depth = 0
            var j = (tokens.firstIndex(where: { $0.range == next.range }) ?? i) + 1
            while j < tokens.count {
                let v = tokens[j]
                if v.kind == .punctuation && ["{", "[", "("].contains(v.text) { depth += 1 }
                if v.kind == .punctuation && ["}", "]", ")"].contains(v.text) {
                    if depth == 0 { break }
                    depth -= 1
                }
                if depth == 0 && v.kind == .punctuation && v.text == "," { break }
                if v.kind != .newline { value.append(v) }
                j += 1
            }
            // TypeScript type annotations (`version: string`) are not values.
            if value.count == 1, value[0].kind == .identifier, ["string", "number"].contains(value[0].text) { continue }
            let keyPath = (keys + [tok.text]).joined(separator: ".")
            if value.count == 1, value[0].kind == .number || value[0].isLiteralString {
                let v = value[0]
                result.append(VersionLocation(field: field, value: v.text, line: v.line, range: v.range,
                                              isNumber: v.kind == .number, context: keyPath))
                continue
            }
            let shown = value.isEmpty ? "nothing" : String(value.map(\.text).joined(separator: " ").prefix(60))
            if field == .marketing, let written = packageJSON.versionPath(value) {
                result.append(VersionLocation(field: field, value: value.map(\.text).joined(), line: tok.line,
                                              range: value.first!.range.lowerBound..<value.last!.range.upperBound,
                                              indirection: .packageJSON(packagePath(written)), context: keyPath))
                continue
            }
            result.append(VersionLocation(field: field, value: shown, line: tok.line,
                                          range: (value.first?.range.lowerBound ?? next.range.upperBound)..<(value.last?.range.upperBound ?? next.range.upperBound),
                                          indirection: .computed(expression: shown, hint: Self.hint), context: keyPath))
        }
        try refuseDuplicates(result, path: path) { field in
            switch field {
            case .marketing: return "version"
            case .iosBuild: return "ios.buildNumber"
            default: return "android.versionCode"
            }
        }
        return Parsed(text: text, path: path, locations: result)
    }

    func significant(_ tokens: [CodeToken], before index: Int, count: Int) -> [CodeToken] {
        var out: [CodeToken] = []
        var j = index - 1
        while j >= 0 && out.count < count {
            if tokens[j].kind != .newline { out.insert(tokens[j], at: 0) }
            j -= 1
        }
        return out
    }

    func significant(_ tokens: [CodeToken], after index: Int) -> CodeToken? {
        var j = index + 1
        while j < tokens.count { if tokens[j].kind != .newline { return tokens[j] }; j += 1 }
        return nil
    }

    struct Parsed: ParsedVersionFile {
        let text: String
        let path: String
        let locations: [VersionLocation]

        func edits(for target: VersionTarget) throws(FileEditError) -> [TextEdit] {
            try requireFields(locations, target: target, fields: [.marketing, .iosBuild, .androidBuild], path: path) { field in
                switch field {
                case .marketing: return "version: literal (or a // relctl-version marked line)"
                case .iosBuild: return "ios.buildNumber literal"
                default: return "android.versionCode literal"
                }
            }
            try refuseComputed(locations, target: target, path: path)
            return try literalEdits(locations, target: target) { location, newValue throws(FileEditError) in
                if location.isNumber == true {
                    guard newValue.isASCIIDigits else {
                        throw FileEditError(path: path, line: location.line,
                                            message: "\(location.context ?? "value") is a number literal, but \"\(newValue)\" is not an integer",
                                            hint: "write the value as a string literal if it must hold \"\(newValue)\"")
                    }
                    return newValue
                }
                let quote = String(decoding: [text.utf8Byte(at: location.range.lowerBound)], as: UTF8.self)
                return CodeTokenizer.literal(newValue, quote: quote, language: .javascript)
            }
        }
    }
}
