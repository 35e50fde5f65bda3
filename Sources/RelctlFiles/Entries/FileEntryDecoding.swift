import RelctlCore
import RelctlJSON

extension FileEntry {
    /// Strict decoding of one `files` item of `.relctl.json`, e.g.
    /// `{"path": "ios/App.xcodeproj/project.pbxproj", "format": "pbxproj", "targets": ["App"]}`.
    /// Unknown keys, options of another format and wrong types are errors with the line.
    package init(from node: JSONNode, configPath: String) throws(FileEditError) {
        func fail(_ line: Int, _ message: String, _ hint: String? = nil) -> FileEditError {
            FileEditError(path: configPath, line: line, message: message, hint: hint)
        }
        guard let members = node.objectMembers else {
            throw fail(node.line, "a files entry must be an object, found \(JSONEditing.article(node.typeName))",
                       "e.g. {\"path\": \"package.json\", \"format\": \"json\"}")
        }
        func string(_ key: String) throws(FileEditError) -> String? {
            guard let v = node.member(key) else { return nil }
            guard let s = v.stringValue else { throw fail(v.line, "\(key) must be a string, found \(JSONEditing.article(v.typeName))") }
            return s
        }
        func stringArray(_ key: String) throws(FileEditError) -> [String]? {
            guard let v = node.member(key) else { return nil }
            guard let items = v.arrayValue else {
                throw fail(v.line, "\(key) must be an array of strings, found \(JSONEditing.article(v.typeName))")
            }
            var out: [String] = []
            for item in items {
                guard let s = item.stringValue else {
                    throw fail(item.line, "\(key) must be an array of strings, found \(JSONEditing.article(item.typeName)) in it")
                }
                out.append(s)
            }
            return out
        }
        guard let path = try string("path") else { throw fail(node.line, "files entry without \"path\"") }
        guard let formatName = try string("format") else {
            throw fail(node.line, "files entry \(path) without \"format\"",
                       "one of: \(FileFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let format = FileFormat(rawValue: formatName) else {
            throw fail(node.member("format")?.line ?? node.line, "unknown format \"\(formatName)\"",
                       "one of: \(FileFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let unit = format.unit
        let allowed = unit.optionKeys.union(["path", "format"])
        for member in members where !allowed.contains(member.key) {
            let known = FormatRegistry.units.contains { $0.optionKeys.contains(member.key) }
            throw fail(member.keyLine, known ? "option \"\(member.key)\" does not apply to format \(format.rawValue)"
                                             : "unknown key \"\(member.key)\" in files entry \(path)",
                       "allowed keys for \(format.rawValue): \(allowed.sorted().joined(separator: ", "))")
        }
        var options = FileOptions()
        if let v = node.member("keyPath") {
            if let s = v.stringValue { options.keyPath = s.split(separator: ".").map(String.init) }
            else { options.keyPath = try stringArray("keyPath") }
            if options.keyPath?.isEmpty == true { throw fail(v.line, "keyPath must not be empty") }
        }
        if let f = try string("field") {
            guard let field = VersionField(rawValue: f) else {
                throw fail(node.member("field")!.line, "unknown field \"\(f)\"",
                           "one of: \(VersionField.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            options.field = field
        }
        options.targets = try stringArray("targets")
        options.pattern = try string("pattern")
        if let patternNode = node.member("pattern") { options.patternSource = DiagnosticLocation(path: configPath, line: patternNode.line) }
        options.versionNameKey = try string("versionNameKey")
        options.versionCodeKey = try string("versionCodeKey")
        options.flavor = try string("flavor")
        if let v = node.member("padBuildNumber") {
            guard let b = v.boolValue else { throw fail(v.line, "padBuildNumber must be a boolean, found \(JSONEditing.article(v.typeName))") }
            options.padBuildNumber = b
        }
        if let v = node.member("only") {
            guard let s = v.stringValue, let only = OnlyField(rawValue: s) else {
                throw fail(v.line, "only must be \"build\" or \"marketing\", found \(v.stringValue.map { "\"\($0)\"" } ?? JSONEditing.article(v.typeName))",
                           "\"only\": \"build\" writes the build number alone, \"only\": \"marketing\" the version alone")
            }
            options.only = only
        }
        // Each option decoded alone; what the format requires of them together, its unit checks.
        try unit.validate(options, entryPath: path, node: node, configPath: configPath)
        self.init(path: path, format: format, options: options)
    }
}
