#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RelctlCore
import RelctlFiles

/// A template file the config names, parsed.
struct ConfiguredTemplate: Equatable {
    let path: String
    let template: Template
}

extension Config {
    /// `changelog.template` / `storeNotes.template`: a path relative to the repository root, read when the config is
    /// loaded (`loadTemplates`).
    mutating func parseTemplateKey(_ settings: StrictObject, key: String) throws(Problem) {
        guard let (path, node) = try settings.string("template") else { return }
        let normalized = try Config.repositoryPath(path, key: key, line: node.line, configPath: settings.path,
                                                   example: key == "changelog.template" ? "changelog.mustache" : "store-notes.mustache")
        templatePaths[key] = ConfiguredPath(key: key, path: normalized, line: node.line)
        record(normalized, key: key, line: node.line)
    }

    /// Reads and parses the configured templates; a missing file or a template error is one line: the template's
    /// `path:line:column`, what is wrong and the fix.
    mutating func loadTemplates(root: String) throws {
        for (key, configured) in templatePaths.sorted(by: { $0.key < $1.key }) {
            let absolute = LexicalPath.join(root, configured.path)
            guard let data = FileManager.default.contents(atPath: absolute) else {
                throw Problem("\(path ?? Config.fileName):\(configured.line): '\(key)' \"\(configured.path)\" does not exist or cannot be read; create it (the README's \"Templates\" gives the default to start from) or remove '\(key)'")
            }
            guard let source = String(validating: Array(data), as: UTF8.self) else {
                throw Problem("\(configured.path): the template is not valid UTF-8; save it as UTF-8")
            }
            let template = try Template(source, path: configured.path)
            if key == "changelog.template" {
                changelogTemplate = ConfiguredTemplate(path: configured.path, template: template)
            } else {
                storeNotes?.template = template
            }
        }
    }
}
