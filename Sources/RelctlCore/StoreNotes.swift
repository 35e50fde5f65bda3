/// The app store a release-notes file is for.
public enum NotesStore: String, CaseIterable, Hashable, Sendable {
    case android, ios

    /// The most characters the store takes in one locale's release notes: Google Play's "What's new" 500,
    /// App Store Connect's "What's New in This Version" 4,000.
    public var limit: Int { self == .android ? 500 : 4000 }

    /// The fastlane layout (`fastlane supply` and `fastlane deliver` read these files).
    public var defaultPath: String {
        self == .android ? "fastlane/metadata/android/{locale}/changelogs/{versionCode}.txt"
            : "fastlane/metadata/{locale}/release_notes.txt"
    }

    public var displayName: String { self == .android ? "Google Play" : "App Store" }
}

/// Release notes for the stores, made from the commits of a release's changelog section.
///
/// - Only commits of the user-facing `types` are listed (default `feat`, `fix`, `perf`), in the order of
///   `types` and oldest first within a type; the scope and the sha are left out (users read these), the
///   description's first letter is capitalised. Each entry is one line, `• Description`.
/// - The text ends with a line break. When it would be over the store's limit, it is cut after the last whole
///   entry that fits with a closing line `…and N more fixes` (`fix`/`fixes`, `new feature(s)`, `performance
///   improvement(s)` when every entry left out is of that type, `change(s)` otherwise) which counts in the limit.
/// - Characters are counted as the stores count them: UTF-16 code units (their web forms and APIs are
///   JavaScript and Java strings), so `é` counts 1 and an emoji outside the Basic Multilingual Plane 2. Never
///   bytes: `ü` is one character, not two.
public enum StoreNotes {
    public static let defaultTypes = ["feat", "fix", "perf"]
    /// Written when a release has no commit of the user-facing types (a `refactor`-only release, say).
    public static let defaultEmptyText = "Bug fixes and improvements."

    /// One listed change.
    public struct Entry: Hashable, Sendable {
        public var type: String
        public var text: String
        public var commit: AnalyzedCommit

        public init(type: String, text: String, commit: AnalyzedCommit) {
            self.type = type
            self.text = text
            self.commit = commit
        }
    }

    /// The commits (newest first, as ``CommitAnalysis/commits``) of the user-facing types, in the order described
    /// above.
    public static func entries(_ commits: [AnalyzedCommit], types: [String]) -> [Entry] {
        let wanted = types.map { $0.lowercased() }
        var byType = [[Entry]](repeating: [], count: wanted.count)
        for commit in commits.reversed() {
            guard commit.status == .counted || commit.status == .noReleaseType, commit.revertedSHA == nil,
                  let message = commit.message, let index = wanted.firstIndex(of: message.normalizedType) else { continue }
            let text = ChangelogRenderer.oneLine(message.description).trimmingASCIIWhitespace()
            guard !text.isEmpty else { continue }
            byType[index].append(Entry(type: wanted[index], text: capitalisedFirst(text), commit: commit))
        }
        return byType.flatMap { $0 }
    }

    /// The notes for one store: the entries' lines, cut to `limit` characters with a closing line when longer.
    public static func render(_ entries: [Entry], limit: Int, emptyText: String = defaultEmptyText) -> String {
        if entries.isEmpty { return fitted(emptyText + "\n", limit: limit) }
        return cut(entries.map { ($0.type, "• " + $0.text + "\n") }, limit: limit)
    }

    /// Lines (each ending in `\n`) with the type of the entry each tells, cut to `limit` characters at a whole line
    /// with a closing line saying how many were left out. The first line is shortened (ending in `…`) only when
    /// even it does not fit beside the closing line.
    public static func cut(_ lines: [(type: String, text: String)], limit: Int) -> String {
        let total = lines.reduce(0) { $0 + characterCount($1.text) }
        if total <= limit { return lines.map(\.text).joined() }
        var kept = lines.count
        var used = total
        while kept > 0 {
            kept -= 1
            used -= characterCount(lines[kept].text)
            let closing = closingLine(lines[kept...].map(\.type))
            if kept > 0, used + characterCount(closing) <= limit {
                return lines[..<kept].map(\.text).joined() + closing
            }
        }
        // Not even one whole line fits beside the closing line: the first, shortened.
        let closing = lines.count > 1 ? closingLine(lines.dropFirst().map(\.type)) : ""
        let room = limit - characterCount(closing) - characterCount("…\n")
        return shortened(String(lines[0].text.dropLast()), to: room) + "…\n" + closing
    }

    /// `…and 3 more fixes`, naming what the left-out entries are when they are all of one known type.
    public static func closingLine(_ types: [String]) -> String {
        let count = types.count
        let one = count == 1
        let noun: String
        switch Set(types).count == 1 ? types[0] : "" {
        case "fix": noun = one ? "fix" : "fixes"
        case "feat": noun = one ? "new feature" : "new features"
        case "perf": noun = one ? "performance improvement" : "performance improvements"
        default: noun = one ? "change" : "changes"
        }
        return "…and \(count) more \(noun)\n"
    }

    /// Characters as the stores count them: UTF-16 code units.
    public static func characterCount(_ text: String) -> Int { text.utf16.count }

    /// `text` cut at the last whole character (grapheme) that keeps it within `room` characters.
    static func shortened(_ text: String, to room: Int) -> String {
        var out = ""
        var used = 0
        for character in text {
            let size = character.utf16.count
            if used + size > room { break }
            out.append(character)
            used += size
        }
        return out
    }

    /// A text that is itself too long (a long `emptyText`): shortened with `…`.
    static func fitted(_ text: String, limit: Int) -> String {
        characterCount(text) <= limit ? text : shortened(String(text.dropLast()), to: limit - 2) + "…\n"
    }

    static func capitalisedFirst(_ text: String) -> String {
        guard let first = text.first, first.isLowercase else { return text }
        return first.uppercased() + text.dropFirst()
    }
}
