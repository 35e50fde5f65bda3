import RelctlCore
import RelctlFiles

/// A path the config names — `files[i].path`, `changelog.path`, `gate.document` — with its key and line, for the
/// check that it stays inside the repository. Paths in the config are always relative to the repository root, also
/// when `--config` names a file kept elsewhere.
struct ConfiguredPath: Sendable, Equatable {
    /// The key as messages name it: `files[2].path`, `changelog.path`, `gate.document`.
    let key: String
    /// As written in the config.
    let path: String
    let line: Int
}

extension Config {
    /// `path`, written under `key` at `line`, as a root-relative path (`./a/../b` is `b`), refused when its text
    /// alone says it is not inside the repository: empty, absolute, or climbing above the root with `..`.
    static func repositoryPath(_ path: String, key: String, line: Int, configPath: String, example: String) throws(Problem) -> String {
        func refuse(_ what: String) -> Problem {
            Problem("'\(key)' \(what); give it relative to the repository root, like \"\(example)\"", at: DiagnosticLocation(path: configPath, line: line))
        }
        if path.hasPrefix("/") { throw refuse("\"\(path)\" is an absolute path") }
        guard let normalized = LexicalPath.normalize(path) else { throw refuse("\"\(path)\" is outside the repository") }
        guard !normalized.isEmpty else { throw refuse(path.isEmpty ? "is empty" : "\"\(path)\" is the repository itself, not a file") }
        return normalized
    }

    /// Records a path the config names, once `repositoryPath` accepted its text.
    mutating func record(_ path: String, key: String, line: Int) {
        paths.append(ConfiguredPath(key: key, path: path, line: line))
    }

    /// Every configured path, followed through the file system under `root`: a symbolic link on the way (a folder or
    /// the file) that leads outside the repository, or nowhere, is refused with the key and the line. Nothing has
    /// been read or written yet when this runs (`Config.load`).
    func checkPathsInside(root: String) throws(Problem) {
        for configured in paths {
            guard let normalized = LexicalPath.normalize(configured.path),
                  let escape = RepositoryConfinement.escapingLink(normalized, root: root) else { continue }
            throw Problem("'\(configured.key)' \"\(configured.path)\" is outside the repository: \(escape.link) is a symbolic link to \(escape.target); relctl writes only inside the repository, so name the real file inside it or replace the link with the folder itself", at: DiagnosticLocation(path: path ?? Config.fileName, line: configured.line))
        }
    }
}
