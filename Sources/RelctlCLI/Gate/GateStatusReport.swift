import RelctlCore

/// The gate's part of `relctl status`: the document, each platform's minimum and latest. A document that
/// cannot be read is shown as such, never an error of `status`.
enum GateStatusReport {
    /// The lines of the text report (none when no gate is configured).
    static func text(_ workspace: Workspace) -> String {
        guard let settings = workspace.config.gate else { return "" }
        let loaded: LoadedGateDocument
        do {
            loaded = try LoadedGateDocument.load(workspace.config, root: workspace.root)
        } catch {
            return "gate:          \(describe(error)) (relctl gate check)\n"
        }
        let values = loaded.platformValues()
        let width = values.map(\.platform.rawValue.count).max() ?? 0
        var text = "gate:          \(loaded.path) (\(settings.format.rawValue))\n"
        for value in values { text += "               \(value.row(width: width))\n" }
        return text
    }

    /// `"gate"` of `status --json`: null when no gate is configured.
    static func json(_ workspace: Workspace) -> JSONOutput {
        guard let settings = workspace.config.gate else { return .null }
        var platforms: [JSONOutput] = []
        var problem: String?
        var path = settings.documentPath
        do {
            let loaded = try LoadedGateDocument.load(workspace.config, root: workspace.root)
            path = loaded.path
            platforms = loaded.platformValues().map(\.json)
        } catch {
            problem = describe(error)
        }
        return .object([("document", .string(path)), ("format", .string(settings.format.rawValue)),
                        ("platforms", .array(platforms)), ("problem", .optional(problem))])
    }

    /// Where and what, without the fix: `status` points at `relctl gate check`, which says more.
    private static func describe(_ error: any Error) -> String {
        guard let diagnostic = error as? any Diagnostic else { return "\(error)" }
        return Problem(diagnostic.message, at: diagnostic.location).rendered()
    }
}
