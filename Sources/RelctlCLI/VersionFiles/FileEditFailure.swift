import RelctlFiles

extension FileEditError {
    /// `error: path:line: message (hint)` with the path relative to the repository root.
    func failure(root: String) -> CLIFailure {
        var shown = self
        if path.hasPrefix(root + "/") { shown.path = String(path.dropFirst(root.count + 1)) }
        return CLIFailure(message: shown.description)
    }
}
