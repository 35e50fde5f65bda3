import RelctlCore

extension Config {
    static let lintKeys = ["types", "headerMaxLength", "warnings", "off"]

    /// `"lint": {"types": ["deps"], "headerMaxLength": 72, "warnings": ["header-max-length"], "off": ["fixup"]}`:
    /// more commit types, the longest header, and rules that only warn or are not checked (every other rule fails).
    mutating func parseLint(_ root: StrictObject) throws(Problem) {
        guard let object = try root.object("lint") else { return }
        try object.rejectUnknownKeys(Self.lintKeys)
        if let items = try object.array("types") {
            for item in items {
                guard let type = item.stringValue, ConventionalCommitParser.parse(type + ": x")?.type == type else {
                    throw object.error(item, "'lint.types' must list commit types as strings of letters, digits, '-' and '_', like [\"deps\", \"i18n\"]")
                }
                lintTypes.append(type.lowercased())
            }
        }
        if let (n, node) = try object.int("headerMaxLength") {
            guard n > 0 else {
                throw object.error(node, "'lint.headerMaxLength' must be a positive whole number, not \(n); to stop checking the length, add \"header-max-length\" to \"off\"")
            }
            lint.headerMaxLength = n
        }
        for (key, severity) in [("warnings", LintSeverity.warning), ("off", .off)] {
            for item in try object.array(key) ?? [] {
                guard let name = item.stringValue else {
                    throw object.error(item, "'lint.\(key)' must list rule names as strings, like [\"header-max-length\"]")
                }
                guard let rule = LintRule(rawValue: name) else {
                    let names = LintRule.allCases.map(\.rawValue)
                    let best = names.min { editDistance($0, name) < editDistance($1, name) }
                    let fix = best.flatMap { editDistance($0, name) <= 3 ? "did you mean '\($0)'?" : nil } ?? "rules: \(names.joined(separator: ", "))"
                    throw object.error(item, "'lint.\(key)' names an unknown rule '\(name)'; \(fix)")
                }
                if let earlier = lint.severities[rule], earlier != severity {
                    throw object.error(item, "rule '\(name)' is in both 'lint.warnings' and 'lint.off'; keep it in one")
                }
                lint.severities[rule] = severity
            }
        }
    }

    /// What `relctl lint` checks against: the Conventional Commits types, every `bumpRules` type and `lint.types`.
    var lintSettings: LintSettings {
        var settings = lint
        settings.types.formUnion(bumpRules.keys.map { $0.lowercased() })
        settings.types.formUnion(lintTypes)
        return settings
    }
}
