/// A gate document that has been read: its raw values by key, per platform condition, ready to resolve
/// into a ``GateConfig`` for one platform.
public struct GateDocument: Sendable, Hashable {
    struct FieldValues: Sendable, Hashable {
        var defaultValue: GateJSON?
        var byCondition: [String: GateJSON] = [:]
    }

    /// The reader's format, keys and platform conditions.
    public let reader: GateDocumentReader
    /// The whole document as read.
    public let root: GateJSON
    /// The document is `null`: run with defaults.
    public let isNull: Bool
    /// Every parameter (Firebase, top level and in groups) or top-level key (plain JSON), in document order.
    public internal(set) var parameterNames: [String] = []
    /// The conditions a Firebase template defines, or the members of a plain document's `platforms`.
    public internal(set) var conditionNames: [String] = []
    /// A Firebase template's `version.versionNumber`, when it has one.
    public internal(set) var templateVersion: String?
    var values: [String: FieldValues] = [:]

    init(reader: GateDocumentReader, root: GateJSON, isNull: Bool) {
        self.reader = reader
        self.root = root
        self.isNull = isNull
    }

    public var format: GateDocumentFormat { reader.format }

    /// The condition (Firebase) or `platforms` member (plain JSON) that holds `platform`'s values.
    public func condition(for platform: GatePlatform) -> String {
        reader.platformConditions[platform] ?? platform.rawValue
    }

    /// The raw value of `field` for `platform`: the platform condition's value when it has one, else the
    /// default. `nil` when the document does not set it (or leaves it to the app's default).
    public func value(of field: GateField, for platform: GatePlatform?) -> GateJSON? {
        guard let key = reader.keys.name(for: field), let values = values[key] else { return nil }
        if let platform, let value = values.byCondition[condition(for: platform)] { return value }
        return values.defaultValue
    }

    /// The gate's values for `platform` (`nil`: the values without any platform condition).
    ///
    /// Returns `nil` for a `null` document ("run with defaults"). Throws when a value has the wrong type, so a
    /// caller fails open instead of gating on a half-read document.
    ///
    /// An empty or blank string is no value. Types: versions are strings (a JSON number is read as its text); an empty string is no value;
    /// booleans are JSON booleans or the strings Firebase reads as booleans (`true`, `1`, `yes`, `on`, …);
    /// `maxAgeSeconds` is a whole number (or its digits as a string); `features` is an object of `"on"`,
    /// `"off"`, `"internal"` (a Firebase JSON parameter holds it as a string), where a state the library
    /// does not know leaves that switch to the build's default; `notice` is `{"level": …, "text": …}` or
    /// plain text.
    public func config(for platform: GatePlatform?) throws(GateDocumentError) -> GateConfig? {
        if isNull { return nil }
        var config = GateConfig()
        config.minimumSupportedVersion = try version(.minimumSupportedVersion, platform)
        config.latestVersion = try version(.latestVersion, platform)
        config.forceUpdateMessage = try text(.forceUpdateMessage, platform)
        config.updateAvailableMessage = try text(.updateAvailableMessage, platform)
        config.maintenanceMessage = try text(.maintenanceMessage, platform)
        if let platform, let field = GateField.storeURL(for: platform) {
            config.storeURL = try text(field, platform)
        }
        config.androidNativeUpdateEnabled = try flag(.androidNativeUpdateEnabled, platform) ?? false
        config.maintenance = try flag(.maintenance, platform) ?? false
        config.features = try features(platform)
        config.notice = try notice(platform)
        config.maxAgeSeconds = try seconds(.maxAgeSeconds, platform)
        config.configVersion = try text(.configVersion, platform) ?? templateVersion
        return config
    }

    /// The value of `field`, an empty (or blank) string counting as no value: the Firebase SDK serves `""`
    /// for a key it does not have.
    private func present(_ field: GateField, _ platform: GatePlatform?) -> GateJSON? {
        let value = value(of: field, for: platform)
        if case .string(let text)? = value, GateText.trimmed(text).isEmpty { return nil }
        return value
    }

    private func key(_ field: GateField) -> String {
        reader.keys.name(for: field) ?? field.rawValue
    }

    private func wrongType(_ field: GateField, expected: String, found value: GateJSON) -> GateDocumentError {
        GateDocumentError("\"\(key(field))\": expected \(expected), found \(article(value.typeName))")
    }

    private func text(_ field: GateField, _ platform: GatePlatform?) throws(GateDocumentError) -> String? {
        guard let value = present(field, platform) else { return nil }
        switch value {
        case .string(let text): return text
        case .number(let text): return text
        default: throw wrongType(field, expected: "a string", found: value)
        }
    }

    private func version(_ field: GateField, _ platform: GatePlatform?) throws(GateDocumentError) -> GateVersion? {
        guard let value = present(field, platform) else { return nil }
        switch value {
        case .string(let text): return GateVersion(text)
        case .number(let text): return GateVersion(text)
        default: throw wrongType(field, expected: "a version string", found: value)
        }
    }

    private func flag(_ field: GateField, _ platform: GatePlatform?) throws(GateDocumentError) -> Bool? {
        guard let value = present(field, platform) else { return nil }
        switch value {
        case .bool(let flag): return flag
        case .string(let text):
            // Firebase's own reading of a string as a boolean.
            switch GateText.asciiLowercased(GateText.trimmed(text)) {
            case "1", "true", "t", "yes", "y", "on": return true
            case "0", "false", "f", "no", "n", "off": return false
            default:
                throw GateDocumentError("\"\(key(field))\": expected true or false, found \"\(text)\"")
            }
        default: throw wrongType(field, expected: "a boolean", found: value)
        }
    }

    private func seconds(_ field: GateField, _ platform: GatePlatform?) throws(GateDocumentError) -> Int? {
        guard let value = present(field, platform) else { return nil }
        let digits: String
        switch value {
        case .number(let text): digits = text
        case .string(let text): digits = GateText.trimmed(text)
        default: throw wrongType(field, expected: "a whole number of seconds", found: value)
        }
        guard let number = Int(digits), number >= 0 else {
            throw GateDocumentError("\"\(key(field))\": expected a whole number of seconds, found \(digits)")
        }
        return number
    }

    /// A Firebase JSON parameter holds its object as a string; a plain document may too.
    private func embeddedObject(_ field: GateField, _ platform: GatePlatform?) throws(GateDocumentError) -> GateJSON? {
        guard let value = present(field, platform) else { return nil }
        if case .string(let text) = value, GateText.trimmed(text).hasPrefix("{") {
            do {
                return try GateJSON.parse(text)
            } catch {
                throw GateDocumentError("\"\(key(field))\": the JSON in the string does not parse: \(error)")
            }
        }
        return value
    }

    private func features(_ platform: GatePlatform?) throws(GateDocumentError) -> [String: FeatureState] {
        guard let value = try embeddedObject(.features, platform) else { return [:] }
        guard case .object(let switches) = value else {
            throw wrongType(.features, expected: "an object of \"on\", \"off\" or \"internal\"", found: value)
        }
        var features: [String: FeatureState] = [:]
        for entry in switches {
            if case .string(let state) = entry.value, let known = FeatureState(rawValue: GateText.asciiLowercased(state)) {
                features[entry.key] = known
            }
        }
        return features
    }

    private func notice(_ platform: GatePlatform?) throws(GateDocumentError) -> GateNotice? {
        guard let value = try embeddedObject(.notice, platform) else { return nil }
        switch value {
        case .string(let text):
            return GateNotice(text: text)
        case .object:
            guard case .string(let text)? = value["text"] else {
                throw GateDocumentError("\"\(key(.notice))\": expected a string \"text\"")
            }
            var level = "info"
            if case .string(let given)? = value["level"] { level = given }
            return text.isEmpty ? nil : GateNotice(level: level, text: text)
        default:
            throw wrongType(.notice, expected: "an object with \"text\" or a string", found: value)
        }
    }
}
