import RelctlCore
import RelctlFiles

extension FileEditError {
    /// `error: path:line: message (hint)` with the path relative to the repository root (`Diagnostic.rendered`).
    func failure(root: String) -> Problem {
        Problem(rendered(relativeTo: root))
    }
}
