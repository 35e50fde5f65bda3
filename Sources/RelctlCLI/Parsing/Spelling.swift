import RelctlCore

/// "Did you mean": the one rule for every misspelt name relctl meets (a command, a subcommand, an option, a gate
/// document key).
enum Spelling {
    /// The name of `candidates` closest to `name` when it is a likely misspelling: a candidate it starts (an
    /// abbreviation of at least three letters), else one at most two edits away (never the whole name).
    static func nearest(_ name: String, among candidates: [String]) -> String? {
        let others = candidates.filter { $0 != name }
        if name.count >= 3, let started = others.first(where: { $0.hasPrefix(name) }) { return started }
        let scored = others.map { ($0, editDistance($0, name)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.1 < name.count else { return nil }
        return best.0
    }

    /// "; did you mean 'X'?" or nothing.
    static func suggestion(_ name: String, among candidates: [String]) -> String {
        nearest(name, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }
}
