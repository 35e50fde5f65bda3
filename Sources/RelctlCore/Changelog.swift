/// A changelog heading and the commit types listed under it.
public struct ChangelogGroup: Hashable, Sendable {
    public var title: String
    /// Conventional types, compared case-insensitively.
    public var types: [String]

    public init(title: String, types: [String]) {
        self.title = title
        self.types = types
    }
}

/// Which commits a changelog section lists, and under which headings.
///
/// A commit goes to the first matching heading, in this order:
/// 1. ``breakingChangesTitle``: every breaking commit (counted), whatever its type;
/// 2. ``revertsTitle``: counted reverts of commits outside the range (reverts of commits in the
///    range cancel out and are never listed); leave it `nil` to list none;
/// 3. the first of ``groups`` whose types contain the commit's type: counted commits, and also
///    commits of that type that bump nothing (`.noReleaseType`), so adding a
///    `"Documentation"` group for `docs` lists docs commits.
///
/// Commits matching nothing (non-conventional commits, types without a group, merges, fixups,
/// reverted commits) are left out.
public struct ChangelogSettings: Hashable, Sendable {
    public var breakingChangesTitle: String
    public var groups: [ChangelogGroup]
    public var revertsTitle: String?
    /// `"changelog": {"authors": true}`: each entry names its authors (`by @alice`) when the forge told them
    /// (``ChangelogRelease/authors``); without any, the section is as without the setting.
    public var authors = false

    public static let defaultGroups = [
        ChangelogGroup(title: "Features", types: ["feat"]),
        ChangelogGroup(title: "Bug fixes", types: ["fix"]),
        ChangelogGroup(title: "Performance", types: ["perf"]),
    ]

    /// "Breaking changes", "Features" (feat), "Bug fixes" (fix), "Performance" (perf), "Reverts".
    public static let `default` = ChangelogSettings()

    public init(breakingChangesTitle: String = "Breaking changes",
                groups: [ChangelogGroup] = ChangelogSettings.defaultGroups,
                revertsTitle: String? = "Reverts") {
        self.breakingChangesTitle = breakingChangesTitle
        self.groups = groups
        self.revertsTitle = revertsTitle
    }
}

/// Renders one release's section of `CHANGELOG.md`.
public enum ChangelogRenderer {
    /// The Markdown section of a release:
    ///
    /// ```
    /// ## [1.3.0](https://github.com/acme/app/compare/v1.2.0...v1.3.0) (2026-11-29)
    ///
    /// ### Features
    ///
    /// * **ui:** dark mode ([a1b2c3d](https://github.com/acme/app/commit/a1b2c3d…))
    ///
    /// ```
    ///
    /// - `commits` are in history order, newest first (as ``CommitAnalysis/commits``); entries
    ///   are listed oldest first within each heading, empty headings are omitted, and a section
    ///   without entries says `No user-facing changes.`
    /// - The heading links to the comparison with `previousTag` when both `links` and
    ///   `previousTag` are given; `## 1.3.0 (2026-11-29)` otherwise.
    /// - Descriptions are written as given, on one line (line breaks become spaces). A breaking
    ///   change's footer text, when it differs from the description, follows its entry,
    ///   indented by two spaces (blank lines dropped) so it stays inside the list item.
    /// - The section ends with exactly one blank line.
    public static func section(version: String, previousTag: String?, tag: String, date: String,
                               commits: [AnalyzedCommit], settings: ChangelogSettings,
                               links: RemoteLinks?, closedIssues: [String: [Int]] = [:]) -> String {
        var out = "## "
        if let links, let previousTag {
            out += "[\(oneLine(version))](\(links.compareURL(from: previousTag, to: tag)))"
        } else {
            out += oneLine(version)
        }
        out += " (\(oneLine(date)))\n\n"

        let groups = renderedGroups(commits, settings: settings, links: links, closedIssues: closedIssues)
        if groups.isEmpty {
            out += "No user-facing changes.\n\n"
            return out
        }
        for (title, entries) in groups {
            out += "### \(title)\n\n" + entries + "\n"
        }
        return out
    }

    /// The headings of a section (on one line) with their list items (each line ending in `\n`), empty
    /// headings omitted. `bullet` starts each item: `*` in relctl's own sections; a Keep a Changelog file
    /// gets the marker its own lists use.
    static func renderedGroups(_ commits: [AnalyzedCommit], settings: ChangelogSettings, links: RemoteLinks?,
                               bullet: Character = "*", closedIssues: [String: [Int]] = [:]) -> [(title: String, entries: String)] {
        grouped(commits.reversed(), settings: settings).map { title, entries in
            (oneLine(title), entries.map {
                entry($0.0, breaking: $0.1, links: links, bullet: bullet, closes: closedIssues.isEmpty ? [] : closedIssues[$0.0.sha] ?? [])
            }.joined())
        }
    }

    /// Headings with their commits in the given order, empty headings omitted.
    /// Each commit is paired with whether it is listed as a breaking change.
    static func grouped(_ commits: some Sequence<AnalyzedCommit>,
                        settings: ChangelogSettings) -> [(title: String, entries: [(AnalyzedCommit, Bool)])] {
        var breaking: [AnalyzedCommit] = []
        var reverts: [AnalyzedCommit] = []
        var byGroup = [[AnalyzedCommit]](repeating: [], count: settings.groups.count)
        let groupTypes = settings.groups.map { Set($0.types.map { $0.lowercased() }) }

        for commit in commits {
            if commit.counted, commit.message?.isBreaking == true {
                breaking.append(commit)
            } else if commit.counted, commit.revertedSHA != nil {
                if settings.revertsTitle != nil { reverts.append(commit) }
            } else if commit.status == .counted || commit.status == .noReleaseType,
                      let type = commit.message?.normalizedType,
                      let index = groupTypes.firstIndex(where: { $0.contains(type) }) {
                byGroup[index].append(commit)
            }
        }

        var result: [(title: String, entries: [(AnalyzedCommit, Bool)])] = []
        if !breaking.isEmpty { result.append((settings.breakingChangesTitle, breaking.map { ($0, true) })) }
        for (group, members) in zip(settings.groups, byGroup) where !members.isEmpty {
            result.append((group.title, members.map { ($0, false) }))
        }
        if let title = settings.revertsTitle, !reverts.isEmpty { result.append((title, reverts.map { ($0, false) })) }
        return result
    }

    private static func entry(_ commit: AnalyzedCommit, breaking: Bool, links: RemoteLinks?, bullet: Character,
                              closes: [Int]) -> String {
        // Appended piece by piece (a section lists every commit of the release: interpolations cost twice as much).
        var line = String(bullet)
        line += " "
        let description: String
        if let message = commit.message {
            if let scope = message.scope, !scope.isEmpty {
                line += "**"
                line += oneLine(scope)
                line += ":** "
            }
            description = message.description
        } else {
            description = commit.summary
        }
        if let links {
            line += links.linkingReferences(in: oneLine(description))
        } else {
            line += oneLine(description)
        }
        let short = commit.sha.prefix(7)
        if let links {
            line += " (["
            line.append(contentsOf: short)
            line += "]("
            line += links.commitURL(commit.sha)
            line += "))"
            if !closes.isEmpty { line += links.closesSuffix(closes) }
        } else {
            line += " ("
            line.append(contentsOf: short)
            line += ")"
        }
        line += "\n"
        if breaking, let message = commit.message {
            for text in message.breakingChanges where text != message.description {
                for detail in text.split(whereSeparator: \.isNewline)
                    where !detail.allSatisfy(\.isWhitespace) {
                    line += "  " + detail + "\n"
                }
            }
        }
        return line
    }

    /// `text` on a single line: CR, LF and other line breaks become spaces.
    static func oneLine(_ text: String) -> String {
        // A line break is U+000A…U+000D, U+0085 (C2 85), U+2028 or U+2029 (E2 80 A8/A9), each a `Character` of its
        // own (or CR LF): without any of those lead bytes there is none, known without grapheme breaking.
        guard text.utf8.contains(where: { ($0 >= 0x0A && $0 <= 0x0D) || $0 == 0xC2 || $0 == 0xE2 }),
              text.contains(where: \.isNewline) else { return text }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// Edits the text of a `CHANGELOG.md`.
public enum ChangelogFile {
    /// `existing` with `section` inserted as the newest release.
    ///
    /// - No file (`nil` or empty): `# Changelog`, a blank line, then the section.
    /// - Otherwise the section goes before the first `## ` heading (outside unindented fenced code blocks),
    ///   so a title and intro paragraphs stay on top; at the end when there is no such heading.
    ///   Every existing byte is kept; a blank line is added before the section when the text
    ///   before it does not end with one. When the file's first line ends with CRLF, the section
    ///   is written with CRLF too.
    ///
    /// Check ``containsVersion(_:in:)`` first: this function does not look for duplicates.
    public static func prepend(section: String, to existing: String?) -> String {
        guard let existing, !existing.isEmpty else { return "# Changelog\n\n" + section }
        // A byte-order mark stays first; the rest is edited as if it were not there (one mark, no recursion).
        if existing.unicodeScalars.first == "\u{FEFF}" {
            let rest = String(existing.unicodeScalars.dropFirst())
            return "\u{FEFF}" + (rest.isEmpty ? "# Changelog\n\n" + section : insert(section: section, into: rest))
        }
        return insert(section: section, into: existing)
    }

    private static func insert(section: String, into existing: String) -> String {
        let bytes = Array(existing.utf8)
        let crlf = usesCRLF(bytes)
        let newline = crlf ? "\r\n" : "\n"
        var insertion = section.replacingNewlines(with: newline)

        let lines = lineRanges(bytes)
        let offset = lines.first(where: { isLevel2Heading(bytes[$0.content]) && !$0.inFence })?.start ?? bytes.count
        let before = bytes[..<offset]
        if !before.isEmpty {
            // Byte checks: in Swift, "\r\n" is one Character, so `hasSuffix("\n")` would miss it.
            if before.last != 0x0A {
                insertion = newline + newline + insertion
            } else if !endsWithBlankLine(before) {
                insertion = newline + insertion
            }
        }
        return String(decoding: before, as: UTF8.self) + insertion + String(decoding: bytes[offset...], as: UTF8.self)
    }

    /// `true` when `text` has a level-2 heading for `version`: `## [1.3.0]…` or `## 1.3.0…`, also with a `v`
    /// (`## [v1.3.0]`, as some Keep a Changelog files label releases by tag) — the version followed by the
    /// end of the line or a space (`]` when bracketed); so `1.3.0-rc.1` is not `1.3.0`.
    public static func containsVersion(_ version: String, in text: String) -> Bool {
        let bytes = Array(text.utf8)
        let target = Array(version.utf8)
        guard !target.isEmpty else { return false }
        for line in lineRanges(bytes) where !line.inFence {
            var rest = bytes[line.content]
            guard isLevel2Heading(rest) else { continue }
            rest = rest.dropFirst(2).drop(while: { $0 == 0x20 || $0 == 0x09 })
            let bracketed = rest.first == UInt8(ascii: "[")
            if bracketed { rest = rest.dropFirst() }
            if rest.first == UInt8(ascii: "v") || rest.first == UInt8(ascii: "V") { rest = rest.dropFirst() }
            guard rest.starts(with: target) else { continue }
            let next = rest.dropFirst(target.count).first
            if bracketed ? next == UInt8(ascii: "]") : (next == nil || next == 0x20 || next == 0x09) { return true }
        }
        return false
    }

    // MARK: Lines

    struct Line {
        /// Offset of the first byte of the line.
        var start: Int
        /// The line without its line ending (and without a leading BOM on the first line).
        var content: Range<Int>
        /// Inside a fenced code block (fence lines included).
        var inFence: Bool
    }

    static func lineRanges(_ bytes: [UInt8]) -> [Line] {
        var lines: [Line] = []
        var start = 0
        var fence: [UInt8]?
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != 0x0A { end += 1 }
            var contentStart = start
            if start == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { contentStart = 3 }
            var contentEnd = end
            if contentEnd > contentStart, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            let content = bytes[contentStart..<max(contentStart, contentEnd)]

            // Fences: ``` or ~~~ at the start of the line (closed by the same character, at least as long).
            // Indented fences belong to list items (a breaking-change detail), whose end closes them.
            let trimmed = content
            let marker = trimmed.prefix(while: { $0 == trimmed.first })
            let opensFence = marker.count >= 3
                && (marker.first == UInt8(ascii: "`") || marker.first == UInt8(ascii: "~"))
            var inFence = fence != nil
            if let open = fence {
                if opensFence, marker.first == open.first, marker.count >= open.count,
                   trimmed.dropFirst(marker.count).allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                    fence = nil
                }
            } else if opensFence {
                fence = Array(marker)
                inFence = true
            }
            lines.append(Line(start: start, content: contentStart..<max(contentStart, contentEnd), inFence: inFence))
            start = end + 1
        }
        return lines
    }

    /// `## ` (or `##` alone) at the start of the line.
    static func isLevel2Heading(_ line: ArraySlice<UInt8>) -> Bool {
        guard line.starts(with: [0x23, 0x23]) else { return false }
        let next = line.dropFirst(2).first
        return next == nil || next == 0x20 || next == 0x09
    }

    static func usesCRLF(_ bytes: [UInt8]) -> Bool {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return false }
        return newline > 0 && bytes[newline - 1] == 0x0D
    }

    /// Ends with a line break preceded by an empty (or CR-only) line.
    private static func endsWithBlankLine(_ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        guard rest.popLast() == 0x0A else { return false }
        if rest.last == 0x0D { rest.removeLast() }
        return rest.isEmpty || rest.last == 0x0A
    }
}

/// Release notes derived from a changelog section.
public enum ReleaseNotes {
    /// The message of an annotated tag: `tagName`, a blank line, then the entries of `section`
    /// (as made by ``ChangelogRenderer/section(version:previousTag:tag:date:commits:settings:links:)``)
    /// as plain text: headings become `Features:` lines (no line starts with `#`, which git treats
    /// as a comment), entries (`*`, `-` or `+` items) become `- scope: description (a1b2c3d)` without
    /// links or bold.
    /// The release heading is dropped. Ends with a newline.
    public static func tagMessage(version tagName: String, section: String) -> String {
        var body: [String] = []
        var lines = section.replacingNewlines(with: "\n").lineFeedSeparatedLines()
        if let first = lines.first, first.hasPrefix("## ") || first == "##" { lines.removeFirst() }
        var afterHeading = false
        for line in lines {
            if let title = subheadingTitle(line) {
                if let last = body.last, !last.isEmpty { body.append("") }
                body.append(title + ":")
                afterHeading = true
                continue
            }
            if line.allSatisfy(\.isWhitespace) {
                if !afterHeading, let last = body.last, !last.isEmpty { body.append("") }
                continue
            }
            afterHeading = false
            if line.hasPrefix("* ") || line.hasPrefix("- ") || line.hasPrefix("+ ") {
                body.append("- " + plainEntry(line.dropFirst(2)))
            } else {
                body.append(String(line))
            }
        }
        while body.last?.isEmpty == true { body.removeLast() }
        while body.first?.isEmpty == true { body.removeFirst() }
        return tagName + "\n\n" + body.joined(separator: "\n") + "\n"
    }

    /// The title of a `###` (or deeper) heading; a Keep a Changelog section may carry hand-written ones.
    private static func subheadingTitle(_ line: Substring) -> String? {
        let marks = line.prefix(while: { $0 == "#" })
        guard marks.count >= 3, line.dropFirst(marks.count).first == " " else { return nil }
        return String(line.dropFirst(marks.count + 1))
    }

    /// `**scope:** description ([a1b2c3d](url))` → `scope: description (a1b2c3d)`; reference links
    /// (`([#12](url))`, `, closes [#12](url)`) become their text (`(#12)`, `, closes #12`).
    private static func plainEntry(_ entry: Substring) -> String {
        // `[#` or `[!`: a reference link (rare); anything else goes straight to the entry's own rewrite. Only generated
        // entries (ending with the commit link, or with `closes` links) are rewritten: hand-written ones stay as written.
        guard entry.hasSuffix("))") || entry.contains("), closes [#"), entry.utf8.indices.contains(where: { index in
            entry.utf8[index] == 0x5B && entry.utf8.index(after: index) < entry.utf8.endIndex
                && [0x23, 0x21].contains(entry.utf8[entry.utf8.index(after: index)])
        }) else { return plainLinkedEntry(entry) }
        var text = unlinkedReferences(String(entry))
        var closes = ""
        if let range = text.ranges(of: "), closes #").last {
            closes = String(text[text.index(after: range.lowerBound)...])
            text = String(text[...range.lowerBound])
        }
        return plainLinkedEntry(Substring(text)) + closes
    }

    /// `[#12](url)` and `[!12](url)` → `#12`, `!12`.
    static func unlinkedReferences(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 0x5B, bytes[index + 1] == 0x23 || bytes[index + 1] == 0x21 {
                var end = index + 2
                while end < bytes.count, bytes[end] >= 0x30, bytes[end] <= 0x39 { end += 1 }
                if end > index + 2, end + 1 < bytes.count, bytes[end] == 0x5D, bytes[end + 1] == 0x28,
                   let close = bytes[(end + 2)...].firstIndex(of: 0x29) {
                    let label = Array(bytes[(index + 1)..<end])
                    bytes.replaceSubrange(index...close, with: label)
                    index += label.count
                    continue
                }
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``plainEntry(_:)`` of an entry without reference links.
    private static func plainLinkedEntry(_ entry: Substring) -> String {
        if entry.isASCIIOnly && !entry.containsByte(0x0D) { return plainASCIIEntry(entry) }
        var text = String(entry)
        if text.hasPrefix("**"), let end = text.dropFirst(2).firstRange(of: ":** ") {
            text = String(text[text.index(text.startIndex, offsetBy: 2)..<end.lowerBound]) + ": " + String(text[end.upperBound...])
        }
        // The trailing commit link written by the renderer: ` ([sha](url))`.
        if text.hasSuffix("))"), let open = text.ranges(of: " ([").last {
            let link = text[open.upperBound...]
            if let close = link.firstRange(of: "](") {
                let sha = link[..<close.lowerBound]
                if !sha.isEmpty, sha.allSatisfy(\.isHexDigit) {
                    text = String(text[..<open.lowerBound]) + " (" + String(sha) + ")"
                }
            }
        }
        return text
    }

    /// `plainEntry` of an entry of ASCII bytes without a carriage return, where every `Character` is one byte: the
    /// same searches, byte-wise (the `Character`-wise ones cost some 6,000 instructions an entry).
    private static func plainASCIIEntry(_ entry: Substring) -> String {
        var bytes = Array(entry.utf8)
        if bytes.starts(with: [0x2A, 0x2A]), let end = firstOffset(of: (0x3A, 0x2A, 0x2A, 0x20), in: bytes, from: 2) {
            bytes.replaceSubrange(end..<(end + 4), with: [0x3A, 0x20])
            bytes.removeFirst(2)
        }
        // The trailing commit link written by the renderer: ` ([sha](url))`.
        if bytes.count >= 2, bytes[bytes.count - 1] == 0x29, bytes[bytes.count - 2] == 0x29,
           let open = lastLinkOpening(in: bytes) {
            let shaStart = open + 3
            if let close = firstLinkMiddle(in: bytes, from: shaStart), close > shaStart,
               bytes[shaStart..<close].allSatisfy(\.isASCIIHexDigit) {
                bytes.removeSubrange(close...)
                bytes.replaceSubrange(open..<shaStart, with: [0x20, 0x28])
                bytes.append(0x29)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The first `:** ` from `start`.
    private static func firstOffset(of pattern: (UInt8, UInt8, UInt8, UInt8), in bytes: [UInt8],
                                    from start: Int) -> Int? {
        var offset = start
        while offset + 4 <= bytes.count {
            if bytes[offset] == pattern.0 && bytes[offset + 1] == pattern.1 && bytes[offset + 2] == pattern.2
                && bytes[offset + 3] == pattern.3 { return offset }
            offset += 1
        }
        return nil
    }

    /// The last ` ([`.
    private static func lastLinkOpening(in bytes: [UInt8]) -> Int? {
        var offset = bytes.count - 3
        while offset >= 0 {
            if bytes[offset] == 0x20 && bytes[offset + 1] == 0x28 && bytes[offset + 2] == 0x5B { return offset }
            offset -= 1
        }
        return nil
    }

    /// The first `](` from `start`.
    private static func firstLinkMiddle(in bytes: [UInt8], from start: Int) -> Int? {
        var offset = start
        while offset + 2 <= bytes.count {
            if bytes[offset] == 0x5D && bytes[offset + 1] == 0x28 { return offset }
            offset += 1
        }
        return nil
    }
}

extension String {
    /// CRLF, CR and LF all replaced by `newline`.
    func replacingNewlines(with newline: String) -> String {
        // Nothing to replace (the common case, measured byte-wise): the text itself.
        if newline == "\n" && !containsByte(0x0D) { return self }
        var out = ""
        var bytes = utf8[...]
        while let index = bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
            out += String(decoding: bytes[..<index], as: UTF8.self) + newline
            var next = bytes.index(after: index)
            if bytes[index] == 0x0D, next < bytes.endIndex, bytes[next] == 0x0A { next = bytes.index(after: next) }
            bytes = bytes[next...]
        }
        return out + String(decoding: bytes, as: UTF8.self)
    }
}
