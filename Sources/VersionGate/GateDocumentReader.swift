/// Reads gate documents of one format, with the app's key names and platform conditions.
///
/// An app keeps one reader and gives it every document it fetches; `relctl gate` and a server use the same
/// reader, so all three read the same values.
public struct GateDocumentReader: Sendable, Hashable {
    public var format: GateDocumentFormat
    public var keys: GateKeys
    /// Platform → the condition name (Firebase) or member of `platforms` (plain JSON) holding its values.
    /// A platform not listed uses its own name (`ios` → `ios`).
    public var platformConditions: [GatePlatform: String]

    public init(
        format: GateDocumentFormat, keys: GateKeys? = nil, platformConditions: [GatePlatform: String] = [:]
    ) {
        self.format = format
        self.keys = keys ?? GateKeys(format: format)
        self.platformConditions = platformConditions
    }

    /// Reads `text`: a JSON syntax error, a document that is not an object (or `null`), or a Firebase
    /// template whose structure is wrong throws. Values are checked later, by ``GateDocument/config(for:)``.
    public func read(_ text: String) throws(GateDocumentError) -> GateDocument {
        try read(root: try GateJSON.parse(text))
    }

    /// Reads a document already parsed: what ``read(_:)`` does after the JSON syntax. `relctl gate` parses the
    /// document once, with positions, and hands the values here, so one load is one parse.
    public func read(root: GateJSON) throws(GateDocumentError) -> GateDocument {
        switch root {
        case .null:
            return GateDocument(reader: self, root: root, isNull: true)
        case .object:
            break
        default:
            throw GateDocumentError("the document is a JSON \(root.typeName), expected an object (or null)")
        }
        switch format {
        case .firebase: return try readFirebase(root)
        case .json: return try readPlain(root)
        }
    }

    /// Reads `text` and resolves the values for `platform`: `nil` for a `null` document.
    public func config(from text: String, for platform: GatePlatform?) throws(GateDocumentError) -> GateConfig? {
        try read(text).config(for: platform)
    }

    /// A document from values already resolved for this device, key → string, as the Firebase SDK serves
    /// them (`RemoteConfig.configValue(forKey:).stringValue`): the SDK has applied the conditions, so every
    /// value is a default and ``GateDocument/config(for:)`` uses the platform only to pick the store URL.
    /// Types are read from the text as in a template (`"true"`, `"900"`, a JSON object for `features`).
    public func read(values: [String: String]) -> GateDocument {
        let members = values.sorted { $0.key < $1.key }.map { (key: $0.key, value: GateJSON.string($0.value)) }
        var document = GateDocument(reader: self, root: .object(members), isNull: false)
        for member in members {
            document.parameterNames.append(member.key)
            document.values[member.key] = GateDocument.FieldValues(defaultValue: member.value)
        }
        return document
    }

    private func readPlain(_ root: GateJSON) throws(GateDocumentError) -> GateDocument {
        var document = GateDocument(reader: self, root: root, isNull: false)
        let platformsKey = keys.name(for: .platforms)
        for member in root.members {
            document.parameterNames.append(member.key)
            if member.key == platformsKey {
                guard case .object(let platforms) = member.value else {
                    throw GateDocumentError("\"\(member.key)\": expected an object, found \(article(member.value.typeName))")
                }
                for platform in platforms {
                    guard case .object(let values) = platform.value else {
                        throw GateDocumentError(
                            "\"\(member.key)\".\"\(platform.key)\": expected an object, found \(article(platform.value.typeName))")
                    }
                    document.conditionNames.append(platform.key)
                    for value in values where value.value != .null {
                        document.values[value.key, default: GateDocument.FieldValues()].byCondition[platform.key] = value.value
                    }
                }
                continue
            }
            if member.value != .null {
                document.values[member.key, default: GateDocument.FieldValues()].defaultValue = member.value
            }
        }
        return document
    }

    private func readFirebase(_ root: GateJSON) throws(GateDocumentError) -> GateDocument {
        var document = GateDocument(reader: self, root: root, isNull: false)
        if let conditions = root["conditions"] {
            guard case .array(let list) = conditions else {
                throw GateDocumentError("\"conditions\": expected an array, found \(article(conditions.typeName))")
            }
            for (index, condition) in list.enumerated() {
                guard case .string(let name)? = condition["name"] else {
                    throw GateDocumentError("\"conditions\"[\(index)]: expected an object with a string \"name\"")
                }
                document.conditionNames.append(name)
            }
        }
        if let parameters = root["parameters"] {
            try readParameters(parameters, path: "\"parameters\"", into: &document)
        }
        if let groups = root["parameterGroups"] {
            guard case .object(let list) = groups else {
                throw GateDocumentError("\"parameterGroups\": expected an object, found \(article(groups.typeName))")
            }
            for group in list {
                let path = "\"parameterGroups\".\"\(group.key)\""
                guard case .object = group.value else {
                    throw GateDocumentError("\(path): expected an object, found \(article(group.value.typeName))")
                }
                if let parameters = group.value["parameters"] {
                    try readParameters(parameters, path: "\(path).\"parameters\"", into: &document)
                }
            }
        }
        if case .string(let number)? = root["version"]?["versionNumber"] {
            document.templateVersion = number
        }
        return document
    }

    private func readParameters(
        _ parameters: GateJSON, path: String, into document: inout GateDocument
    ) throws(GateDocumentError) {
        guard case .object(let list) = parameters else {
            throw GateDocumentError("\(path): expected an object, found \(article(parameters.typeName))")
        }
        for parameter in list {
            let here = "\(path).\"\(parameter.key)\""
            guard case .object = parameter.value else {
                throw GateDocumentError("\(here): expected an object, found \(article(parameter.value.typeName))")
            }
            if document.parameterNames.contains(parameter.key) {
                throw GateDocumentError(
                    "\"\(parameter.key)\" is defined twice (a parameter sits at the top level or in one group, not both)")
            }
            document.parameterNames.append(parameter.key)
            var values = GateDocument.FieldValues()
            if let defaultValue = parameter.value["defaultValue"] {
                values.defaultValue = try firebaseValue(defaultValue, path: "\(here).\"defaultValue\"")
            }
            if let conditional = parameter.value["conditionalValues"] {
                guard case .object(let byCondition) = conditional else {
                    throw GateDocumentError(
                        "\(here).\"conditionalValues\": expected an object, found \(article(conditional.typeName))")
                }
                for condition in byCondition {
                    let value = try firebaseValue(condition.value, path: "\(here).\"conditionalValues\".\"\(condition.key)\"")
                    if let value { values.byCondition[condition.key] = value }
                }
            }
            document.values[parameter.key] = values
        }
    }

    /// `{"value": "…"}` → the string; `{"useInAppDefault": true}` (or any value Firebase serves from
    /// elsewhere, such as a rollout) → `nil`, the app's default.
    private func firebaseValue(_ value: GateJSON, path: String) throws(GateDocumentError) -> GateJSON? {
        guard case .object = value else {
            throw GateDocumentError("\(path): expected an object like {\"value\": \"…\"}, found \(article(value.typeName))")
        }
        guard let text = value["value"] else { return nil }
        guard case .string = text else {
            throw GateDocumentError(
                "\(path).\"value\": expected a string (Remote Config values are strings), found \(article(text.typeName))")
        }
        return text
    }
}

/// "an object", "a string".
func article(_ typeName: String) -> String {
    (typeName.first.map { "aeiou".contains($0) } ?? false) ? "an \(typeName)" : "a \(typeName)"
}
