import RelctlCore
import RelctlJSON
import VersionGate

/// The gate document read once: its bytes, the values as the app's library reads them, and where each
/// token sits (for line numbers and edits). The text is parsed once, by the one JSON parser (RelctlJSON, which
/// keeps positions); the library reads the values of that tree (``GateJSON/init(_:)``), not the text again.
struct LoadedGateDocument {
    let file: GateDocumentFile
    let settings: GateSettings
    let bytes: [UInt8]
    let text: String
    /// The values, read by the library the app uses, with the configured keys and platform conditions.
    let document: GateDocument
    let layout: GateDocumentLayout

    var reader: GateDocumentReader { document.reader }
    var path: String { file.relativePath }

    /// Reads `text` (the file's bytes, or an edited copy of them): a syntax error (with its line and column), a
    /// document that is not an object or `null`, a badly shaped Firebase template, or bytes that are not UTF-8
    /// are errors naming the file.
    static func read(_ bytes: [UInt8], file: GateDocumentFile, settings: GateSettings) throws -> LoadedGateDocument {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Problem("the gate document is not UTF-8 text", at: DiagnosticLocation(path: file.relativePath),
                          hint: "save it as UTF-8 JSON")
        }
        let tree: JSONNode
        do {
            tree = try JSONDocument.parse(text, allowJSON5: false)
        } catch {
            throw Problem("not valid JSON: \(error.message)", at: DiagnosticLocation(path: file.relativePath, line: error.line),
                          hint: "column \(error.column); the app fails open on a document it cannot read, so the gate would do nothing")
        }
        let reader = settings.reader
        let document: GateDocument
        do {
            document = try reader.read(root: try GateJSON(tree))
        } catch {
            throw Problem(error.message, at: DiagnosticLocation(path: file.relativePath, line: error.line),
                          hint: "the app fails open on a document it cannot read, so the gate would do nothing")
        }
        let layout = GateDocumentLayout(format: settings.format, tree: tree,
                                        platformsKey: settings.format == .json ? reader.keys.name(for: .platforms) : nil)
        return LoadedGateDocument(file: file, settings: settings, bytes: bytes, text: text, document: document, layout: layout)
    }

    func location(_ line: Int?) -> DiagnosticLocation {
        DiagnosticLocation(path: path, line: line)
    }

    /// The document's key for `field` (the configured name, else the format's default).
    func key(_ field: GateField) -> String {
        reader.keys.name(for: field) ?? field.rawValue
    }

    /// The values `platform` reads (nil: the defaults every platform falls back to). A value of the wrong type
    /// is an error naming the file and, when it can be told, the key's line.
    func config(for platform: GatePlatform?) throws -> GateConfig? {
        do {
            return try document.config(for: platform)
        } catch {
            throw Problem(error.message, at: location(error.line),
                          hint: "the app fails open on a value it cannot read, so the gate would do nothing; relctl gate check lists every problem")
        }
    }

    /// "ios (condition ios)" or "the default".
    func describe(_ platform: GatePlatform?) -> String {
        guard let platform else { return "the default value" }
        let condition = document.condition(for: platform)
        let kind = settings.format == .firebase ? "condition" : "platforms member"
        return "\(platform) (\(kind) \(condition))"
    }
}

extension Config {
    /// The config's file as messages name it (`.relctl.json` when the defaults are in use).
    var displayPath: String { path ?? Config.fileName }

    /// `gate` of the config; an error saying how to add it when there is none.
    func gateSettings() throws -> GateSettings {
        guard let gate else {
            throw Problem("\(displayPath): no version gate is configured; add \(GateSettings.example) (or \"format\": \"json\" for a plain document your API serves)")
        }
        return gate
    }

    /// Where the gate document is under `root`, checked to lie inside the repository.
    func gateDocumentFile(_ settings: GateSettings, root: String) throws -> GateDocumentFile {
        try GateDocumentFile.locate(settings, root: root, configPath: displayPath)
    }
}

extension LoadedGateDocument {
    /// The gate document `config` names under `root`, read and parsed.
    static func load(_ config: Config, root: String) throws -> LoadedGateDocument {
        let settings = try config.gateSettings()
        let file = try config.gateDocumentFile(settings, root: root)
        return try read(try file.read(settings, configPath: config.displayPath), file: file, settings: settings)
    }
}
