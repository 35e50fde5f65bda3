import Foundation
import RelctlCore

/// What a CI provider's log parser must never read as its own syntax in text relctl writes: commit bodies, a
/// configured commitMessage, file contents, option values echoed in an error. Installed on the run's `Output` by
/// `CommandContext` when a provider is detected, so every line relctl writes to stdout or stderr passes here, after
/// control characters are escaped (`TerminalText`): the one place this is done.
///
/// - GitHub Actions runs a line as a workflow command when it starts, after whitespace, with `::` (`::set-output`,
///   `::add-mask::`, `::stop-commands::<token>`, which would turn relctl's own annotations off) or with the legacy
///   `##[`. Such a line gets a zero-width space (U+200B) after its first character: it reads the same in the log
///   and the runner no longer parses it. The annotations relctl means (`::warning title=…::…`) are registered here
///   when the provider makes them and pass unchanged.
/// - GitLab CI folds the log at `section_start:<time>:<name>` and `section_end:…` markers, wherever they are in a
///   line: each gets the same zero-width space (`section_\u{200B}start:`).
final class CILogSafety: @unchecked Sendable {
    enum Syntax: Sendable { case githubWorkflowCommands, gitlabSections }

    let syntax: Syntax
    private let lock = NSLock()
    private var meant: Set<String> = []

    init(_ syntax: Syntax) { self.syntax = syntax }

    static let breaker = "\u{200B}"

    /// `line`, a workflow command relctl means, registered so it passes unchanged.
    func meaning(_ line: String) -> String {
        lock.lock()
        // As `Output` compares it: after control characters are escaped.
        meant.insert(TerminalText.escaped(line))
        lock.unlock()
        return line
    }

    /// `text` with every line the provider would parse as its own syntax broken up, unless relctl means it.
    func safe(_ text: String) -> String {
        switch syntax {
        case .githubWorkflowCommands:
            // Fast path: no `::` or `##[` anywhere, nothing to do.
            guard text.contains("::") || text.contains("##[") else { return text }
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var changed = false
            for index in lines.indices {
                if let safe = safeGitHubLine(lines[index]) {
                    lines[index] = safe
                    changed = true
                }
            }
            return changed ? lines.joined(separator: "\n") : text
        case .gitlabSections:
            guard text.contains("section_") else { return text }
            return text.replacingOccurrences(of: "section_start:", with: "section_\(Self.breaker)start:")
                .replacingOccurrences(of: "section_end:", with: "section_\(Self.breaker)end:")
        }
    }

    /// The line broken up when the runner would read it as a command; nil when it is safe as it is.
    private func safeGitHubLine(_ line: String) -> String? {
        let scalars = line.unicodeScalars
        // The runner trims .NET whitespace: Unicode White_Space, and the byte order mark.
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace && $0 != "\u{FEFF}" }) else { return nil }
        let rest = scalars[start...]
        guard rest.starts(with: "::".unicodeScalars) || rest.starts(with: "##[".unicodeScalars) else { return nil }
        lock.lock()
        let isMeant = meant.contains(line)
        lock.unlock()
        if isMeant { return nil }
        var out = String.UnicodeScalarView(scalars[..<start])
        out.append(rest[rest.startIndex])
        out.append(contentsOf: Self.breaker.unicodeScalars)
        out.append(contentsOf: rest.dropFirst())
        return String(out)
    }
}
