import RelctlCore

/// How a `versionCode` / `versionName` value of a build script reads: a literal, a literal fallback behind an override,
/// a reference relctl can follow (a Gradle property, a version catalog entry), or a computed value.
extension GradleEditor {
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
}
