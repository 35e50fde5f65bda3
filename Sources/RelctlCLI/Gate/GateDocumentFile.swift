import Foundation
import RelctlCore

/// Where the gate document lives: `gate.document` resolved against the repository root, symbolic links
/// followed, and refused when the real file lies outside the repository (relctl edits and commits it).
struct GateDocumentFile: Sendable {
    /// The real file, absolute.
    let path: String
    /// The real file relative to the repository's real root: what messages show and the commit names.
    let relativePath: String
    /// The repository root, symbolic links resolved.
    let root: String

    /// Resolves `settings.documentPath` under `root`; `configPath` and the key's line go into the refusal.
    static func locate(_ settings: GateSettings, root: String, configPath: String) throws -> GateDocumentFile {
        let realRoot = resolved(root)
        let written = LexicalPath.join(root, settings.documentPath)
        let real = resolved(written)
        guard let relative = LexicalPath.relative(real, to: realRoot) else {
            throw Problem("'gate.document' \"\(settings.documentPath)\" resolves to \(real), outside the repository \(realRoot); relctl edits and commits the gate document, so point 'gate.document' at a file inside the repository", at: DiagnosticLocation(path: configPath, line: settings.documentLine))
        }
        return GateDocumentFile(path: real, relativePath: relative, root: realRoot)
    }

    /// `path` with every symbolic link resolved: the deepest part that exists goes through `realpath`, the parts
    /// below it (a document not fetched yet) are appended as written.
    static func resolved(_ path: String) -> String {
        var existing = LexicalPath.normalize(path) ?? path
        var rest: [String] = []
        while existing.count > 1 {
            if let real = realpath(existing, nil) {
                defer { free(real) }
                let base = String(cString: real)
                return rest.isEmpty ? base : LexicalPath.join(base, rest.joined(separator: "/"))
            }
            rest.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
        return path
    }

    /// The document's bytes; a missing or unreadable file is an error saying how to get it.
    func read(_ settings: GateSettings, configPath: String) throws -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else {
            let fix = "or fix 'gate.document' at \(configPath):\(settings.documentLine)"
            throw Problem("the gate document does not exist", at: DiagnosticLocation(path: relativePath),
                          hint: settings.format == .firebase
                              ? "fetch the live template with 'firebase remoteconfig:get -o \(relativePath)' and commit it, \(fix)"
                              : "commit the document your API serves as \(relativePath), \(fix)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem("cannot read the gate document", at: DiagnosticLocation(path: relativePath),
                          hint: "check its permissions")
        }
        return Array(data)
    }
}
